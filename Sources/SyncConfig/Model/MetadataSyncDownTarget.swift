import JSONCore

/// A `metadata` sync down target: fetches an object's describe.
///
/// Keys:
/// - `sobjectType` (string, required).
/// - `idFieldName` (string, default `"Id"`), `modificationDateFieldName` (string, default
///   `"LastModifiedDate"`).
public struct MetadataSyncDownTarget: Sendable, Hashable, TargetCommonKeys {
    /// The object (`sobjectType`).
    public var sobjectType: String
    /// The field holding the server id (`idFieldName`).
    public var idFieldName: String
    /// The field holding the server modification date (`modificationDateFieldName`).
    public var modificationDateFieldName: String
    /// Keys the product does not know, verbatim.
    public var extraKeys: [String: JSONValue]

    /// Creates a metadata target.
    public init(
        sobjectType: String,
        idFieldName: String = "Id",
        modificationDateFieldName: String = "LastModifiedDate",
        extraKeys: [String: JSONValue] = [:]
    ) {
        self.sobjectType = sobjectType
        self.idFieldName = idFieldName
        self.modificationDateFieldName = modificationDateFieldName
        self.extraKeys = extraKeys
    }
}
