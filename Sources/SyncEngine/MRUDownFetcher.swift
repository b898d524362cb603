import OrgClient
import SoupStore
import SyncConfig

/// The `mru` target (§9.2): the ids of the recently viewed records of an object, then their
/// fields by `Id IN (…)` (slices of 500), no incremental mode. Ghost cleaning checks existence
/// only, as the Mobile SDK does: records that merely left the recent list are kept.
struct MRUDownFetcher: DownTargetFetcher {
    let soupName: String
    let idFieldName: String
    let modificationDateFieldName: String
    let objectType: String
    let fields: [String]

    var isSortedByModification: Bool { false }
    var isIncremental: Bool { false }

    init(soupName: String, target: MRUSyncDownTarget) {
        self.soupName = soupName
        idFieldName = target.idFieldName
        modificationDateFieldName = target.modificationDateFieldName
        objectType = target.sobjectType
        fields = SOQLText.ensuring([target.idFieldName, target.modificationDateFieldName], in: target.fieldlist)
    }

    func fetch(
        since maxTimeStamp: Int64,
        org: any OrgClient,
        store: SoupStore,
        body: (DownPage) async throws -> Bool
    ) async throws {
        let ids = try await org.recentlyViewedIDs(objectType, limit: nil)
        guard !ids.isEmpty else {
            _ = try await body(DownPage(json: "[]", totalSize: 0))
            return
        }
        for start in stride(from: 0, to: ids.count, by: SOQLText.maximumIDsPerQuery) {
            let slice = Array(ids[start..<min(start + SOQLText.maximumIDsPerQuery, ids.count)])
            let query = SOQLText.select(fields: fields, from: objectType, idField: idFieldName, in: slice)
            for try await page in org.queryPages(query) {
                guard try await body(DownPage(json: page.body.text, totalSize: ids.count)) else { return }
            }
        }
    }

    func remoteIDs(
        org: any OrgClient,
        store: SoupStore,
        syncID: Int64,
        body: (RemoteIDPage) async throws -> Bool
    ) async throws {
        try await existingIDs(of: objectType, org: org, store: store, syncID: syncID, body: body)
    }
}
