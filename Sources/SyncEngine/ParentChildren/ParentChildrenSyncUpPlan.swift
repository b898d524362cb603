import SyncConfig

/// Everything a `parent_children` sync up needs from its definition (sync-semantics §8.4): the
/// request plans of parents and children, and where each lives.
///
/// Parents use `createFieldlist` / `updateFieldlist` (falling back to `options.fieldlist`) and the
/// parent info's id, modification date and external id fields (the target's
/// `externalIdFieldName` when the parent info has none). Children use `childrenCreateFieldlist` /
/// `childrenUpdateFieldlist` with no fallback (an absent list sends only the parent id field) and
/// the children info's fields.
struct ParentChildrenSyncUpPlan: Sendable {
    let parentInfo: ParentInfo
    let childrenInfo: ChildrenInfo
    let relationship: RelationshipType
    let parent: SyncUpRequestPlan
    let children: SyncUpRequestPlan

    init(info: ParentChildrenSyncUpInfo, target: SyncUpTarget, parent plan: SyncUpRequestPlan) {
        parentInfo = info.parent
        childrenInfo = info.children
        relationship = info.relationshipType
        parent = SyncUpRequestPlan(
            createFields: plan.createFields,
            updateFields: plan.updateFields,
            externalIDField: info.parent.externalIdFieldName ?? target.externalIdFieldName,
            isOverwrite: plan.isOverwrite,
            idFieldName: info.parent.idFieldName,
            modificationDateFieldName: info.parent.modificationDateFieldName
        )
        children = SyncUpRequestPlan(
            createFields: info.childrenCreateFieldlist ?? [],
            updateFields: info.childrenUpdateFieldlist ?? [],
            externalIDField: info.children.externalIdFieldName,
            isOverwrite: plan.isOverwrite,
            idFieldName: info.children.idFieldName,
            modificationDateFieldName: info.children.modificationDateFieldName
        )
    }

    var isMasterDetail: Bool { relationship == .masterDetail }
    var parentIDField: String { childrenInfo.parentIdFieldName }
}
