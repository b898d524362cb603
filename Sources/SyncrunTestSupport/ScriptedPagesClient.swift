import Foundation
import OrgClient

/// An org that answers queries from a script of pages, keeps a log of what was asked and done in
/// order, and can hold a page back until its request is cancelled. Every other call fails.
public final class ScriptedPagesClient: OrgClient {
    /// What a page request does.
    public enum Answer: Sendable {
        /// Answers with records `0..<count` of the page.
        case page(records: Int)
        /// Fails with this error.
        case failure(OrgClientError)
        /// Never answers; ends with `CancellationError` when the request is cancelled.
        case hang
    }

    private let answers: [Answer]
    private let lock = NSLock()
    // Guarded by `lock`.
    private nonisolated(unsafe) var events: [String] = []
    private nonisolated(unsafe) var inFlight = 0
    private nonisolated(unsafe) var mostInFlight = 0

    /// An org whose query has one page per answer, the page `n` (from 1) at
    /// `/services/data/v62.0/query/q-n`.
    public init(_ answers: [Answer]) {
        self.answers = answers
    }

    /// What happened, in order: `request N` when page N was asked for, `cancelled N` when its request
    /// was cancelled, and what the caller recorded with ``record(_:)``.
    public var log: [String] { lock.withLock { events } }

    /// The most page requests that were ever in flight at once.
    public var mostConcurrentRequests: Int { lock.withLock { mostInFlight } }

    /// Adds a line to ``log``.
    public func record(_ event: String) {
        lock.withLock { events.append(event) }
    }

    /// Yields until ``log`` has `event` or `tries` yields passed; whether it has it.
    public func waitFor(_ event: String, tries: Int = 2_000) async -> Bool {
        for _ in 0..<tries {
            if log.contains(event) { return true }
            await Task.yield()
        }
        return log.contains(event)
    }

    public static func url(ofPage number: Int) -> String { "/services/data/v62.0/query/q-\(number)" }

    public func queryFirstPage(_ soql: String, options: QueryOptions) async throws -> QueryPage {
        try await answer(page: 1)
    }

    public func queryMore(_ nextRecordsURL: String, options: QueryOptions) async throws -> QueryPage {
        guard let number = Int(nextRecordsURL.split(separator: "-").last ?? ""),
            nextRecordsURL == Self.url(ofPage: number)
        else {
            throw OrgClientError(code: .invalidResponse, message: "no page at \(nextRecordsURL)")
        }
        return try await answer(page: number)
    }

    private func answer(page number: Int) async throws -> QueryPage {
        lock.withLock {
            events.append("request \(number)")
            inFlight += 1
            mostInFlight = max(mostInFlight, inFlight)
        }
        defer { lock.withLock { inFlight -= 1 } }
        switch answers[number - 1] {
        case .failure(let error):
            throw error
        case .hang:
            await Hang().wait()
            record("cancelled \(number)")
            throw CancellationError()
        case .page(let count):
            let isLast = number == answers.count
            let records = (0..<count).map { #"{"Id":"p\#(number)-r\#($0)"}"# }.joined(separator: ",")
            let next = isLast ? "" : #","nextRecordsUrl":"\#(Self.url(ofPage: number + 1))""#
            let text = #"{"totalSize":\#(answers.count * 10),"done":\#(isLast)\#(next),"records":[\#(records)]}"#
            return try QueryPage(scanning: RawJSON(text))
        }
    }

    // MARK: Not used by paging

    private func unused(_ call: String) -> OrgClientError {
        OrgClientError(code: .invalidArgument, message: "the scripted org answers queries only, not \(call)")
    }

    public func create(_ objectType: String, fields: [String: OrgValue]) async throws -> String {
        throw unused("create")
    }
    public func update(_ objectType: String, id: String, fields: [String: OrgValue], ifUnmodifiedSince: Date?)
        async throws
    {
        throw unused("update")
    }
    public func delete(_ objectType: String, id: String) async throws { throw unused("delete") }
    public func upsert(_ objectType: String, externalIDField: String, externalID: String, fields: [String: OrgValue])
        async throws -> UpsertResult
    { throw unused("upsert") }
    public func retrieve(_ objectType: String, id: String, fields: [String]) async throws -> RawJSON {
        throw unused("retrieve")
    }
    public func compositeBatch(_ subrequests: [BatchSubrequest], haltOnError: Bool) async throws -> [BatchSubresponse] {
        throw unused("compositeBatch")
    }
    public func composite(_ subrequests: [CompositeSubrequest], allOrNone: Bool) async throws -> [CompositeSubresponse]
    {
        throw unused("composite")
    }
    public func collection(_ operation: CollectionOperation, allOrNone: Bool) async throws -> [CollectionResult] {
        throw unused("collection")
    }
    public func retrieveCollection(_ objectType: String, ids: [String], fields: [String]) async throws -> [OrgValue?] {
        throw unused("retrieveCollection")
    }
    public func primingRecords(relayToken: String?, changedAfter: Date?) async throws -> PrimingRecordsPage {
        throw unused("primingRecords")
    }
    public func describeGlobal() async throws -> GlobalDescription { throw unused("describeGlobal") }
    public func describe(_ objectType: String) async throws -> SObjectDescription { throw unused("describe") }
    public func describeJSON(_ objectType: String) async throws -> RawJSON { throw unused("describeJSON") }
    public func search(_ sosl: String) async throws -> RawJSON { throw unused("search") }
    public func recentlyViewedIDs(_ objectType: String, limit: Int?) async throws -> [String] {
        throw unused("recentlyViewedIDs")
    }
    public func limits() async throws -> [String: OrgLimit] { throw unused("limits") }
    public func identity() async throws -> OrgUserIdentity { throw unused("identity") }
}

/// A wait that ends only when the waiting task is cancelled.
private final class Hang: Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    private nonisolated(unsafe) var continuation: CheckedContinuation<Void, Never>?
    private nonisolated(unsafe) var isCancelled = false

    public func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = lock.withLock {
                    if isCancelled { return true }
                    self.continuation = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiting = lock.withLock {
                isCancelled = true
                defer { continuation = nil }
                return continuation
            }
            waiting?.resume()
        }
    }
}
