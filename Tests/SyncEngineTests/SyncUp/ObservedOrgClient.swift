import Foundation
import OrgClient

/// An org client that forwards every call to `base`, counts the calls in flight (the most ever
/// at once, and which write calls overlapped), and can refuse records with `UNABLE_TO_LOCK_ROW`
/// as a real org does when parallel calls lock the same parent row.
final class ObservedOrgClient: OrgClient, @unchecked Sendable {
    /// One write call: which records it carried and when it started and ended (a sequence number
    /// shared by every start and end).
    struct WriteCall: Sendable {
        var ids: [String]
        var names: [String]
        var started: Int
        var ended: Int?
    }

    let base: any OrgClient
    // Guarded by `lock`.
    private let lock = NSLock()
    private var inFlight = 0
    private var most = 0
    private var sequence = 0
    private var calls: [WriteCall] = []
    private var locksLeft: Int
    private var lockedRecords: [String] = []
    private var retrievedIDCounts: [Int] = []

    /// `lockRefusals`: the first that many records of collection and composite writes are refused
    /// with `UNABLE_TO_LOCK_ROW` (without reaching `base`).
    init(_ base: any OrgClient, lockRefusals: Int = 0) {
        self.base = base
        locksLeft = lockRefusals
    }

    /// The most calls that were ever in flight at once.
    var mostInFlight: Int { lock.withLock { most } }
    /// Every collection write call, in the order they started.
    var writeCalls: [WriteCall] { lock.withLock { calls } }
    /// The names (or ids) of the records refused with `UNABLE_TO_LOCK_ROW`.
    var refused: [String] { lock.withLock { lockedRecords } }
    /// The number of ids of each collection retrieve (a sync up's read-backs), in the order they started.
    var readBackSizes: [Int] { lock.withLock { retrievedIDCounts } }

    private func observed<T>(_ body: () async throws -> T) async rethrows -> T {
        lock.withLock {
            inFlight += 1
            most = max(most, inFlight)
        }
        defer { lock.withLock { inFlight -= 1 } }
        return try await body()
    }

    /// How many of `count` records to refuse now.
    private func takeLocks(_ count: Int) -> Int {
        lock.withLock {
            let taken = min(locksLeft, count)
            locksLeft -= taken
            return taken
        }
    }

    static let lockError = OrgErrorDetail(
        errorCode: "UNABLE_TO_LOCK_ROW",
        message: "unable to obtain exclusive access to this record"
    )

    func collection(_ operation: CollectionOperation, allOrNone: Bool) async throws -> [CollectionResult] {
        let records: [SObjectRecord]
        switch operation {
        case .create(let list), .update(let list), .upsert(_, _, let list): records = list
        case .delete: return try await observed { try await base.collection(operation, allOrNone: allOrNone) }
        }
        let index = lock.withLock { () -> Int in
            sequence += 1
            calls.append(
                WriteCall(
                    ids: records.compactMap(\.id),
                    names: records.compactMap { $0.fields["Name"]?.stringValue },
                    started: sequence
                )
            )
            return calls.count - 1
        }
        defer {
            lock.withLock {
                sequence += 1
                calls[index].ended = sequence
            }
        }
        let refusedCount = takeLocks(records.count)
        let refused = records.prefix(refusedCount)
        let forwarded = Array(records.dropFirst(refusedCount))
        lock.withLock { lockedRecords += refused.map { $0.id ?? $0.fields["Name"]?.stringValue ?? "" } }
        var results = refused.map { _ in CollectionResult(id: nil, isSuccess: false, errors: [Self.lockError]) }
        guard !forwarded.isEmpty else { return results }
        let rest: CollectionOperation =
            switch operation {
            case .create: .create(forwarded)
            case .update: .update(forwarded)
            case .upsert(let type, let field, _): .upsert(objectType: type, externalIDField: field, records: forwarded)
            case .delete: operation
            }
        results += try await observed { try await base.collection(rest, allOrNone: allOrNone) }
        return results
    }

    func composite(_ subrequests: [CompositeSubrequest], allOrNone: Bool) async throws -> [CompositeSubresponse] {
        try await observed { try await base.composite(subrequests, allOrNone: allOrNone) }
    }

    func queryFirstPage(_ soql: String, options: QueryOptions) async throws -> QueryPage {
        try await observed { try await base.queryFirstPage(soql, options: options) }
    }

    func queryMore(_ nextRecordsURL: String, options: QueryOptions) async throws -> QueryPage {
        try await observed { try await base.queryMore(nextRecordsURL, options: options) }
    }

    func create(_ objectType: String, fields: [String: OrgValue]) async throws -> String {
        try await observed { try await base.create(objectType, fields: fields) }
    }

    func update(_ objectType: String, id: String, fields: [String: OrgValue], ifUnmodifiedSince: Date?) async throws {
        try await observed {
            try await base.update(objectType, id: id, fields: fields, ifUnmodifiedSince: ifUnmodifiedSince)
        }
    }

    func delete(_ objectType: String, id: String) async throws {
        try await observed { try await base.delete(objectType, id: id) }
    }

    func upsert(
        _ objectType: String,
        externalIDField: String,
        externalID: String,
        fields: [String: OrgValue]
    ) async throws -> UpsertResult {
        try await observed {
            try await base.upsert(objectType, externalIDField: externalIDField, externalID: externalID, fields: fields)
        }
    }

    func retrieve(_ objectType: String, id: String, fields: [String]) async throws -> RawJSON {
        try await observed { try await base.retrieve(objectType, id: id, fields: fields) }
    }

    func compositeBatch(_ subrequests: [BatchSubrequest], haltOnError: Bool) async throws -> [BatchSubresponse] {
        try await observed { try await base.compositeBatch(subrequests, haltOnError: haltOnError) }
    }

    func retrieveCollection(_ objectType: String, ids: [String], fields: [String]) async throws -> [OrgValue?] {
        lock.withLock { retrievedIDCounts.append(ids.count) }
        return try await observed { try await base.retrieveCollection(objectType, ids: ids, fields: fields) }
    }

    func primingRecords(relayToken: String?, changedAfter: Date?) async throws -> PrimingRecordsPage {
        try await observed { try await base.primingRecords(relayToken: relayToken, changedAfter: changedAfter) }
    }

    func describeGlobal() async throws -> GlobalDescription {
        try await observed { try await base.describeGlobal() }
    }

    func describe(_ objectType: String) async throws -> SObjectDescription {
        try await observed { try await base.describe(objectType) }
    }

    func describeJSON(_ objectType: String) async throws -> RawJSON {
        try await observed { try await base.describeJSON(objectType) }
    }

    func search(_ sosl: String) async throws -> RawJSON {
        try await observed { try await base.search(sosl) }
    }

    func recentlyViewedIDs(_ objectType: String, limit: Int?) async throws -> [String] {
        try await observed { try await base.recentlyViewedIDs(objectType, limit: limit) }
    }

    func limits() async throws -> [String: OrgLimit] {
        try await observed { try await base.limits() }
    }

    func identity() async throws -> OrgUserIdentity {
        try await observed { try await base.identity() }
    }

    func statistics() -> OrgClientStatistics { base.statistics() }
}
