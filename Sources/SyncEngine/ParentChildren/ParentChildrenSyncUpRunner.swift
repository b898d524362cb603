import OrgClient
import SoupStore

/// The loop of a `parent_children` sync up (sync-semantics §8.4, §11 items 2, 16, 20, 31).
///
/// Trees are selected page by page by ``ParentChildrenTreeSelection`` (the dirty parents with their
/// children, then the dirty children grouped by parent). Per page: under `LEAVE_IF_CHANGED` one
/// collection retrieve per sObject type checks every parent and child to update or delete, and a
/// tree with any conflict is left alone (``ParentChildrenTreeCheck``: its conflicting records get a
/// structured `__last_error__`, the others stay dirty untouched). Each tree is sent by
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
    /// The run's requests in flight: trees of one page are sent in parallel, each holding one
    /// slot for its calls, which go in order.
    var window = RequestWindow(limit: 1)

    var parentSoup: String { plan.parentInfo.soupName }
    var childSoup: String { plan.childrenInfo.soupName }
    private var loader: ParentChildrenTreeLoader { ParentChildrenTreeLoader(plan: plan) }

    /// Runs every tree; returns whether the run stopped on request.
    func run(progress: inout SyncUpProgress, stop: StopSignal) async throws -> Bool {
        let selection = ParentChildrenTreeSelection(store: store, plan: plan)
        let selected = progress.selected(try await selection.dirtyCount())
        _ = try await store.write { try $0.updateSyncState(selected) }
        return try await selection.forEachPage(stop: stop) { page in
            try await process(page.trees, orphans: page.orphans, progress: &progress)
        }
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
            &trees,
            decidedParents: recovery.parents,
            decidedChildren: recovery.children,
            now: registry.now
        )
        var parentOutcomes: [Int64: SyncUpOutcome] = recovery.parents
        var childOutcomes: [Int64: SyncUpOutcome] = recovery.children
        var parents: [SyncUpRecord] = []
        var children: [SyncUpRecord] = []
        for orphan in orphans {
            children.append(orphan)
            childOutcomes[orphan.entryID] = .failed([Self.parentNotFound(orphan, field: plan.parentIDField)])
        }

        let check = ParentChildrenTreeCheck(org: org, plan: plan)
        let versions = try await window.run { [trees] in try await check.serverVersions(of: trees) }
        var sending: [(tree: ParentChildrenTree, sendsParent: Bool)] = []
        for var tree in trees {
            let decision = ParentChildrenTreeCheck.decide(
                tree,
                versions: versions,
                adoptedParents: recovery.parents,
                adoptedChildren: recovery.children
            )
            if tree.parent.action != .none { parents.append(tree.parent) }
            if let decided = decision.parent { parentOutcomes[tree.parent.entryID] = decided }
            children += tree.children
            childOutcomes.merge(decision.children) { $1 }
            if decision.isLeftAlone { continue }
            tree.children.removeAll { decision.children[$0.entryID] != nil }
            sending.append((tree, decision.parent == nil))
        }
        // Different parents in parallel (as many as the window lets); one tree's calls in order.
        var sent: [TreeAnswer?] = Array(repeating: nil, count: sending.count)
        let runner = self
        try await window.forEach(sending) { item in
            try await runner.send(item.tree, sendsParent: item.sendsParent)
        } receive: { index, answer in
            sent[index] = answer
        }
        for answer in sent.compactMap({ $0 }) {
            if let outcome = answer.parent { parentOutcomes[answer.parentEntryID] = outcome }
            childOutcomes.merge(answer.children) { $1 }
            if let rerunParent = answer.rerunParent { parents.append(rerunParent) }
            let known = Set(children.map(\.entryID))
            children += answer.rerunChildren.filter { !known.contains($0.entryID) }
        }

        let parentDates = try await readBack(
            parents,
            outcomes: parentOutcomes,
            field: plan.parentInfo.modificationDateFieldName
        )
        let childDates = try await readBack(
            children,
            outcomes: childOutcomes,
            field: plan.childrenInfo.modificationDateFieldName
        )
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

    /// What sending one tree came to.
    struct TreeAnswer: Sendable {
        var parentEntryID: Int64
        var parent: SyncUpOutcome?
        var children: [Int64: SyncUpOutcome] = [:]
        /// A clean parent re-created on the server, to write back like a created one.
        var rerunParent: SyncUpRecord?
        /// The children of a re-run tree, to write back too.
        var rerunChildren: [SyncUpRecord] = []
    }

    /// Sends `tree` (its calls in order), and once more under `OVERWRITE` when records of it were
    /// found deleted on the server.
    private func send(_ tree: ParentChildrenTree, sendsParent: Bool) async throws -> TreeAnswer {
        let sender = ParentChildrenSyncUpSender(org: org, plan: plan)
        var answer = TreeAnswer(parentEntryID: tree.parent.entryID)
        var result = try await sender.send(tree, sendsParent: sendsParent)
        answer.parent = result.parent
        answer.children = result.children
        if plan.parent.isOverwrite, result.parentNotFound || !result.childrenNotFound.isEmpty {
            let rerun = try await rerunTree(tree, after: result)
            result = try await sender.send(rerun, sendsParent: true)
            if let outcome = result.parent { answer.parent = outcome }
            // A clean parent re-created on the server (a child found it deleted) is written back
            // like a created one: it takes the new id and its children follow (as MobileSync).
            if tree.parent.action == .none, rerun.parent.action == .create, result.parent != nil {
                answer.rerunParent = rerun.parent
            }
            answer.children.merge(result.children) { $1 }
            answer.rerunChildren = rerun.children
        }
        return answer
    }

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
        let readBack = SyncUpReadBack(org: org, modificationDateFieldName: field)
        return try await window.run { try await readBack.modificationDates(of: written) }
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
