import JSONCore

/// A `layout` sync down target: fetches a record layout description.
///
/// Keys:
/// - `sobjectType` (string, required).
/// - `formFactor`, `layoutType`, `mode`, `recordTypeId` (strings, optional; left out of the
///   request when absent or empty).
/// - `idFieldName` (string, default `"Id"`), `modificationDateFieldName` (string, default
///   `"LastModifiedDate"`).
public struct LayoutSyncDownTarget: Sendable, Hashable, TargetCommonKeys {
    /// The object (`sobjectType`).
    public var sobjectType: String
    /// `formFactor`, e.g. `Medium`.
    public var formFactor: String?
    /// `layoutType`, e.g. `Compact` or `Full`.
    public var layoutType: String?
    /// `mode`, e.g. `Edit` or `View`.
    public var mode: String?
    /// `recordTypeId`.
    public var recordTypeId: String?
    /// The field holding the server id (`idFieldName`).
    public var idFieldName: String
    /// The field holding the server modification date (`modificationDateFieldName`).
    public var modificationDateFieldName: String
    /// Keys the product does not know, verbatim.
    public var extraKeys: [String: JSONValue]

    /// Creates a layout target.
    public init(
        sobjectType: String,
        formFactor: String? = nil,
        layoutType: String? = nil,
        mode: String? = nil,
        recordTypeId: String? = nil,
        idFieldName: String = "Id",
        modificationDateFieldName: String = "LastModifiedDate",
        extraKeys: [String: JSONValue] = [:]
    ) {
        self.sobjectType = sobjectType
        self.formFactor = formFactor
        self.layoutType = layoutType
        self.mode = mode
        self.recordTypeId = recordTypeId
        self.idFieldName = idFieldName
        self.modificationDateFieldName = modificationDateFieldName
        self.extraKeys = extraKeys
    }
}
