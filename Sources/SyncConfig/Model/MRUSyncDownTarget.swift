import JSONCore

/// An `mru` (most recently used) sync down target.
///
/// Keys:
/// - `sobjectType` (string, required): the object, e.g. `Account`.
/// - `fieldlist` (array of strings, required): fields to fetch; must include the id field.
/// - `idFieldName` (string, default `"Id"`), `modificationDateFieldName` (string, default
///   `"LastModifiedDate"`).
public struct MRUSyncDownTarget: Sendable, Hashable, TargetCommonKeys {
    /// The object (`sobjectType`).
    public var sobjectType: String
    /// Fields to fetch (`fieldlist`).
    public var fieldlist: [String]
    /// The field holding the server id (`idFieldName`).
    public var idFieldName: String
    /// The field holding the server modification date (`modificationDateFieldName`).
    public var modificationDateFieldName: String
    /// Keys the product does not know, verbatim.
    public var extraKeys: [String: JSONValue]

    /// Creates an MRU target.
    public init(
        sobjectType: String,
        fieldlist: [String],
        idFieldName: String = "Id",
        modificationDateFieldName: String = "LastModifiedDate",
        extraKeys: [String: JSONValue] = [:]
    ) {
        self.sobjectType = sobjectType
        self.fieldlist = fieldlist
        self.idFieldName = idFieldName
        self.modificationDateFieldName = modificationDateFieldName
        self.extraKeys = extraKeys
    }
}
