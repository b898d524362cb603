import OrgClient
import SoupStore
import SyncLedger

extension GhostPreviewer {
    /// Previews the ghost cleaning of a `parent_children` target (sync-semantics §6, §11 item 19)
    /// with the run's walk of the ids-only nested query
    /// (``ParentChildrenDownFetcher/walkIDs(org:childIDs:moreChildIDs:body:)``), nested child pages
    /// followed with `OrgClient.queryPages(following:)`.
    ///
    /// The candidates of both soups (the clean parents and children this sync fetched) are held in
    /// memory; every parent id and child id returned is struck out, read with the SQL the run
    /// stores them with. Then, as the run's passes do, children first: the children left are
    /// deleted or kept for another sync; the parents left are kept when a child with local
    /// changes points to them (`skippedLocallyChanged`, `parentsProtectedByChildren`), else
    /// deleted or kept for another sync.
    ///
    /// - Returns: Whether a stop was requested.
    func previewTrees(
        _ trees: ParentChildrenDownFetcher,
        syncID: Int64,
        stop: StopSignal,
        into preview: inout SyncPreview
    ) async throws -> Bool {
        let options = trees.pageOptions(syncID: syncID)
        var parents = try await candidateIDs(soup: options.parentSoup, idPath: options.parentIDPath, syncID: syncID)
        // Both soups exist: the preview checked them as the run does.
        var children = try await candidateIDs(soup: options.childSoup, idPath: options.childIDPath, syncID: syncID)
        let store = self.store
        var stopped = false
        let completed = try await trees.walkIDs(
            org: org,
            childIDs: { page in
                let ids = try await store.read { reader in
                    try reader.childIDs(
                        ofParentsPage: page,
                        parentIDPath: options.parentIDPath,
                        childrenKey: options.childrenKey,
                        childIDPath: options.childIDPath
                    )
                }
                preview.add(ids.childIDs.count, .fetched, isChild: true)
                children.subtract(ids.childIDs)
                return ids.moreChildren
            },
            moreChildIDs: { page in
                let ids = try await store.read { reader in
                    try reader.recordIDs(ofPage: page, idPath: options.childIDPath)
                }
                preview.add(ids.count, .fetched, isChild: true)
                children.subtract(ids)
            },
            body: { page in
                if stop.isStopRequested {
                    stopped = true
                    return false
                }
                let ids = try await store.read { reader in
                    try reader.recordIDs(ofPage: page, idPath: options.parentIDPath)
                }
                preview.pages += 1
                preview.add(ids.count, .fetched, isChild: false)
                parents.subtract(ids)
                return true
            }
        )
        guard completed, !stopped else { return true }
        try await classify(
            notReturned: children.sorted(),
            soup: options.childSoup,
            idPath: options.childIDPath,
            syncID: syncID,
            isChild: true,
            into: &preview
        )
        try await classify(
            notReturned: parents.sorted(),
            soup: options.parentSoup,
            idPath: options.parentIDPath,
            syncID: syncID,
            keptForChildren: { ids in
                try await store.read { reader in
                    try reader.parentIDsWithDirtyChildren(
                        among: ids,
                        childSoup: options.childSoup,
                        parentIDFieldOnChild: options.parentIDFieldOnChild
                    )
                }
            },
            into: &preview
        )
        return false
    }
}
