import OrgClient
import SOQL
import SoupStore
import SyncConfig

/// The `parent_children` target (sync-semantics §9.4, §4.5, §6, §11 items 18–19): parents and
/// their nested children in one query, parents saved into `parent.soupName`, children into
/// `children.soupName` with `parentIdFieldName` set to their parent's id when missing.
///
/// Per page of parents, the children are written first (one transaction: children, their
/// record-syncs entries, the protection check), then the page of parents goes to the runner,
/// which writes it with the sync state in its own transaction. The watermark is saved only when
/// the run ends (the target does not count as sorted), so a run that stops or fails between the
/// two transactions is fetched again from the old watermark and nothing is missed.
///
/// `LEAVE_IF_CHANGED` protects a whole tree when the parent or any of its stored children has
/// local changes: none of its children is written and the parent is left as it is. Parents with
/// changes of their own are skipped (and counted) by the runner's upsert; parents protected only by
/// a child are left out of the page handed to the runner, so the run's skipped count leaves them out.
/// The watermark is the latest modification date of the parents saved; children changed after it
/// are found by the second resync query.
///
/// A resync runs two queries (``ParentChildrenQueries``): the parents changed since the watermark
/// with all their children, then the unchanged parents whose children changed, with those
/// children. Nested child sets the server pages (`done: false` and a `nextRecordsUrl` in the nested
/// result, which Salesforce may do for large child sets) are followed with `queryMore`, their
/// children saved under their parent; the local org returns every child inline, so that path is
/// not exercised by its tests.
///
/// The tree-protection check reads the children soup on `parentIdFieldName`: index that path in
/// the children soup, or the check scans the soup for every parent.
struct ParentChildrenDownFetcher: DownTargetFetcher {
    let syncName: String
    let target: ParentChildrenSyncDownTarget
    let queries: ParentChildrenQueries
    let mergeMode: StoreMergeMode

    var soupName: String { target.parent.soupName }
    var idFieldName: String { target.parent.idFieldName }
    var modificationDateFieldName: String { target.parent.modificationDateFieldName }
    var isSortedByModification: Bool { false }
    var isIncremental: Bool { true }

    /// Prepares the target's queries.
    ///
    /// - Throws: `SyncEngineError` `.invalidTarget` when `parentSoqlFilter` does not parse.
    init(syncName: String, target: ParentChildrenSyncDownTarget, mergeMode: StoreMergeMode) throws {
        self.syncName = syncName
        self.target = target
        self.mergeMode = mergeMode
        queries = try ParentChildrenQueries(syncName: syncName, target: target)
    }

    private func pageOptions(syncID: Int64) -> ParentChildrenPageOptions {
        ParentChildrenPageOptions(
            parentSoup: target.parent.soupName,
            parentIDPath: target.parent.idFieldName,
            childrenKey: target.children.sobjectTypePlural,
            childSoup: target.children.soupName,
            childIDPath: target.children.idFieldName,
            parentIDFieldOnChild: target.children.parentIdFieldName,
            leavesChangedTrees: mergeMode == .leaveIfChanged,
            syncID: syncID
        )
    }

    /// The id of this sync's stored state (claimed by the runner before fetching).
    private func syncID(in store: SoupStore) async throws -> Int64 {
        let name = syncName
        guard let state = try await store.read({ try $0.syncState(named: name) }) else {
            throw SyncEngineError.unknownSync(name)
        }
        return state.id
    }

    func fetch(
        since maxTimeStamp: Int64,
        org: any OrgClient,
        store: SoupStore,
        body: (DownPage) async throws -> Bool
    ) async throws {
        let options = pageOptions(syncID: try await syncID(in: store))
        let changed = try await fetchTrees(
            queries.changedParents(since: maxTimeStamp),
            countedBefore: 0,
            options: options,
            org: org,
            store: store,
            body: body
        )
        guard let changed, maxTimeStamp > 0 else { return }
        _ = try await fetchTrees(
            queries.parentsOfChangedChildren(since: maxTimeStamp),
            countedBefore: changed,
            options: options,
            org: org,
            store: store,
            body: body
        )
    }

    /// Runs one query page by page; returns its `totalSize`, or `nil` when `body` asked to stop.
    private func fetchTrees(
        _ query: SOQLQuery,
        countedBefore: Int,
        options: ParentChildrenPageOptions,
        org: any OrgClient,
        store: SoupStore,
        body: (DownPage) async throws -> Bool
    ) async throws -> Int? {
        var page = try await org.queryFirstPage(query.text, options: QueryOptions())
        let totalSize = countedBefore + page.totalSize
        while true {
            let parents = try await saveChildren(of: page.body.text, options: options, org: org, store: store)
            guard try await body(DownPage(json: parents, totalSize: totalSize)) else { return nil }
            guard let next = page.nextRecordsURL else { return page.totalSize }
            page = try await org.queryMore(next, options: QueryOptions())
        }
    }

    /// Writes the children of one page of parents (following paged nested child sets) and
    /// returns the parents to save.
    private func saveChildren(
        of page: String,
        options: ParentChildrenPageOptions,
        org: any OrgClient,
        store: SoupStore
    ) async throws -> String {
        let result = try await store.write { writer in try writer.upsertChildren(ofParentsPage: page, options: options)
        }
        for more in result.moreChildren {
            var next: String? = more.nextRecordsURL
            while let url = next {
                let children = try await org.queryMore(url, options: QueryOptions())
                _ = try await store.write { writer in
                    try writer.upsertChildren(children.body.text, ofParent: more.parentID, options: options)
                }
                next = children.nextRecordsURL
            }
        }
        return result.parentsPage
    }

    func remoteIDs(
        org: any OrgClient,
        store: SoupStore,
        syncID: Int64,
        body: (RemoteIDPage) async throws -> Bool
    ) async throws {
        let options = pageOptions(syncID: syncID)
        var page = try await org.queryFirstPage(queries.ids.text, options: QueryOptions())
        while true {
            let text = page.body.text
            let more = try await store.write { writer in
                try writer.addGhostScanChildIDs(
                    ofParentsPage: text,
                    parentIDPath: options.parentIDPath,
                    childrenKey: options.childrenKey,
                    childIDPath: options.childIDPath,
                    syncID: syncID
                )
            }
            for continuation in more {
                var next: String? = continuation.nextRecordsURL
                while let url = next {
                    let children = try await org.queryMore(url, options: QueryOptions())
                    try await store.write { writer in
                        try writer.addGhostScanIDs(of: children.body.text, idPath: options.childIDPath, syncID: syncID)
                    }
                    next = children.nextRecordsURL
                }
            }
            guard try await body(.records(text)) else { return }
            guard let next = page.nextRecordsURL else { break }
            page = try await org.queryMore(next, options: QueryOptions())
        }
        // Children first: it also marks the parents of children with local changes as seen, so
        // the runner's pass over the parents keeps them.
        _ = try await store.write { writer in
            try writer.finishChildGhostScan(
                childSoup: options.childSoup,
                childIDPath: options.childIDPath,
                parentIDFieldOnChild: options.parentIDFieldOnChild,
                syncID: syncID
            )
        }
    }

    /// Checks that the children's soup exists and indexes the child id field.
    ///
    /// - Throws: `SyncEngineError` `.invalidTarget`, `.store`.
    func checkChildSoup(store: SoupStore) throws {
        let (soup, idField) = (target.children.soupName, target.children.idFieldName)
        let specs: [IndexSpec]
        do {
            guard try store.read({ try $0.hasSoup(soup) }) else {
                throw SyncEngineError.missingChildrenSoup(syncName, soup: soup, idField: idField)
            }
            specs = try store.read { try $0.indexSpecs(of: soup) }
        } catch let error as SoupStoreError {
            throw SyncEngineError.store(syncName, error)
        }
        guard specs.contains(where: { $0.path == idField }) else {
            throw SyncEngineError.unindexedChildrenSoup(syncName, soup: soup, idField: idField)
        }
    }
}
