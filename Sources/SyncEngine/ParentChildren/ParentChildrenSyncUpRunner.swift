import OrgClient
import SoupStore

/// The loop of a `parent_children` sync up (sync-semantics §8.4, §11 items 2, 16, 20, 31).
///
/// Trees are selected in two streamed phases, a page at a time, so memory stays bounded by the
/// page size whatever the number of dirty records:
/// 1. the dirty parents, in parent entry-id order, each with its children;
/// 2. the dirty children, in child entry-id order, grouped by parent: a clean parent found in the
///    parent soup is sent with its dirty children (once per run: the entry ids of the parents
///    already sent are remembered, 8 bytes each); a child whose parent is not in the parent soup
///    is sent under the server id it holds, or fails with `PARENT_NOT_FOUND` when that id is local.
///
/// Per page: under `LEAVE_IF_CHANGED` one collection retrieve per sObject type checks every parent
/// and child to update or delete; a tree with any conflict is left alone (its conflicting records
/// get a structured `__last_error__`, the others stay dirty untouched). Each tree is sent by
/// ``ParentChildrenSyncUpSender``; under `OVERWRITE` a tree whose parent or child was deleted on
/// the server is sent once more with the parent (and master-detail children) re-created. Then the
/// ids and modification dates written are read back, and the page's results go to both soups
/// with the sync state in one transaction.
struct ParentChildrenSyncUpRunner: Sendable {
    let store: SoupStore
    let org: any OrgClient
    let plan: ParentChildrenSyncUpPlan
    let events: AsyncStream<SyncEvent>.Continuation?
    /// The engine's clock, for create intents.
    let registry: SyncStateRegistry

    /// Parents per page of phase 1; dirty children per page of phase 2.
    static let parentPageSize = 50
    static let childPageSize = 200

    var parentSoup: String { plan.parentInfo.soupName }
    var childSoup: String { plan.childrenInfo.soupName }
    private var loader: ParentChildrenTreeLoader { ParentChildrenTreeLoader(plan: plan) }

    /// Runs every tree; returns whether the run stopped on request.
    func run(progress: inout SyncUpProgress, stop: StopSignal) async throws -> Bool {
        let (parentSoup, childSoup) = (self.parentSoup, self.childSoup)
        let total = try await store.read {
            try $0.dirtyEntryCount(in: parentSoup) + $0.dirtyEntryCount(in: childSoup)
        }
        let selected = progress.selected(total)
        _ = try await store.write { try $0.updateSyncState(selected) }
        var sentParents = Set<Int64>()

        var after: Int64 = 0
        while true {
            if stop.isStopRequested || Task.isCancelled { return true }
            let (cursor, loader) = (after, self.loader)
            let trees = try await store.read { reader -> [ParentChildrenTree] in
                try reader.dirtyEntries(in: parentSoup, afterEntryID: cursor, limit: Self.parentPageSize).map {
                    try loader.tree(of: loader.parent($0), reader: reader)
                }
            }
            guard let last = trees.last else { break }
            after = last.parent.entryID
            sentParents.formUnion(trees.map(\.parent.entryID))
            try await process(trees, orphans: [], progress: &progress)
        }

        after = 0
        while true {
            if stop.isStopRequested || Task.isCancelled { return true }
            let (cursor, known) = (after, sentParents)
            let page = try await store.read { reader in
                try childPage(after: cursor, sentParents: known, reader: reader)
            }
            guard let last = page.lastChildEntryID else { break }
            after = last
            sentParents.formUnion(page.trees.map(\.parent.entryID).filter { $0 > 0 })
            if page.trees.isEmpty && page.orphans.isEmpty { continue }
            try await process(page.trees, orphans: page.orphans, progress: &progress)
        }
        return false
    }

    private struct ChildPage: Sendable {
        var trees: [ParentChildrenTree] = []
        var orphans: [SyncUpRecord] = []
        var lastChildEntryID: Int64?
    }

    /// Reads the next page of dirty children and makes the trees of their clean parents.
    private func childPage(after cursor: Int64, sentParents: Set<Int64>, reader: SoupReader) throws -> ChildPage {
        var page = ChildPage()
        let entries = try reader.dirtyEntries(in: childSoup, afterEntryID: cursor, limit: Self.childPageSize)
        page.lastChildEntryID = entries.last?.entryID
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
        guard !parentIDs.isEmpty else { return page }
        let parents = try reader.entries(in: parentSoup, wherePath: plan.parentInfo.idFieldName, isIn: parentIDs)
        var found = Set<String>()
        for entry in parents {
            let parent = try loader.parent(entry)
            guard let id = parent.storedID else { continue }
            found.insert(id)
            // A dirty parent was (or, if it became dirty during the run, will next run be) sent
            // in phase 1 with its children.
            guard !sentParents.contains(parent.entryID), !parent.isDirty else { continue }
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
        return page
    }

    /// A parent known only by its server id (not in the parent soup): nothing is sent for it.
    private func absentParent(id: String) -> SyncUpRecord {
        SyncUpRecord(
            absentEntryWithID: id,
            idFieldName: plan.parentInfo.idFieldName,
            modificationDateFieldName: plan.parentInfo.modificationDateFieldName
        )
    }

    /// Checks, sends, reads back and writes one page of trees.
    private func process(
        _ trees: [ParentChildrenTree],
        orphans: [SyncUpRecord],
        progress: inout SyncUpProgress
    ) async throws {
        // Crash safety: adopt creates whose response was lost, then record the intents of this page.
        let recovery = try await recover(trees)
        var trees = recovery.trees
        try await recordCreateIntents(
            &trees, decidedParents: recovery.parents, decidedChildren: recovery.children, now: registry.now)
        var parentOutcomes: [Int64: SyncUpOutcome] = recovery.parents
        var childOutcomes: [Int64: SyncUpOutcome] = recovery.children
        var parents: [SyncUpRecord] = []
        var children: [SyncUpRecord] = []
        for orphan in orphans {
            children.append(orphan)
            childOutcomes[orphan.entryID] = .failed([Self.parentNotFound(orphan, field: plan.parentIDField)])
        }

        var parentVersions: [Int64: SyncUpConflictChecker.ServerVersion] = [:]
        var childVersions: [Int64: SyncUpConflictChecker.ServerVersion] = [:]
        if !plan.parent.isOverwrite {
            parentVersions = try await SyncUpConflictChecker(
                org: org,
                modificationDateFieldName: plan.parentInfo.modificationDateFieldName
            ).serverVersions(of: trees.map(\.parent).filter { $0.entryID > 0 })
            childVersions = try await SyncUpConflictChecker(
                org: org,
                modificationDateFieldName: plan.childrenInfo.modificationDateFieldName
            ).serverVersions(of: trees.flatMap(\.children))
        }

        for var tree in trees {
            let parentDecided =
                tree.parent.action == .none
                ? nil
                : recovery.parents[tree.parent.entryID]
                    ?? SyncUpConflictChecker.decide(tree.parent, server: parentVersions[tree.parent.entryID])
            var childDecided: [Int64: SyncUpOutcome] = [:]
            for child in tree.children {
                if let decided = recovery.children[child.entryID]
                    ?? SyncUpConflictChecker.decide(child, server: childVersions[child.entryID])
                {
                    childDecided[child.entryID] = decided
                }
            }
            if tree.parent.action != .none { parents.append(tree.parent) }
            let conflicts = ([parentDecided].compactMap { $0 } + childDecided.values).filter {
                if case .conflict = $0 { true } else { false }
            }
            if !conflicts.isEmpty {
                // The tree goes together or not at all (§8.4): only the conflicts are recorded.
                if case .conflict = parentDecided { parentOutcomes[tree.parent.entryID] = parentDecided }
                for child in tree.children {
                    children.append(child)
                    if case .conflict = childDecided[child.entryID] {
                        childOutcomes[child.entryID] = childDecided[child.entryID]
                    }
                }
                continue
            }
            if let parentDecided { parentOutcomes[tree.parent.entryID] = parentDecided }
            children += tree.children
            childOutcomes.merge(childDecided) { $1 }
            tree.children.removeAll { childDecided[$0.entryID] != nil }

            let sender = ParentChildrenSyncUpSender(org: org, plan: plan)
            var result = try await sender.send(tree, sendsParent: parentDecided == nil)
            if let outcome = result.parent { parentOutcomes[tree.parent.entryID] = outcome }
            childOutcomes.merge(result.children) { $1 }
            if plan.parent.isOverwrite, result.parentNotFound || !result.childrenNotFound.isEmpty {
                let rerun = try await rerunTree(tree, after: result)
                result = try await sender.send(rerun, sendsParent: true)
                if let outcome = result.parent { parentOutcomes[tree.parent.entryID] = outcome }
                childOutcomes.merge(result.children) { $1 }
                let known = Set(children.map(\.entryID))
                children += rerun.children.filter { !known.contains($0.entryID) }
            }
        }

        let parentDates = try await readBack(parents, outcomes: parentOutcomes, field: plan.parentInfo.modificationDateFieldName)
        let childDates = try await readBack(children, outcomes: childOutcomes, field: plan.childrenInfo.modificationDateFieldName)
        progress.count(parents, outcomes: parentOutcomes)
        progress.count(children, outcomes: childOutcomes)
        let state = progress.batchWritten()
        let parentWriteBack = SyncUpWriteBack(
            soupName: parentSoup,
            idFieldName: plan.parentInfo.idFieldName,
            modificationDateFieldName: plan.parentInfo.modificationDateFieldName
        )
        let childWriteBack = SyncUpWriteBack(
            soupName: childSoup,
            idFieldName: plan.childrenInfo.idFieldName,
            modificationDateFieldName: plan.childrenInfo.modificationDateFieldName,
            referenceField: plan.parentIDField
        )
        var rewrites: [String: String] = [:]
        var deletedParentIDs: [String] = []
        for parent in parents {
            switch parentOutcomes[parent.entryID] {
            case .created(let id):
                if let old = recovery.replacedParentIDs[parent.entryID] ?? parent.storedID, old != id {
                    rewrites[old] = id
                }
            case .deleted, .removedLocally:
                if let id = parent.storedID { deletedParentIDs.append(id) }
            default: break
            }
        }
        let (isMasterDetail, parentIDField, soups) = (plan.isMasterDetail, plan.parentIDField, (parentSoup, childSoup))
        try await store.write { [parents, children, parentOutcomes, childOutcomes, rewrites, deletedParentIDs] writer in
            try parentWriteBack.apply(parents, outcomes: parentOutcomes, serverDates: parentDates, writer: writer)
            try childWriteBack.apply(
                children,
                outcomes: childOutcomes,
                serverDates: childDates,
                referenceRewrites: rewrites,
                writer: writer
            )
            try childWriteBack.rewriteReferences(rewrites, writer: writer)
            if isMasterDetail {
                // The server deleted the children with their parent; a parent the app kept (edited
                // during the run) keeps its children too.
                let gone = try deletedParentIDs.filter {
                    try writer.reader.entries(in: soups.0, wherePath: parentIDFieldName, isIn: [$0]).isEmpty
                }
                if !gone.isEmpty { _ = try writer.deleteEntries(from: soups.1, wherePath: parentIDField, isIn: gone) }
            }
            _ = try writer.updateSyncState(state)
        }
        events?.yield(.batch(progress.batchProgress))
    }

    private var parentIDFieldName: String { plan.parentInfo.idFieldName }

    /// The tree to send again under `OVERWRITE` after records were found deleted on the server:
    /// a missing parent is re-created with all its children (created again under
    /// `MASTER_DETAIL`, whose children the server deleted with it; re-pointed by an update under
    /// `LOOKUP`); a missing child is re-created.
    private func rerunTree(_ tree: ParentChildrenTree, after result: ParentChildrenSyncUpSender.Result) async throws
        -> ParentChildrenTree
    {
        var parent = tree.parent
        if result.parentNotFound, !tree.isParentDeleted, parent.entryID > 0 {
            parent.action = .create
            let (loader, isMasterDetail, missing) = (self.loader, plan.isMasterDetail, result.childrenNotFound)
            let forced = parent
            return try await store.read { reader in
                var rerun = try loader.tree(of: forced, reader: reader)
                for index in rerun.children.indices {
                    let child = rerun.children[index]
                    if isMasterDetail || missing.contains(child.entryID) {
                        rerun.children[index].action = child.action == .delete ? .removeLocally : .create
                    }
                }
                return rerun
            }
        }
        if case .created(let id) = result.parent { parent.fields[plan.parentInfo.idFieldName] = .string(id) }
        parent.action = .none
        var children = tree.children.filter { result.childrenNotFound.contains($0.entryID) }
        for index in children.indices { children[index].action = .create }
        return ParentChildrenTree(parent: parent, children: children)
    }

    private func readBack(_ records: [SyncUpRecord], outcomes: [Int64: SyncUpOutcome], field: String) async throws
        -> [String: String]
    {
        let written = records.compactMap { record -> (type: String, id: String)? in
            guard let id = outcomes[record.entryID]?.serverID, let type = record.objectType else { return nil }
            return (type, id)
        }
        return try await SyncUpReadBack(org: org, modificationDateFieldName: field).modificationDates(of: written)
    }

    static func parentNotFound(_ child: SyncUpRecord, field: String) -> OrgErrorDetail {
        let id = child.fields[field]?.stringValue ?? ""
        return SyncUpRequestPlan.localError(
            "PARENT_NOT_FOUND",
            id.isEmpty
                ? "the child has no '\(field)'; set it to its parent's id"
                : "the parent '\(id)' named by '\(field)' is not in the parent soup; sync it down or create it"
        )
    }
}
