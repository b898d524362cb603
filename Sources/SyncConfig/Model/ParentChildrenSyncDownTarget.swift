import JSONCore

/// A `parent_children` sync down target: parents with their children in one nested query.
///
/// Keys:
/// - `parent` (object, required): ``ParentInfo``; its id and modification-date fields are the
///   target's.
/// - `parentFieldlist` (array of strings, required): parent fields to select.
/// - `parentSoqlFilter` (string, default absent): WHERE condition on parents.
/// - `children` (object, required): ``ChildrenInfo``.
/// - `childrenFieldlist` (array of strings, required): child fields of the nested query.
/// - `relationshipType` (string, required): `"MASTER_DETAIL"` or `"LOOKUP"`.
public struct ParentChildrenSyncDownTarget: Sendable, Hashable, TargetCommonKeys {
    /// The parent (`parent`).
    public var parent: ParentInfo
    /// Parent fields (`parentFieldlist`).
    public var parentFieldlist: [String]
    /// WHERE condition on parents (`parentSoqlFilter`).
    public var parentSoqlFilter: String?
    /// The children (`children`).
    public var children: ChildrenInfo
    /// Child fields (`childrenFieldlist`).
    public var childrenFieldlist: [String]
    /// `relationshipType`.
    public var relationshipType: RelationshipType
    /// Keys the product does not know, verbatim.
    public var extraKeys: [String: JSONValue]

    /// Creates a parent-children target.
    public init(
        parent: ParentInfo,
        parentFieldlist: [String],
        parentSoqlFilter: String? = nil,
        children: ChildrenInfo,
        childrenFieldlist: [String],
        relationshipType: RelationshipType,
        extraKeys: [String: JSONValue] = [:]
    ) {
        self.parent = parent
        self.parentFieldlist = parentFieldlist
        self.parentSoqlFilter = parentSoqlFilter
        self.children = children
        self.childrenFieldlist = childrenFieldlist
        self.relationshipType = relationshipType
        self.extraKeys = extraKeys
    }

    /// The parent's id field.
    public var idFieldName: String { parent.idFieldName }
    /// The parent's modification-date field.
    public var modificationDateFieldName: String { parent.modificationDateFieldName }
}
