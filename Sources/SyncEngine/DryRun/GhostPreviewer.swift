import OrgClient
import SoupStore
import SyncConfig
import SyncLedger

/// Previews ghost cleaning (sync-semantics §6, §11 items 8–9) with reads only.
///
/// The run streams the ids the org returns into a store table; the preview cannot write, so it
/// holds this sync's candidates (the clean records it fetched) in memory instead, strikes out
/// every id the ids-only queries return, and asks the store what the pass would do with the rest
/// (``SoupReader/ghostPreview(in:idPath:syncID:ids:)``): deleted, or kept for another sync.
/// Memory grows with the number of candidates (their ids only), not with the org's records.
/// `parent_children` targets hold the candidates of both soups (see
/// `GhostPreviewer+ParentChildren.swift`).
struct GhostPreviewer: SyncPreviewer {
    let store: SoupStore
    let org: any OrgClient
    let registry: SyncStateRegistry
    /// The executable's plug-ins (custom targets).
    var plugins = CustomTargets()

    /// - Throws: `SyncEngineError`: `.ghostCleaningRefused`, the errors a run of `definition`
    ///   would start with, `.stopped`, `.server`, `.store`.
    func preview(_ definition: SyncDefinition, replace: Bool, stop: StopSignal) async throws -> SyncPreview {
        let name = definition.name
        var fetcher = try DownTargetFactory.makeFetcher(for: definition, plugins: plugins)
        if var soql = fetcher as? SOQLDownFetcher {
            guard soql.canCleanGhosts else { throw SyncEngineError.ghostsWithLimit(name) }
            soql.restOnly = true  // a dry run creates no Bulk job
            fetcher = soql
        }
        // The soups that exist: a soup not registered yet holds nothing that could be a ghost.
        var soups: [PageDestination] = []
        do {
            for destination in fetcher.destinations {
                let soup = destination.soupName
                if try await store.read({ reader in try reader.hasSoup(soup) }) { soups.append(destination) }
            }
        } catch {
            throw SyncEngineError.wrapping(error, syncName: name)
        }
        if soups.count == fetcher.destinations.count {
            try DownTargetFactory.checkSoup(of: fetcher, syncName: name, store: store)
        }
        let state = try registry.previewState(definition, replace: replace)
        var preview = SyncPreview(definition, operation: .cleanGhosts, state: state)
        // No soup yet: nothing stored can be a ghost.
        guard !soups.isEmpty else { return preview }
        // A sync that never ran fetched nothing; its id is one no record carries.
        let syncID = state?.id ?? -1

        try await read(syncName: name, into: &preview) { preview in
            if stop.isStopRequested { return true }
            if let trees = fetcher as? ParentChildrenDownFetcher {
                return try await previewTrees(trees, syncID: syncID, stop: stop, into: &preview)
            }
            return try await previewRecords(fetcher, in: soups, syncID: syncID, stop: stop, into: &preview)
        }
        return preview
    }

    /// Previews the ghost cleaning of a target whose records go to `soups` (the registered ones of
    /// its destinations); returns whether a stop was requested.
    private func previewRecords(
        _ fetcher: any DownTargetFetcher,
        in soups: [PageDestination],
        syncID: Int64,
        stop: StopSignal,
        into preview: inout SyncPreview
    ) async throws -> Bool {
        let idPath = fetcher.idFieldName
        var candidates: [Set<String>] = []
        for destination in soups {
            candidates.append(
                try await candidateIDs(soup: destination.soupName, idPath: destination.idFieldName, syncID: syncID)
            )
        }
        var stopped = false
        try await fetcher.remoteIDs(org: org, store: store, syncID: syncID) { page in
            if stop.isStopRequested {
                stopped = true
                return false
            }
            let ids: [String]
            switch page {
            case .records(let json):
                ids = try await store.read { reader in try reader.recordIDs(ofPage: json, idPath: idPath) }
            case .ids(let confirmed):
                ids = confirmed
            }
            preview.pages += 1
            preview.fetched += ids.count
            for index in candidates.indices { candidates[index].subtract(ids) }
            return true
        }
        if stopped { return true }
        for (destination, notReturned) in zip(soups, candidates) {
            try await classify(
                notReturned: notReturned.sorted(),
                soup: destination.soupName,
                idPath: destination.idFieldName,
                syncID: syncID,
                into: &preview
            )
        }
        return false
    }

    /// The ids of the clean records sync `syncID` fetched, the pass's candidates.
    func candidateIDs(soup: String, idPath: String, syncID: Int64) async throws -> Set<String> {
        var ids: Set<String> = []
        var after: String?
        while true {
            let last = after
            let slice = try await store.read { reader in
                try reader.ghostCandidateIDs(in: soup, idPath: idPath, syncID: syncID, after: last, limit: 2000)
            }
            ids.formUnion(slice)
            guard slice.count == 2000, let lastID = slice.last else { return ids }
            after = lastID
        }
    }

    /// The ids among `records` (kept for other syncs) that the server no longer has, asked by id
    /// as the run's ``SharedGhostCheck`` asks: the run deletes them.
    func goneFromServer(_ records: [GhostPreviewRecord], idPath: String) async throws -> Set<String> {
        var byType: [String: [String]] = [:]
        for record in records {
            guard let type = record.objectType, !type.isEmpty else { continue }
            byType[type, default: []].append(record.recordID)
        }
        var gone: Set<String> = []
        for (type, ids) in byType.sorted(by: { $0.key < $1.key }) {
            for start in stride(from: 0, to: ids.count, by: SharedGhostCheck.idsPerRequest) {
                let slice = Array(ids[start..<min(start + SharedGhostCheck.idsPerRequest, ids.count)])
                let query = SOQLText.select(fields: [idPath], from: type, idField: idPath, in: slice)
                var present: Set<String> = []
                for try await page in org.queryPages(query) {
                    let text = page.body.text
                    let ids = try await store.read { reader in try reader.recordIDs(ofPage: text, idPath: idPath) }
                    present.formUnion(ids)
                }
                gone.formUnion(slice.filter { !present.contains($0) })
            }
        }
        return gone
    }

    /// Counts and lists what the pass would do with the candidates the org no longer returns.
    ///
    /// - Parameters:
    ///   - isChild: Whether they are the children of a `parent_children` target.
    ///   - keptForChildren: The ids of a slice of candidates that the pass keeps because a child
    ///     has local changes (`parent_children` parents); none by default.
    func classify(
        notReturned: [String],
        soup: String,
        idPath: String,
        syncID: Int64,
        isChild: Bool = false,
        keptForChildren: ([String]) async throws -> Set<String> = { _ in [] },
        into preview: inout SyncPreview
    ) async throws {
        for start in stride(from: 0, to: notReturned.count, by: 500) {
            let slice = Array(notReturned[start..<min(start + 500, notReturned.count)])
            let records = try await store.read { reader in
                try reader.ghostPreview(in: soup, idPath: idPath, syncID: syncID, ids: slice)
            }
            let protected = try await keptForChildren(slice)
            let shared = records.filter { $0.isKeptForOtherSyncs && !protected.contains($0.recordID) }
            let gone = try await goneFromServer(shared, idPath: idPath)
            for record in records {
                let count: SyncPreview.Count
                if protected.contains(record.recordID) {
                    preview.parentsProtectedByChildren += 1
                    count = .skippedLocallyChanged
                } else {
                    let kept = record.isKeptForOtherSyncs && !gone.contains(record.recordID)
                    count = kept ? .keptForOtherSyncs : .deleted(.local)
                }
                preview.record(count, recordID: record.recordID, entryID: record.entryID, isChild: isChild)
            }
        }
    }
}
