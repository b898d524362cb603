/// The results pages of a completed Bulk API 2.0 query job, handed out in result order while up
/// to ``limit`` of them download at once.
///
/// Where the org offers `resultPages` (API 58.0 and later; see ``BulkResultPageLinks``), the
/// download asks for the page locators and keeps up to ``limit`` pages in flight; an org that
/// answers 404 there, an API version before 58.0, a limit of 1, or a download that starts at a
/// locator (a resumed run) reads the pages one locator after the other instead, as before: the
/// next page asked for while the caller writes the current one (two pages held).
///
/// Pages come out in result order, whatever order they arrive in: a caller that journals each
/// page's ``BulkResultsPage/nextLocator`` as "everything before it is written" stays right after a
/// kill. Memory is bounded: each ``next()`` starts downloads up to ``limit`` pages in flight or
/// waiting, and hands out the first, so the caller's page and the rest are ``limit`` together.
///
/// ```swift
/// let download = BulkResultsDownload(org: org, jobID: job.id, maxRecords: 10_000, limit: 4)
/// while let page = try await download.next() {
///     try write(page.csv)
///     try journal(page.nextLocator)
/// }
/// ```
public final class BulkResultsDownload {
    /// The pages downloading or downloaded at once, the caller's page included.
    public let limit: Int
    private let org: any BulkQueryClient
    private let jobID: String
    private let maxRecords: Int?
    private var mode: Mode
    /// Started downloads, in result order.
    private var inFlight: [Task<BulkResultsPage, any Error>] = []

    private enum Mode {
        /// Not asked yet whether the org has `resultPages`.
        case undecided
        /// Through `resultPages`: the result URLs not started yet, and the next answer's URL.
        case parallel(pending: [String], next: String?)
        /// Locator after locator.
        case sequential(Sequential)
    }

    private enum Sequential {
        /// The page at this locator (`nil`: the first) is to be asked for.
        case next(String?)
        /// A page is in flight; the one after it is known when it arrives.
        case waiting
        /// The last page was asked for.
        case done
    }

    /// Prepares the download of `jobID`'s results (the job must be `JobComplete`).
    ///
    /// - Parameters:
    ///   - maxRecords: The records asked for per page (`nil`: the org's default).
    ///   - limit: The most pages held at once (`maxConcurrentRequests`; at least 1).
    ///   - locator: Where a resumed download starts (the `Sforce-Locator` journaled after the last
    ///     page written); `nil` for the first page.
    public init(
        org: any BulkQueryClient,
        jobID: String,
        maxRecords: Int?,
        limit: Int,
        startingAt locator: String? = nil
    ) {
        self.org = org
        self.jobID = jobID
        self.maxRecords = maxRecords
        self.limit = max(1, limit)
        let version = Double(org.apiVersion) ?? 0
        if locator != nil || self.limit == 1 || version < 58 {
            mode = .sequential(.next(locator))
        } else {
            mode = .undecided
        }
    }

    deinit {
        for task in inFlight { task.cancel() }
    }

    /// Whether the pages come through `resultPages` (known after the first ``next()``).
    public var isParallel: Bool {
        if case .parallel = mode { return true }
        return false
    }

    /// The next page in result order; `nil` after the last.
    ///
    /// - Throws: the org's error for a page or a locator list (``OrgClientError``); after an error
    ///   the downloads still in flight are cancelled.
    public func next() async throws -> BulkResultsPage? {
        do {
            try await fill()
            guard !inFlight.isEmpty else { return nil }
            let page = try await inFlight.removeFirst().value
            if case .sequential(.waiting) = mode {
                mode = .sequential(page.nextLocator.map { .next($0) } ?? .done)
                // One page ahead: the org prepares it while the caller writes this one.
                try await fill()
            }
            return page
        } catch {
            cancel()
            throw error
        }
    }

    /// Cancels the downloads in flight.
    public func cancel() {
        for task in inFlight { task.cancel() }
        inFlight.removeAll()
    }

    /// Starts downloads up to the limit; asks for the next locator list when the known ones ran out.
    private func fill() async throws {
        if case .undecided = mode {
            do {
                let links = try await org.queryJobResultPages(jobID, next: nil, maxRecords: maxRecords)
                mode = .parallel(pending: links.resultURLs, next: links.nextURL)
            } catch let error as OrgClientError where error.code == .notFound {
                mode = .sequential(.next(nil))
            }
        }
        switch mode {
        case .undecided:
            return
        case .sequential(let state):
            // One request at a time: the first page, then each as the previous one's locator is known.
            guard case .next(let locator) = state else { return }
            let (org, jobID, maxRecords) = (org, jobID, maxRecords)
            inFlight.append(Task { try await org.queryJobResults(jobID, locator: locator, maxRecords: maxRecords) })
            mode = .sequential(.waiting)
        case .parallel(var pending, var next):
            while inFlight.count < limit {
                if pending.isEmpty, let url = next {
                    let links = try await org.queryJobResultPages(jobID, next: url, maxRecords: maxRecords)
                    guard !links.resultURLs.isEmpty || links.nextURL == nil else {
                        throw OrgClientError(
                            code: .invalidResponse,
                            message: "the org's resultPages answer for job \(jobID) lists no page but is not done"
                        )
                    }
                    pending = links.resultURLs
                    next = links.nextURL
                }
                guard !pending.isEmpty else { break }
                let url = pending.removeFirst()
                let (org, jobID) = (org, jobID)
                inFlight.append(Task { try await org.queryJobResults(jobID, resultURL: url) })
            }
            mode = .parallel(pending: pending, next: next)
        }
    }
}
