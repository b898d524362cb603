import OrgClient
import SOQL
import SoupStore
import SyncConfig
import SyncLedger

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
/// The watermark is MobileSync's for this target (`getLatestModificationTimeStamp`): per page, the
/// larger of the parents' latest date and each nested child set's latest date, each read from its
/// own `modificationDateFieldName`; a side (the parents of the page, or one parent's children)
/// counts as -1 when one of its records lacks the field or has an unparsable value. Only the
/// records saved count (trees left whole by `LEAVE_IF_CHANGED` do not, §11 item 17); a nested set
/// the server paged counts page by page.
///
/// A resync runs two queries (``ParentChildrenQueries``): the parents changed since the watermark
/// with all their children, then the unchanged parents whose children changed, with those
/// children. Nested child sets the server pages (`done: false` and a next-records URL in the nested
/// result, which Salesforce may do for large child sets) are followed with
/// `OrgClient.queryPages(following:)`, their
/// children saved under their parent (not for a protected tree, whose children are not saved);
/// the local org returns every child inline, so the tests page them with a wrapping client
/// (`NestedPagingOrgClient` in the dry-run tests). ``walk(since:org:children:moreChildren:body:)``
/// and ``walkIDs(org:childIDs:moreChildIDs:body:)`` are shared with the dry run.
///
/// The tree-protection check reads the children soup on `parentIdFieldName`: index that path in
/// the children soup, or the check scans the soup for every parent.
struct ParentChildrenDownFetcher: DownTargetFetcher {
    let syncName: String
    let target: ParentChildrenSyncDownTarget
    let queries: ParentChildrenQueries
    let localEntries: LocalEntries

    var soupName: String { target.parent.soupName }
    var idFieldName: String { target.parent.idFieldName }
    var modificationDateFieldName: String { target.parent.modificationDateFieldName }
    var isSortedByModification: Bool { false }
    var isIncremental: Bool { true }

    /// Prepares the target's queries.
    ///
    /// - Throws: `SyncEngineError` `.invalidTarget` when `parentSoqlFilter` does not parse.
    init(syncName: String, target: ParentChildrenSyncDownTarget, localEntries: LocalEntries) throws {
        self.syncName = syncName
        self.target = target
        self.localEntries = localEntries
        queries = try ParentChildrenQueries(syncName: syncName, target: target)
    }

    /// How the children of sync `syncID` are split out of the pages and saved.
    func pageOptions(syncID: Int64) -> ParentChildrenPageOptions {
        ParentChildrenPageOptions(
            parentSoup: target.parent.soupName,
            parentIDPath: target.parent.idFieldName,
            childrenKey: target.children.sobjectTypePlural,
            childSoup: target.children.soupName,
            childIDPath: target.children.idFieldName,
            parentIDFieldOnChild: target.children.parentIdFieldName,
            localEntries: localEntries,
            syncID: syncID,
            parentModificationDatePath: target.parent.modificationDateFieldName,
            childModificationDatePath: target.children.modificationDateFieldName
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
        // The latest modification date of the page in flight, parents and children.
        var latest: Int64 = -1
        try await walk(
            since: maxTimeStamp,
            org: org,
            children: { page in
                let result = try await store.write { writer in
                    try writer.upsertChildren(ofParentsPage: page, options: options)
                }
                let dates = result.modificationDates
                latest = dates.children.reduce(Self.latest(of: dates.parents)) { max($0, Self.latest(of: $1)) }
                return (result.parentsPage, result.moreChildren)
            },
            moreChildren: { page, parentID in
                let dates = try await store.write { writer in
                    _ = try writer.upsertChildren(page, ofParent: parentID, options: options)
                    return try writer.childModificationDates(ofPage: page, options: options)
                }
                latest = max(latest, Self.latest(of: dates))
            },
            body: { page in
                var page = page
                page.latestModification = latest
                latest = -1
                return try await body(page)
            }
        )
    }

    /// The latest of `dates` in ms, or -1 when there is none, or when one is missing or does not
    /// parse (MobileSync's `getLatestModificationTimeStamp(records, fieldName)`).
    static func latest(of dates: [String?]) -> Int64 {
        var latest: Int64 = -1
        for date in dates {
            guard let date, let milliseconds = SalesforceDateTime.milliseconds(from: date) else { return -1 }
            latest = max(latest, milliseconds)
        }
        return latest
    }

    /// Walks the run's queries (the changed parents, then on a resync the parents of changed
    /// children) page by page, and each page's paged nested child sets with `queryPages(following:)`; shared by
    /// the run and the dry run, which differ only in what they do with the children.
    ///
    /// - Parameters:
    ///   - children: Handles the children of one page of parents (the query response); returns the
    ///     parents to hand to `body` and the nested child sets to follow.
    ///   - moreChildren: Handles one further page of a nested child set, with its parent's id.
    ///   - body: Called with each page of parents once its children are handled; returns `false`
    ///     to stop.
    func walk(
        since maxTimeStamp: Int64,
        org: any OrgClient,
        children: (String) async throws -> (parentsPage: String, moreChildren: [ChildrenContinuation]),
        moreChildren: (_ page: String, _ parentID: String) async throws -> Void,
        body: (DownPage) async throws -> Bool
    ) async throws {
        var countedBefore = 0
        for query in [queries.changedParents(since: maxTimeStamp)]
            + (maxTimeStamp > 0 ? [queries.parentsOfChangedChildren(since: maxTimeStamp)] : [])
        {
            // The first page's `totalSize` counts the query's parents.
            var counted: Int?
            for try await page in org.queryPages(query.text) {
                let totalSize = counted ?? countedBefore + page.totalSize
                counted = totalSize
                let split = try await children(page.body.text)
                for more in split.moreChildren {
                    for try await childrenPage in org.queryPages(following: more.nextRecordsURL) {
                        try await moreChildren(childrenPage.body.text, more.parentID)
                    }
                }
                guard try await body(DownPage(json: split.parentsPage, totalSize: totalSize)) else { return }
            }
            countedBefore = counted ?? countedBefore
        }
    }

    func remoteIDs(
        org: any OrgClient,
        store: SoupStore,
        syncID: Int64,
        body: (RemoteIDPage) async throws -> Bool
    ) async throws {
        let options = pageOptions(syncID: syncID)
        let completed = try await walkIDs(
            org: org,
            childIDs: { page in
                try await store.write { writer in
                    try writer.addGhostScanChildIDs(
                        ofParentsPage: page,
                        parentIDPath: options.parentIDPath,
                        childrenKey: options.childrenKey,
                        childIDPath: options.childIDPath,
                        syncID: syncID
                    )
                }
            },
            moreChildIDs: { page in
                try await store.write { writer in
                    try writer.addGhostScanIDs(of: page, idPath: options.childIDPath, syncID: syncID)
                }
            },
            body: { page in try await body(.records(page)) }
        )
        guard completed else { return }
        // Children another sync of the children's soup fetched too are asked about by id first.
        let check = SharedGhostCheck(org: org, store: store, soup: options.childSoup, idPath: options.childIDPath)
        guard try await check.run(syncID: syncID, stop: StopSignal()) else { return }
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

    /// Walks the ids-only query page by page, and each page's paged nested child sets with
    /// `queryPages(following:)`; shared by ghost cleaning and its dry run.
    ///
    /// - Parameters:
    ///   - childIDs: Handles the child ids nested in one page (the query response); returns the
    ///     nested child sets to follow.
    ///   - moreChildIDs: Handles one further page of a nested child set.
    ///   - body: Called with each page once its children are handled; returns `false` to stop.
    /// - Returns: `false` when `body` stopped the walk.
    func walkIDs(
        org: any OrgClient,
        childIDs: (String) async throws -> [ChildrenContinuation],
        moreChildIDs: (String) async throws -> Void,
        body: (String) async throws -> Bool
    ) async throws -> Bool {
        for try await page in org.queryPages(queries.ids.text) {
            let text = page.body.text
            for continuation in try await childIDs(text) {
                for try await children in org.queryPages(following: continuation.nextRecordsURL) {
                    try await moreChildIDs(children.body.text)
                }
            }
            guard try await body(text) else { return false }
        }
        return true
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
