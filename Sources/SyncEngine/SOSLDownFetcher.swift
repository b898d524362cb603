import OrgClient
import SoupStore
import SyncConfig

/// The `sosl` target (§9.3): one search, one page (`searchRecords`), no incremental mode; ghost
/// cleaning re-runs the search.
struct SOSLDownFetcher: DownTargetFetcher {
    let soupName: String
    let idFieldName: String
    let modificationDateFieldName: String
    let query: String

    var isSortedByModification: Bool { false }
    var isIncremental: Bool { false }

    init(soupName: String, target: SOSLSyncDownTarget) {
        self.soupName = soupName
        idFieldName = target.idFieldName
        modificationDateFieldName = target.modificationDateFieldName
        query = target.query
    }

    /// The `searchRecords` array of a search response, as JSON text. SOSL results are capped
    /// server-side (2,000 rows), so parsing this one response is bounded.
    private func searchRecords(org: any OrgClient) async throws -> (json: String, count: Int) {
        let response = try await org.search(query)
        let records = try response.parse()["searchRecords"]?.arrayValue ?? []
        return (OrgValue.array(records).jsonText, records.count)
    }

    func fetch(
        since maxTimeStamp: Int64,
        org: any OrgClient,
        store: SoupStore,
        body: (DownPage) async throws -> Bool
    ) async throws {
        let records = try await searchRecords(org: org)
        _ = try await body(DownPage(json: records.json, totalSize: records.count))
    }

    func remoteIDs(
        org: any OrgClient,
        store: SoupStore,
        syncID: Int64,
        body: (RemoteIDPage) async throws -> Bool
    ) async throws {
        _ = try await body(.records(try await searchRecords(org: org).json))
    }
}
