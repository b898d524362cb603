import JSONCore

/// The `parent` object of a `parent_children` target (sync down or sync up).
///
/// Keys:
/// - `sobjectType` (string, required), `soupName` (string, required).
/// - `idFieldName` (string, default `"Id"`), `modificationDateFieldName` (string, default
///   `"LastModifiedDate"`), `externalIdFieldName` (string, default absent).
public struct ParentInfo: Sendable, Hashable {
    /// The parent object (`sobjectType`).
    public var sobjectType: String
    /// The soup parents are stored in (`soupName`).
    public var soupName: String
    /// `idFieldName`.
    public var idFieldName: String
    /// `modificationDateFieldName`.
    public var modificationDateFieldName: String
    /// `externalIdFieldName`.
    public var externalIdFieldName: String?
    /// Keys the product does not know, verbatim.
    public var extraKeys: [String: JSONValue]

    /// Creates parent info.
    public init(
        sobjectType: String,
        soupName: String,
        idFieldName: String = "Id",
        modificationDateFieldName: String = "LastModifiedDate",
        externalIdFieldName: String? = nil,
        extraKeys: [String: JSONValue] = [:]
    ) {
        self.sobjectType = sobjectType
        self.soupName = soupName
        self.idFieldName = idFieldName
        self.modificationDateFieldName = modificationDateFieldName
        self.externalIdFieldName = externalIdFieldName
        self.extraKeys = extraKeys
    }
}

/// The `children` object of a `parent_children` target: ``ParentInfo``'s keys plus two more.
///
/// Keys:
/// - `sobjectType`, `soupName`, `idFieldName`, `modificationDateFieldName`,
///   `externalIdFieldName`: as for ``ParentInfo``.
/// - `sobjectTypePlural` (string, required): the child relationship name, e.g. `Contacts`.
/// - `parentIdFieldName` (string, required): the lookup field on the child, e.g. `AccountId`.
public struct ChildrenInfo: Sendable, Hashable {
    /// The child object (`sobjectType`).
    public var sobjectType: String
    /// The child relationship name used in the nested query (`sobjectTypePlural`).
    public var sobjectTypePlural: String
    /// The soup children are stored in (`soupName`).
    public var soupName: String
    /// The lookup field on the child holding the parent id (`parentIdFieldName`).
    public var parentIdFieldName: String
    /// `idFieldName`.
    public var idFieldName: String
    /// `modificationDateFieldName`.
    public var modificationDateFieldName: String
    /// `externalIdFieldName`.
    public var externalIdFieldName: String?
    /// Keys the product does not know, verbatim.
    public var extraKeys: [String: JSONValue]

    /// Creates children info.
    public init(
        sobjectType: String,
        sobjectTypePlural: String,
        soupName: String,
        parentIdFieldName: String,
        idFieldName: String = "Id",
        modificationDateFieldName: String = "LastModifiedDate",
        externalIdFieldName: String? = nil,
        extraKeys: [String: JSONValue] = [:]
    ) {
        self.sobjectType = sobjectType
        self.sobjectTypePlural = sobjectTypePlural
        self.soupName = soupName
        self.parentIdFieldName = parentIdFieldName
        self.idFieldName = idFieldName
        self.modificationDateFieldName = modificationDateFieldName
        self.externalIdFieldName = externalIdFieldName
        self.extraKeys = extraKeys
    }
}

/// How children relate to their parent (`relationshipType`), compared exactly.
public enum RelationshipType: String, Sendable, Hashable, CaseIterable {
    /// Children are deleted with their parent (sync up deletes only the parent).
    case masterDetail = "MASTER_DETAIL"
    /// Children survive their parent.
    case lookup = "LOOKUP"
}
