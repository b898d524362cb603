import OrgClient
import SoupStore

/// Crash-safe creates for parent-children trees (the same design as ``SyncUpCreateRecovery``,
/// applied to both soups of a tree).
///
/// Before a page of trees is sent, every parent and child about to be created gets a
/// ``SyncUpCreateIntent`` holding the body sent. A child's intent holds its parent id field as the
/// store has it (the parent's `local_` id when the parent is created in the same tree; the
/// composite reference `@{…}` it travels with is not stored).
///
/// On a later run, before the conflict check, pending creates are looked up: parents first (as
/// for the flat targets); a parent adopted with server id `X` has its `local_` id replaced by `X`
/// in its children's records and intents, so their bodies match the children the lost composite
/// call created under `X`; then the children are looked up the same way. An adopted record is
/// not sent again; a tree whose parent was adopted sends its remaining children under `X`.
extension ParentChildrenSyncUpRunner {
    /// The outcome of the recovery of a page of trees.
    struct Recovery: Sendable {
        /// The trees with adopted records updated (server ids, edited ones turned into updates).
        var trees: [ParentChildrenTree]
        /// Parents adopted unchanged: `.created(id)`, by entry id.
        var parents: [Int64: SyncUpOutcome] = [:]
        /// Children adopted unchanged: `.created(id)`, by entry id.
        var children: [Int64: SyncUpOutcome] = [:]
        /// The `local_` id each adopted parent had, by entry id (for rewriting references).
        var replacedParentIDs: [Int64: String] = [:]
    }

    /// Looks up the pending creates of `trees` (see the type's documentation).
    func recover(_ trees: [ParentChildrenTree]) async throws -> Recovery {
        var recovery = Recovery(trees: trees)
        var parents = trees.map(\.parent)
        let parentRecovery = SyncUpCreateRecovery(org: org, plan: plan.parent, soupName: parentSoup, store: store)
        recovery.parents = try await parentRecovery.recover(&parents)
        var localToServer: [String: String] = [:]
        for (index, parent) in parents.enumerated() {
            let before = trees[index].parent
            guard let old = before.storedID, SyncUpRecord.isLocalID(old), let new = parent.serverID else { continue }
            localToServer[old] = new
            recovery.replacedParentIDs[parent.entryID] = old
            recovery.trees[index].parent = parent
        }

        var children: [SyncUpRecord] = []
        var positions: [(tree: Int, child: Int)] = []
        for (treeIndex, tree) in recovery.trees.enumerated() {
            for (childIndex, child) in tree.children.enumerated() {
                children.append(Self.pointing(child, field: plan.parentIDField, through: localToServer))
                positions.append((treeIndex, childIndex))
            }
        }
        let childRecovery = SyncUpCreateRecovery(org: org, plan: plan.children, soupName: childSoup, store: store)
        recovery.children = try await childRecovery.recover(&children)
        for (index, position) in positions.enumerated() {
            recovery.trees[position.tree].children[position.child] = children[index]
        }
        return recovery
    }

    /// Writes a create intent on every parent and child of `trees` about to be created (not
    /// upserted, not decided), per soup in one transaction, before anything is sent.
    func recordCreateIntents(
        _ trees: inout [ParentChildrenTree],
        decidedParents: [Int64: SyncUpOutcome],
        decidedChildren: [Int64: SyncUpOutcome],
        now: Int64
    ) async throws {
        var parentIntents: [Int64: SyncUpCreateIntent] = [:]
        var childIntents: [Int64: SyncUpCreateIntent] = [:]
        for tree in trees {
            let parent = tree.parent
            if parent.action == .create, decidedParents[parent.entryID] == nil,
                case .create(_, let fields) = plan.parent.request(for: parent)
            {
                let attempt = (SyncUpCreateIntent(in: parent.fields)?.attempt ?? 0) + 1
                parentIntents[parent.entryID] = SyncUpCreateIntent(at: now, attempt: attempt, fields: fields)
            }
            for child in tree.children where child.action == .create && decidedChildren[child.entryID] == nil {
                guard case .create(_, let fields) = plan.children.request(for: child) else { continue }
                let attempt = (SyncUpCreateIntent(in: child.fields)?.attempt ?? 0) + 1
                childIntents[child.entryID] = SyncUpCreateIntent(at: now, attempt: attempt, fields: fields)
            }
        }
        let parentStamps = try await write(parentIntents, soup: parentSoup, records: trees.map(\.parent))
        let childStamps = try await write(childIntents, soup: childSoup, records: trees.flatMap(\.children))
        for treeIndex in trees.indices {
            Self.apply(parentIntents, parentStamps, to: &trees[treeIndex].parent)
            for childIndex in trees[treeIndex].children.indices {
                Self.apply(childIntents, childStamps, to: &trees[treeIndex].children[childIndex])
            }
        }
    }

    private func write(
        _ intents: [Int64: SyncUpCreateIntent],
        soup: String,
        records: [SyncUpRecord]
    ) async throws -> [Int64: Int64] {
        guard !intents.isEmpty else { return [:] }
        let read = Dictionary(records.map { ($0.entryID, $0.storedLastModified) }) { first, _ in first }
        return try await SyncUpRunner.writeIntents(
            intents,
            field: SyncUpCreateIntent.field,
            read: read,
            soup: soup,
            store: store
        )
    }

    private static func apply(
        _ intents: [Int64: SyncUpCreateIntent],
        _ stamps: [Int64: Int64],
        to record: inout SyncUpRecord
    ) {
        guard let intent = intents[record.entryID] else { return }
        record.fields[SyncUpCreateIntent.field] = intent.value
        if let stamp = stamps[record.entryID] { record.storedLastModified = stamp }
    }

    /// `child` with its parent id field, and the same field of its create intent, moved from a
    /// replaced `local_` parent id to the parent's server id.
    private static func pointing(
        _ child: SyncUpRecord,
        field: String,
        through ids: [String: String]
    ) -> SyncUpRecord {
        guard !ids.isEmpty else { return child }
        var child = child
        if let old = child.fields[field]?.stringValue, let new = ids[old] { child.fields[field] = .string(new) }
        if var intent = SyncUpCreateIntent(in: child.fields), let old = intent.fields[field]?.stringValue,
            let new = ids[old]
        {
            intent.fields[field] = .string(new)
            child.fields[SyncUpCreateIntent.field] = intent.value
        }
        return child
    }
}
