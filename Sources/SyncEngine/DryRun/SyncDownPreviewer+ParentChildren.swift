import OrgClient
import SoupStore
import SyncLedger

extension SyncDownPreviewer {
    /// Previews a `parent_children` sync down (sync-semantics §9.4, §4.5): walks the run's queries
    /// and nested child pages with the run's own walk
    /// (``ParentChildrenDownFetcher/walk(since:org:children:moreChildren:body:)``) and, where the
    /// run writes, asks the store what writing would do:
    ///
    /// - each page of parents is split as `upsertChildren(ofParentsPage:options:)` splits it, with
    ///   the same SQL (``SoupReader/previewChildren(ofParentsPage:options:recordLimit:)``): under
    ///   `LEAVE_IF_CHANGED` a tree whose parent or any stored child has local changes is left whole
    ///   (its children are `skippedLocallyChanged`, and its parent too, counted in
    ///   `parentsProtectedByChildren` when only a child protects it);
    /// - the children it would save, then each further page of a paged nested child set, go
    ///   through ``SoupReader/previewPage(_:in:options:recordLimit:)`` for the children's soup;
    /// - the parents it hands on go through `previewPage` for the parents' soup, as the runner
    ///   writes them.
    ///
    /// - Parameter syncID: The stored sync's id, `nil` for a sync that never ran.
    /// - Returns: Whether a stop was requested.
    func previewTrees(
        _ trees: ParentChildrenDownFetcher,
        since baseline: Int64,
        syncID: Int64?,
        stop: StopSignal,
        into preview: inout SyncPreview
    ) async throws -> Bool {
        let options = trees.pageOptions(syncID: syncID ?? -1)
        let syncID = syncID ?? Self.newSyncID
        let childOptions = PageUpsertOptions(
            externalIDPath: options.childIDPath,
            localEntries: options.localEntries,
            syncID: syncID,
            modificationDateField: nil
        )
        let parentOptions = PageUpsertOptions(
            externalIDPath: options.parentIDPath,
            localEntries: options.localEntries,
            syncID: syncID,
            modificationDateField: nil
        )
        let (store, childSoup, parentSoup) = (self.store, options.childSoup, options.parentSoup)
        var stopped = false
        try await trees.walk(
            since: baseline,
            org: org,
            children: { page in
                let limit = preview.remainingItems
                let split = try await store.read { reader in
                    try reader.previewChildren(ofParentsPage: page, options: options, recordLimit: limit)
                }
                try await previewPage(
                    split.childrenPage,
                    in: childSoup,
                    options: childOptions,
                    isChild: true,
                    into: &preview
                )
                Self.add(split, to: &preview)
                return (split.parentsPage, split.moreChildren)
            },
            moreChildren: { page, parentID in
                let children = try await store.read { reader in
                    try reader.childrenPage(page, ofParent: parentID, options: options)
                }
                try await previewPage(children, in: childSoup, options: childOptions, isChild: true, into: &preview)
            },
            body: { page in
                if stop.isStopRequested {
                    stopped = true
                    return false
                }
                preview.pages += 1
                try await previewPage(page.json, in: parentSoup, options: parentOptions, isChild: false, into: &preview)
                return true
            }
        )
        return stopped
    }

    /// Counts and lists the records a page split leaves alone because their tree has local changes.
    private static func add(_ split: ParentChildrenPagePreview, to preview: inout SyncPreview) {
        preview.add(split.childrenSkipped, .fetched, isChild: true)
        preview.add(split.childrenSkipped, .skippedLocallyChanged, isChild: true)
        for child in split.skippedChildren {
            preview.list(.local, .skip, recordID: child.recordID, entryID: child.entryID, isChild: true)
        }
        preview.add(split.protectedByChildren, .fetched, isChild: false)
        preview.add(split.protectedByChildren, .skippedLocallyChanged, isChild: false)
        preview.parentsProtectedByChildren += split.protectedByChildren
        for parent in split.protectedParents {
            preview.list(.local, .skip, recordID: parent.recordID, entryID: parent.entryID)
        }
        if split.childrenSkipped > split.skippedChildren.count
            || split.protectedByChildren > split.protectedParents.count
        {
            preview.itemsTruncated = true
        }
    }
}
