import SoupStore

/// One parent with the children sync up sends with it (sync-semantics §8.4).
///
/// `children` holds the children that take part: every loaded child when the parent is created
/// locally (each must be re-pointed at the new id, so clean ones are forced to an update), else
/// the dirty ones. With `MASTER_DETAIL` and a deleted parent, no child is loaded: the server
/// cascades the delete (or never had the parent) and write-back removes the local children.
struct ParentChildrenTree: Sendable {
    /// The parent; its action is `.none` when only children are dirty.
    var parent: SyncUpRecord
    /// The children that take part, in entry-id order.
    var children: [SyncUpRecord]

    /// Whether the parent is deleted (on the server or only locally).
    var isParentDeleted: Bool { parent.action == .delete || parent.action == .removeLocally }
}

/// Reads parent trees from the two soups.
struct ParentChildrenTreeLoader: Sendable {
    let plan: ParentChildrenSyncUpPlan

    /// The parent record of `entry`; its action is `.none` unless `__local__` is set.
    func parent(_ entry: SoupEntry) throws -> SyncUpRecord {
        try record(entry, fields: plan.parent, objectType: plan.parentInfo.sobjectType)
    }

    /// The child record of `entry`; its action is `.none` unless `__local__` is set.
    func child(_ entry: SoupEntry) throws -> SyncUpRecord {
        try record(entry, fields: plan.children, objectType: plan.childrenInfo.sobjectType)
    }

    /// The record of `entry`, read with the id and modification date fields of `fields` (the
    /// parents' or the children's plan); its action is `.none` unless `__local__` is set.
    private func record(_ entry: SoupEntry, fields: SyncUpRequestPlan, objectType: String) throws -> SyncUpRecord {
        var record = try SyncUpRecord(
            entry: entry,
            idFieldName: fields.idFieldName,
            modificationDateFieldName: fields.modificationDateFieldName,
            dirtyWithoutOperationIsUpdate: true,
            defaultObjectType: objectType
        )
        if !record.isDirty { record.action = .none }
        return record
    }

    /// The tree of `parent`, reading its children from the children soup.
    func tree(of parent: SyncUpRecord, reader: SoupReader) throws -> ParentChildrenTree {
        if plan.isMasterDetail, parent.action == .delete || parent.action == .removeLocally {
            return ParentChildrenTree(parent: parent, children: [])
        }
        guard let parentID = parent.storedID, !parentID.isEmpty, try reader.hasSoup(plan.childrenInfo.soupName) else {
            return ParentChildrenTree(parent: parent, children: [])
        }
        let entries = try reader.entries(
            in: plan.childrenInfo.soupName,
            wherePath: plan.parentIDField,
            isIn: [parentID]
        )
        var children: [SyncUpRecord] = []
        for entry in entries {
            var child = try child(entry)
            if parent.action == .create, child.action == .none {
                child.action = .update  // re-pointed at the parent's new id (§8.4)
            }
            if child.action != .none { children.append(child) }
        }
        return ParentChildrenTree(parent: parent, children: children)
    }
}
