import JSONCore

/// A `sosl` sync down target.
///
/// Keys:
/// - `query` (string, required): the SOSL search; its results must include the id field.
/// - `idFieldName` (string, default `"Id"`), `modificationDateFieldName` (string, default
///   `"LastModifiedDate"`).
public struct SOSLSyncDownTarget: Sendable, Hashable, TargetCommonKeys {
    /// The SOSL search (`query`).
    public var query: String
    /// The field holding the server id (`idFieldName`).
    public var idFieldName: String
    /// The field holding the server modification date (`modificationDateFieldName`).
    public var modificationDateFieldName: String
    /// Keys the product does not know, verbatim.
    public var extraKeys: [String: JSONValue]

    /// Creates a SOSL target.
    public init(
        query: String,
        idFieldName: String = "Id",
        modificationDateFieldName: String = "LastModifiedDate",
        extraKeys: [String: JSONValue] = [:]
    ) {
        self.query = query
        self.idFieldName = idFieldName
        self.modificationDateFieldName = modificationDateFieldName
        self.extraKeys = extraKeys
    }
}
