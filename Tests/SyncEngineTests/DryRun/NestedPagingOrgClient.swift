import Foundation
import OrgClient

/// The REST client to the local org, with nested child sets paged as Salesforce may page them: the
/// local org returns every child inline, so this client keeps the first `childPageSize` children
/// of each nested set under `childrenKey`, marks the set `done: false` with a `nextRecordsUrl`, and
/// serves the rest itself through ``queryMore(_:options:)``, `childPageSize` at a time. Everything
/// else goes to the wrapped client.
final class NestedPagingOrgClient: OrgClient {
    private let inner: any OrgClient
    private let childrenKey: String
    private let childPageSize: Int
    private let lock = NSLock()
    // Guarded by `lock`.
    private nonisolated(unsafe) var pending: [String: [OrgValue]] = [:]
    private nonisolated(unsafe) var served = 0
    private nonisolated(unsafe) var nextLocator = 0

    init(_ inner: any OrgClient, childrenKey: String, childPageSize: Int) {
        self.inner = inner
        self.childrenKey = childrenKey
        self.childPageSize = childPageSize
    }

    /// How many nested child pages this client served so far.
    var servedChildPages: Int { lock.withLock { served } }

    func queryFirstPage(_ soql: String, options: QueryOptions) async throws -> QueryPage {
        try pagingChildren(of: try await inner.queryFirstPage(soql, options: options))
    }

    func queryMore(_ nextRecordsURL: String, options: QueryOptions) async throws -> QueryPage {
        guard let rest = lock.withLock({ pending.removeValue(forKey: nextRecordsURL) }) else {
            return try pagingChildren(of: try await inner.queryMore(nextRecordsURL, options: options))
        }
        lock.withLock { served += 1 }
        let (set, next) = childSet(rest)
        return QueryPage(
            totalSize: rest.count,
            isDone: next == nil,
            nextRecordsURL: next,
            body: RawJSON(OrgValue.object(set).jsonText)
        )
    }

    /// `page` with every nested child set longer than a page cut to its first page.
    private func pagingChildren(of page: QueryPage) throws -> QueryPage {
        guard var body = try OrgValue(parsing: page.body.text).objectValue,
            let records = body["records"]?.arrayValue
        else { return page }
        body["records"] = .array(
            records.map { record in
                guard var fields = record.objectValue,
                    let children = fields[childrenKey]?["records"]?.arrayValue, children.count > childPageSize
                else { return record }
                let (set, _) = childSet(children)
                fields[childrenKey] = .object(set)
                return .object(fields)
            }
        )
        return QueryPage(
            totalSize: page.totalSize,
            isDone: page.isDone,
            nextRecordsURL: page.nextRecordsURL,
            body: RawJSON(OrgValue.object(body).jsonText)
        )
    }

    /// The nested result holding the first page of `children`, the rest kept for `queryMore`.
    private func childSet(_ children: [OrgValue]) -> (set: [String: OrgValue], next: String?) {
        let first = Array(children.prefix(childPageSize))
        var set: [String: OrgValue] = [
            "totalSize": .integer(Int64(children.count)), "done": .bool(children.count <= childPageSize),
            "records": .array(first),
        ]
        guard children.count > childPageSize else { return (set, nil) }
        let url = lock.withLock {
            nextLocator += 1
            let url = "/services/data/v62.0/query/nested-\(nextLocator)"
            pending[url] = Array(children.dropFirst(childPageSize))
            return url
        }
        set["nextRecordsUrl"] = .string(url)
        return (set, url)
    }

    // MARK: Delegated

    func create(_ objectType: String, fields: [String: OrgValue]) async throws -> String {
        try await inner.create(objectType, fields: fields)
    }

    func update(_ objectType: String, id: String, fields: [String: OrgValue], ifUnmodifiedSince: Date?) async throws {
        try await inner.update(objectType, id: id, fields: fields, ifUnmodifiedSince: ifUnmodifiedSince)
    }

    func delete(_ objectType: String, id: String) async throws {
        try await inner.delete(objectType, id: id)
    }

    func upsert(
        _ objectType: String,
        externalIDField: String,
        externalID: String,
        fields: [String: OrgValue]
    ) async throws -> UpsertResult {
        try await inner.upsert(objectType, externalIDField: externalIDField, externalID: externalID, fields: fields)
    }

    func retrieve(_ objectType: String, id: String, fields: [String]) async throws -> RawJSON {
        try await inner.retrieve(objectType, id: id, fields: fields)
    }

    func compositeBatch(_ subrequests: [BatchSubrequest], haltOnError: Bool) async throws -> [BatchSubresponse] {
        try await inner.compositeBatch(subrequests, haltOnError: haltOnError)
    }

    func composite(_ subrequests: [CompositeSubrequest], allOrNone: Bool) async throws -> [CompositeSubresponse] {
        try await inner.composite(subrequests, allOrNone: allOrNone)
    }

    func collection(_ operation: CollectionOperation, allOrNone: Bool) async throws -> [CollectionResult] {
        try await inner.collection(operation, allOrNone: allOrNone)
    }

    func retrieveCollection(_ objectType: String, ids: [String], fields: [String]) async throws -> [OrgValue?] {
        try await inner.retrieveCollection(objectType, ids: ids, fields: fields)
    }

    func primingRecords(relayToken: String?, changedAfter: Date?) async throws -> PrimingRecordsPage {
        try await inner.primingRecords(relayToken: relayToken, changedAfter: changedAfter)
    }

    func describeJSON(_ objectType: String) async throws -> RawJSON {
        try await inner.describeJSON(objectType)
    }

    func describeGlobal() async throws -> GlobalDescription {
        try await inner.describeGlobal()
    }

    func describe(_ objectType: String) async throws -> SObjectDescription {
        try await inner.describe(objectType)
    }

    func search(_ sosl: String) async throws -> RawJSON {
        try await inner.search(sosl)
    }

    func recentlyViewedIDs(_ objectType: String, limit: Int?) async throws -> [String] {
        try await inner.recentlyViewedIDs(objectType, limit: limit)
    }

    func limits() async throws -> [String: OrgLimit] {
        try await inner.limits()
    }

    func identity() async throws -> OrgUserIdentity {
        try await inner.identity()
    }

    func statistics() -> OrgClientStatistics {
        inner.statistics()
    }
}
