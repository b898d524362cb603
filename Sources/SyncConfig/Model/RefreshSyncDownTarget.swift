import JSONCore

/// A `refresh` sync down target: re-reads the records already in a soup.
///
/// Keys:
/// - `sobjectType` (string, required): the object to re-read.
/// - `fieldlist` (array of strings, required): fields to fetch; the id and modification-date
///   fields are added when missing.
/// - `soupName` (string, required): the soup whose record ids are re-fetched.
/// - `countIdsPerSoql` (int, default 500, capped at 500): ids per `IN (…)` query. The iOS
///   misspelling `coundIdsPerSoql` is accepted; output always uses `countIdsPerSoql`.
/// - `idFieldName` (string, default `"Id"`), `modificationDateFieldName` (string, default
///   `"LastModifiedDate"`): honoured (as iOS does).
public struct RefreshSyncDownTarget: Sendable, Hashable, TargetCommonKeys {
    /// The default and largest number of ids per query.
    public static let defaultCountIdsPerSoql = 500

    /// The object (`sobjectType`).
    public var sobjectType: String
    /// Fields to fetch (`fieldlist`).
    public var fieldlist: [String]
    /// The soup whose records are re-read (`soupName`).
    public var soupName: String
    /// Ids per query after clamping to 1...500 (`countIdsPerSoql`).
    public var countIdsPerSoql: Int
    /// The field holding the server id (`idFieldName`).
    public var idFieldName: String
    /// The field holding the server modification date (`modificationDateFieldName`).
    public var modificationDateFieldName: String
    /// Keys the product does not know, verbatim.
    public var extraKeys: [String: JSONValue]

    /// Creates a refresh target; `countIdsPerSoql` is clamped to 1...500.
    public init(
        sobjectType: String,
        fieldlist: [String],
        soupName: String,
        countIdsPerSoql: Int = RefreshSyncDownTarget.defaultCountIdsPerSoql,
        idFieldName: String = "Id",
        modificationDateFieldName: String = "LastModifiedDate",
        extraKeys: [String: JSONValue] = [:]
    ) {
        self.sobjectType = sobjectType
        self.fieldlist = fieldlist
        self.soupName = soupName
        self.countIdsPerSoql = min(max(countIdsPerSoql, 1), Self.defaultCountIdsPerSoql)
        self.idFieldName = idFieldName
        self.modificationDateFieldName = modificationDateFieldName
        self.extraKeys = extraKeys
    }
}
