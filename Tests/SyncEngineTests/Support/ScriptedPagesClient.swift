import Foundation
import OrgClient

/// (The same fake as `OrgClientTests/Support/ScriptedPagesClient.swift`: test targets share no
/// sources.) An org that answers queries from a script of pages, keeps a log of what was asked and done in
/// order, and can hold a page back until its request is cancelled. Every other call fails.
final class ScriptedPagesClient: OrgClient {
    /// What a page request does.
    enum Answer: Sendable {
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
    init(_ answers: [Answer]) {
        self.answers = answers
    }

    /// What happened, in order: `request N` when page N was asked for, `cancelled N` when its request
    /// was cancelled, and what the caller recorded with ``record(_:)``.
    var log: [String] { lock.withLock { events } }

    /// The most page requests that were ever in flight at once.
    var mostConcurrentRequests: Int { lock.withLock { mostInFlight } }

    /// Adds a line to ``log``.
    func record(_ event: String) {
        lock.withLock { events.append(event) }
    }

    /// Yields until ``log`` has `event` or `tries` yields passed; whether it has it.
    func waitFor(_ event: String, tries: Int = 2_000) async -> Bool {
        for _ in 0..<tries {
            if log.contains(event) { return true }
            await Task.yield()
        }
        return log.contains(event)
    }

    static func url(ofPage number: Int) -> String { "/services/data/v62.0/query/q-\(number)" }

    func queryFirstPage(_ soql: String, options: QueryOptions) async throws -> QueryPage {
        try await answer(page: 1)
    }

    func queryMore(_ nextRecordsURL: String, options: QueryOptions) async throws -> QueryPage {
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

    func create(_ objectType: String, fields: [String: OrgValue]) async throws -> String { throw unused("create") }
    func update(_ objectType: String, id: String, fields: [String: OrgValue], ifUnmodifiedSince: Date?) async throws {
        throw unused("update")
    }
    func delete(_ objectType: String, id: String) async throws { throw unused("delete") }
    func upsert(_ objectType: String, externalIDField: String, externalID: String, fields: [String: OrgValue])
        async throws -> UpsertResult
    { throw unused("upsert") }
    func retrieve(_ objectType: String, id: String, fields: [String]) async throws -> RawJSON {
        throw unused("retrieve")
    }
    func compositeBatch(_ subrequests: [BatchSubrequest], haltOnError: Bool) async throws -> [BatchSubresponse] {
        throw unused("compositeBatch")
    }
    func composite(_ subrequests: [CompositeSubrequest], allOrNone: Bool) async throws -> [CompositeSubresponse] {
        throw unused("composite")
    }
    func collection(_ operation: CollectionOperation, allOrNone: Bool) async throws -> [CollectionResult] {
        throw unused("collection")
    }
    func retrieveCollection(_ objectType: String, ids: [String], fields: [String]) async throws -> [OrgValue?] {
        throw unused("retrieveCollection")
    }
    func primingRecords(relayToken: String?, changedAfter: Date?) async throws -> PrimingRecordsPage {
        throw unused("primingRecords")
    }
    func describeGlobal() async throws -> GlobalDescription { throw unused("describeGlobal") }
    func describe(_ objectType: String) async throws -> SObjectDescription { throw unused("describe") }
    func describeJSON(_ objectType: String) async throws -> RawJSON { throw unused("describeJSON") }
    func search(_ sosl: String) async throws -> RawJSON { throw unused("search") }
    func recentlyViewedIDs(_ objectType: String, limit: Int?) async throws -> [String] {
        throw unused("recentlyViewedIDs")
    }
    func limits() async throws -> [String: OrgLimit] { throw unused("limits") }
    func identity() async throws -> OrgUserIdentity { throw unused("identity") }
}

/// A wait that ends only when the waiting task is cancelled.
private final class Hang: Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    private nonisolated(unsafe) var continuation: CheckedContinuation<Void, Never>?
    private nonisolated(unsafe) var isCancelled = false

    func wait() async {
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
