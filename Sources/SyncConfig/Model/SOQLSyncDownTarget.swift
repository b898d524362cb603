import JSONCore

/// A `soql` sync down target.
///
/// Keys:
/// - `query` (string, required): the SOQL query.
/// - `maxBatchSize` (int, default 2000): requested page size, clamped to 200...2000.
/// - `idFieldName` (string, default `"Id"`), `modificationDateFieldName` (string, default
///   `"LastModifiedDate"`).
/// - `api` (`"auto"` | `"rest"` | `"bulk"`, default `"auto"`): see ``SyncAPI``.
/// - `bulkThreshold` (int ≥ 1, default 10000): the record count at which `auto` uses Bulk API 2.0.
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
    /// The API the records come through (`api`).
    public var api: SyncAPI = .auto
    /// The record count at which `auto` switches to Bulk API 2.0 (`bulkThreshold`).
    public var bulkThreshold: Int = SyncAPI.defaultBulkThreshold

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

    /// Why Bulk API 2.0 cannot run ``query`` (`a parent-to-child sub-query`…), or `nil` when it can.
    public var bulkRefusal: String? { BulkCheck.refusal(query) }

    /// The API rule of the target, in words: `REST below 10000 records, Bulk API 2.0 at or above`.
    public var apiRule: String {
        if api != .rest, let reason = bulkRefusal { return "REST (Bulk API 2.0 cannot run a query with \(reason))" }
        switch api {
        case .rest: return "REST"
        case .bulk: return "Bulk API 2.0"
        case .auto: return "REST below \(bulkThreshold) records, Bulk API 2.0 at or above"
        }
    }
}
