import OrgClient
import SoupStore

extension SyncUpPreviewer {
    /// Previews a `parent_children` sync up (sync-semantics §8.4) with the run's own steps, minus
    /// the sends: the trees are selected by ``ParentChildrenTreeSelection`` (dirty parents with
    /// their children, then dirty children grouped by parent), each page is checked by
    /// ``ParentChildrenTreeCheck`` (under `LEAVE_IF_CHANGED`, one collection retrieve per sObject
    /// type for the parents and one for the children, reads sent as `POST`), and each tree the
    /// check lets through is planned by ``ParentChildrenSyncUpSender/plannedRequests(_:sendsParent:)``:
    ///
    /// - a tree with a conflict is left alone: its conflicting records are `conflicts`, its other
    ///   dirty records `skipped`;
    /// - the planned subrequests are `org.created` (creates and upserts), `org.updated` (children
    ///   forced to re-point at a created parent included) and `org.deleted`;
    /// - records removed without a request (created then deleted locally, deleted locally and
    ///   already gone on the org) are `local.deleted`;
    /// - records refused before sending are `failed`: orphans (`PARENT_NOT_FOUND`), requests that
    ///   cannot be built, children of a parent that cannot be created (`PARENT_NOT_CREATED`).
    ///
    /// The preview assumes every subrequest succeeds: a parent created in one composite call gives
    /// the children of the next call its id.
    func previewTrees(
        _ plan: ParentChildrenSyncUpPlan,
        syncName: String,
        stop: StopSignal,
        into preview: inout SyncPreview
    ) async throws {
        let selection = ParentChildrenTreeSelection(store: store, plan: plan)
        let check = ParentChildrenTreeCheck(org: org, plan: plan)
        let sender = ParentChildrenSyncUpSender(org: org, plan: plan)
        preview.selected = try await selection.dirtyCount()
        let stopped = try await selection.forEachPage(stop: stop) { page in
            preview.pages += 1
            for orphan in page.orphans {
                preview.record(.failed, recordID: orphan.storedID, entryID: orphan.entryID, isChild: true)
            }
            let versions = try await check.serverVersions(of: page.trees)
            for tree in page.trees {
                let decision = ParentChildrenTreeCheck.decide(tree, versions: versions)
                Self.preview(tree, decision: decision, sender: sender, into: &preview)
            }
        }
        if stopped { throw SyncEngineError.stopped(syncName) }
    }

    /// Counts and lists what the run would do with `tree`, decided as `decision` says.
    private static func preview(
        _ tree: ParentChildrenTree,
        decision: ParentChildrenTreeCheck.Decision,
        sender: ParentChildrenSyncUpSender,
        into preview: inout SyncPreview
    ) {
        let parent = tree.parent
        if decision.isLeftAlone {
            // Only the conflicts get an outcome; the run counts the others as skipped.
            if parent.action != .none {
                let count: SyncPreview.Count = decision.parent == nil ? .skipped : .conflicts
                preview.record(count, recordID: parent.storedID, entryID: parent.entryID, isChild: false)
            }
            for child in tree.children {
                let count: SyncPreview.Count = decision.children[child.entryID] == nil ? .skipped : .conflicts
                preview.record(count, recordID: child.storedID, entryID: child.entryID, isChild: true)
            }
            return
        }
        var sent = tree
        sent.children.removeAll { decision.children[$0.entryID] != nil }
        let (requests, result) = sender.plannedRequests(sent, sendsParent: decision.parent == nil)
        if parent.action != .none, let outcome = decision.parent ?? result.parent {
            add(outcome, of: parent, isChild: false, to: &preview)
        }
        for child in tree.children {
            if let outcome = decision.children[child.entryID] ?? result.children[child.entryID] {
                add(outcome, of: child, isChild: true, to: &preview)
            }
        }
        for planned in requests {
            let (record, isChild) = (planned.item.record, planned.item.isChild)
            let count: SyncPreview.Count =
                switch planned.request {
                case .create, .upsert: .created(.org)
                case .update: .updated(.org)
                case .delete: .deleted(.org)
                case .invalid: .failed  // never planned: a request that cannot be built is an outcome
                }
            preview.record(count, recordID: record.storedID, entryID: record.entryID, isChild: isChild)
        }
    }

    /// Counts and lists an outcome decided without sending.
    private static func add(
        _ outcome: SyncUpOutcome,
        of record: SyncUpRecord,
        isChild: Bool,
        to preview: inout SyncPreview
    ) {
        preview.record(SyncPreview.Count(outcome), recordID: record.storedID, entryID: record.entryID, isChild: isChild)
    }
}
