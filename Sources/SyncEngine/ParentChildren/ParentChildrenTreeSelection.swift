import SoupStore

/// The trees a `parent_children` sync up sends (sync-semantics §8.4, §11 item 31), selected in two
/// streamed phases a page at a time, so memory stays bounded by the page size whatever the number
/// of dirty records; shared by the run and its dry run.
///
/// 1. The dirty parents, in parent entry-id order, each with its children.
/// 2. The dirty children, in child entry-id order, grouped by parent: a clean parent found in the
///    parent soup is sent with its dirty children (once per run: the entry ids of the parents
///    already selected are remembered, 8 bytes each); a child whose parent is not in the parent
///    soup is sent under the server id it holds, or is an orphan (`PARENT_NOT_FOUND`) when that id
///    is local or missing.
///
/// Each page is read after the previous one was handled, so the run's write-back of a page is seen
/// by the next read. A soup that is not registered yet is read as empty (the dry run).
struct ParentChildrenTreeSelection: Sendable {
    let store: SoupStore
    let plan: ParentChildrenSyncUpPlan

    /// Parents per page of phase 1; dirty children per page of phase 2.
    static let parentPageSize = 50
    static let childPageSize = 200

    /// One page of trees.
    struct Page: Sendable {
        var trees: [ParentChildrenTree] = []
        /// Dirty children whose parent cannot be named: no parent id, or a local one that is not in
        /// the parent soup.
        var orphans: [SyncUpRecord] = []
    }

    private var parentSoup: String { plan.parentInfo.soupName }
    private var childSoup: String { plan.childrenInfo.soupName }
    private var loader: ParentChildrenTreeLoader { ParentChildrenTreeLoader(plan: plan) }

    /// The number of dirty records in both soups (the run's `totalSize`).
    func dirtyCount() async throws -> Int {
        let (parentSoup, childSoup) = (self.parentSoup, self.childSoup)
        return try await store.read { reader in
            try [parentSoup, childSoup].reduce(0) { count, soup in
                try count + (reader.hasSoup(soup) ? reader.dirtyEntryCount(in: soup) : 0)
            }
        }
    }

    /// Calls `body` with every page of trees, phase 1 then phase 2; pages without trees or orphans
    /// are not handed over.
    ///
    /// - Returns: Whether a stop was requested (checked before each page).
    func forEachPage(stop: StopSignal, _ body: (Page) async throws -> Void) async throws -> Bool {
        var selectedParents = Set<Int64>()
        var after: Int64 = 0
        while true {
            if stop.isStopRequested || Task.isCancelled { return true }
            let (cursor, loader, parentSoup) = (after, self.loader, self.parentSoup)
            let trees = try await store.read { reader -> [ParentChildrenTree] in
                guard try reader.hasSoup(parentSoup) else { return [] }
                return try reader.dirtyEntries(in: parentSoup, afterEntryID: cursor, limit: Self.parentPageSize).map {
                    try loader.tree(of: loader.parent($0), reader: reader)
                }
            }
            guard let last = trees.last else { break }
            after = last.parent.entryID
            selectedParents.formUnion(trees.map(\.parent.entryID))
            try await body(Page(trees: trees))
        }

        after = 0
        while true {
            if stop.isStopRequested || Task.isCancelled { return true }
            let (cursor, known) = (after, selectedParents)
            let (page, last) = try await store.read { reader in
                try childPage(after: cursor, selectedParents: known, reader: reader)
            }
            guard let last else { break }
            after = last
            selectedParents.formUnion(page.trees.map(\.parent.entryID).filter { $0 > 0 })
            if page.trees.isEmpty && page.orphans.isEmpty { continue }
            try await body(page)
        }
        return false
    }

    /// Reads the next page of dirty children and makes the trees of their clean parents; returns
    /// it with the last child entry id read (`nil` when none is left).
    private func childPage(after cursor: Int64, selectedParents: Set<Int64>, reader: SoupReader) throws
        -> (Page, Int64?)
    {
        var page = Page()
        guard try reader.hasSoup(childSoup) else { return (page, nil) }
        let entries = try reader.dirtyEntries(in: childSoup, afterEntryID: cursor, limit: Self.childPageSize)
        let children = try entries.map { try loader.child($0) }
        var byParentID: [String: [SyncUpRecord]] = [:]
        var parentIDs: [String] = []
        for child in children {
            guard let parentID = child.fields[plan.parentIDField]?.stringValue, !parentID.isEmpty else {
                page.orphans.append(child)
                continue
            }
            if byParentID[parentID] == nil { parentIDs.append(parentID) }
            byParentID[parentID, default: []].append(child)
        }
        guard !parentIDs.isEmpty else { return (page, entries.last?.entryID) }
        let parents =
            try reader.hasSoup(parentSoup)
            ? reader.entries(in: parentSoup, wherePath: plan.parentInfo.idFieldName, isIn: parentIDs) : []
        var found = Set<String>()
        for entry in parents {
            let parent = try loader.parent(entry)
            guard let id = parent.storedID else { continue }
            found.insert(id)
            // A dirty parent was (or, if it became dirty during the run, will next run be) sent
            // in phase 1 with its children.
            guard !selectedParents.contains(parent.entryID), !parent.isDirty else { continue }
            page.trees.append(try loader.tree(of: parent, reader: reader))
        }
        for parentID in parentIDs where !found.contains(parentID) {
            let orphans = byParentID[parentID] ?? []
            if SyncUpRecord.isLocalID(parentID) {
                page.orphans += orphans
            } else {
                page.trees.append(ParentChildrenTree(parent: absentParent(id: parentID), children: orphans))
            }
        }
        return (page, entries.last?.entryID)
    }

    /// A parent known only by its server id (not in the parent soup): nothing is sent for it.
    private func absentParent(id: String) -> SyncUpRecord {
        SyncUpRecord(
            absentEntryWithID: id,
            idFieldName: plan.parentInfo.idFieldName,
            modificationDateFieldName: plan.parentInfo.modificationDateFieldName
        )
    }
}
