import OrgClient
import SOQL
import SoupStore
import SyncConfig

/// The `refresh` target (§9.1): re-reads from the org the records already in a soup,
/// `countIdsPerSoql` ids per query, in `_soupEntryId` order. On a resync (watermark > 0) each
/// query only asks for records modified at or after the latest local modification date of its
/// own slice. Records with local ids (`local_…`) are never asked for. Ghost cleaning checks
/// existence.
struct RefreshDownFetcher: DownTargetFetcher {
    let soupName: String
    let idFieldName: String
    let modificationDateFieldName: String
    let objectType: String
    let fields: [String]
    /// The soup whose records are re-read (normally the sync's soup).
    let sourceSoup: String
    let idsPerQuery: Int

    var isSortedByModification: Bool { false }
    var isIncremental: Bool { true }

    init(soupName: String, target: RefreshSyncDownTarget) {
        self.soupName = soupName
        idFieldName = target.idFieldName
        modificationDateFieldName = target.modificationDateFieldName
        objectType = target.sobjectType
        fields = SOQLText.ensuring([target.idFieldName, target.modificationDateFieldName], in: target.fieldlist)
        sourceSoup = target.soupName
        idsPerQuery = min(max(target.countIdsPerSoql, 1), SOQLText.maximumIDsPerQuery)
    }

    /// One slice of local records: entry ids, server ids and the latest local modification.
    private struct LocalSlice: Sendable {
        var lastEntryID: Int64
        var ids: [String]
        var latestModification: Int64?
    }

    private func localSlice(store: SoupStore, after entryID: Int64) async throws -> LocalSlice? {
        let (soup, idPath, modPath, limit) = (sourceSoup, idFieldName, modificationDateFieldName, idsPerQuery)
        return try await store.read { reader in
            var slice = LocalSlice(lastEntryID: entryID, ids: [], latestModification: nil)
            var rows = 0
            try reader.query(
                """
                SELECT {\(soup):_soupEntryId}, {\(soup):\(idPath)}, {\(soup):\(modPath)} FROM {\(soup)} \
                WHERE {\(soup):_soupEntryId} > ? ORDER BY {\(soup):_soupEntryId} LIMIT ?
                """,
                arguments: [.integer(entryID), .integer(Int64(limit))]
            ) { row in
                rows += 1
                if case .integer(let id) = row.values[0] { slice.lastEntryID = id }
                if case .text(let id) = row.values[1], !id.hasPrefix("local_") { slice.ids.append(id) }
                if case .text(let stamp) = row.values[2], let ms = SalesforceDateTime.milliseconds(from: stamp) {
                    slice.latestModification = max(slice.latestModification ?? ms, ms)
                }
            }
            return rows == 0 ? nil : slice
        }
    }

    func fetch(
        since maxTimeStamp: Int64,
        org: any OrgClient,
        store: SoupStore,
        body: (DownPage) async throws -> Bool
    ) async throws {
        let soup = sourceSoup
        let totalSize = try await store.read { reader in try reader.entryCount(in: soup) }
        var after: Int64 = 0
        var sentAny = false
        while let slice = try await localSlice(store: store, after: after) {
            after = slice.lastEntryID
            guard !slice.ids.isEmpty else { continue }
            let since = maxTimeStamp > 0 ? slice.latestModification : nil
            let query = SOQLText.select(
                fields: fields,
                from: objectType,
                idField: idFieldName,
                in: slice.ids,
                modifiedField: since == nil ? nil : modificationDateFieldName,
                since: since
            )
            for try await page in org.queryPages(query) {
                sentAny = true
                guard try await body(DownPage(json: page.body.text, totalSize: totalSize)) else { return }
            }
        }
        if !sentAny { _ = try await body(DownPage(json: "[]", totalSize: totalSize)) }
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
