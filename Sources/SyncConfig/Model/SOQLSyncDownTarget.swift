import JSONCore

/// A `soql` sync down target.
///
/// Keys:
/// - `query` (string, required): the SOQL query.
/// - `maxBatchSize` (int, default 2000): requested page size, clamped to 200...2000.
/// - `idFieldName` (string, default `"Id"`), `modificationDateFieldName` (string, default
///   `"LastModifiedDate"`).
public struct SOQLSyncDownTarget: Sendable, Hashable, TargetCommonKeys {
    /// The default and largest page size.
    public static let defaultMaxBatchSize = 2000
    /// The allowed page sizes.
    public static let maxBatchSizeRange = 200...2000

    /// The SOQL query (`query`), as written.
    public var query: String
    /// The page size after clamping (`maxBatchSize`).
    public var maxBatchSize: Int
    /// The field holding the server id (`idFieldName`).
    public var idFieldName: String
    /// The field holding the server modification date (`modificationDateFieldName`).
    public var modificationDateFieldName: String
    /// Keys the product does not know, verbatim.
    public var extraKeys: [String: JSONValue]

    /// Creates a SOQL target; `maxBatchSize` is clamped to ``maxBatchSizeRange``.
    public init(
        query: String,
        maxBatchSize: Int = SOQLSyncDownTarget.defaultMaxBatchSize,
        idFieldName: String = "Id",
        modificationDateFieldName: String = "LastModifiedDate",
        extraKeys: [String: JSONValue] = [:]
    ) {
        self.query = query
        self.maxBatchSize = min(max(maxBatchSize, Self.maxBatchSizeRange.lowerBound), Self.maxBatchSizeRange.upperBound)
        self.idFieldName = idFieldName
        self.modificationDateFieldName = modificationDateFieldName
        self.extraKeys = extraKeys
    }
}
