import OrgClient
import SoupStore
import SyncConfig

/// Previews ghost cleaning (sync-semantics §6, §11 items 8–9) with reads only.
///
/// The run streams the ids the org returns into a store table; the preview cannot write, so it
/// holds this sync's candidates (the clean records it fetched) in memory instead, strikes out
/// every id the ids-only queries return, and asks the store what the pass would do with the rest
/// (``SoupReader/ghostPreview(in:idPath:syncID:ids:)``): deleted, or kept for another sync.
/// Memory grows with the number of candidates (their ids only), not with the org's records.
struct GhostPreviewer: Sendable {
    let store: SoupStore
    let org: any OrgClient
    let registry: SyncStateRegistry

    /// - Throws: `SyncEngineError`: `.ghostCleaningRefused`, the errors a run of `definition`
    ///   would start with, `.stopped`, `.server`, `.store`.
    func preview(_ definition: SyncDefinition, replace: Bool, stop: StopSignal) async throws -> SyncPreview {
        let name = definition.name
        let fetcher = try DownTargetFactory.makeFetcher(for: definition)
        if fetcher is ParentChildrenDownFetcher {
            throw SyncEngineError.previewNotSupported(name, kind: "parent_children", operation: .cleanGhosts)
        }
        if let soql = fetcher as? SOQLDownFetcher, !soql.canCleanGhosts { throw SyncEngineError.ghostsWithLimit(name) }
        let idPath = fetcher.idFieldName
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
        var preview = SyncPreview(
            syncName: name,
            syncID: state?.id,
            operation: .cleanGhosts,
            targetKind: definition.targetKindName
        )
        // No soup yet: nothing stored can be a ghost.
        guard !soups.isEmpty else { return preview }
        // A sync that never ran fetched nothing; its id is one no record carries.
        let syncID = state?.id ?? -1

        let before = org.statistics()
        var stopped = stop.isStopRequested
        do {
            var candidates: [Set<String>] = []
            for destination in soups {
                candidates.append(
                    try await candidateIDs(soup: destination.soupName, idPath: destination.idFieldName, syncID: syncID))
            }
            if !stopped {
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
            }
            if !stopped {
                for (destination, notReturned) in zip(soups, candidates) {
                    try await classify(
                        notReturned: notReturned.sorted(),
                        soup: destination.soupName,
                        idPath: destination.idFieldName,
                        syncID: syncID,
                        into: &preview
                    )
                }
            }
        } catch is CancellationError {
            stopped = true
        } catch {
            throw SyncEngineError.wrapping(error, syncName: name)
        }
        if stopped { throw SyncEngineError.stopped(name) }
        preview.requests = org.statistics().requests - before.requests
        return preview
    }

    /// The ids of the clean records sync `syncID` fetched, the pass's candidates.
    private func candidateIDs(soup: String, idPath: String, syncID: Int64) async throws -> Set<String> {
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

    /// Counts and lists what the pass would do with the candidates the org no longer returns.
    private func classify(
        notReturned: [String],
        soup: String,
        idPath: String,
        syncID: Int64,
        into preview: inout SyncPreview
    ) async throws {
        for start in stride(from: 0, to: notReturned.count, by: 500) {
            let slice = Array(notReturned[start..<min(start + 500, notReturned.count)])
            let records = try await store.read { reader in
                try reader.ghostPreview(in: soup, idPath: idPath, syncID: syncID, ids: slice)
            }
            for record in records {
                if record.isKeptForOtherSyncs {
                    preview.keptForOtherSyncs += 1
                    preview.list(.local, .skip, recordID: record.recordID, entryID: record.entryID)
                } else {
                    preview.local.deleted += 1
                    preview.list(.local, .delete, recordID: record.recordID, entryID: record.entryID)
                }
            }
        }
    }
}
