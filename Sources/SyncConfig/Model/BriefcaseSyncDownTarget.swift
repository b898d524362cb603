import JSONCore

/// A `briefcase` sync down target: the records the server's priming-record API selects, for
/// several object types, each stored in its own soup.
///
/// Keys:
/// - `infos` (array of objects, required, at least one): ``BriefcaseObjectInfo``.
/// - `countIdsPerRetrieve` (int, default 2000, capped at 2000): ids per retrieve call.
/// - `idFieldName` (string, default `"Id"`), `modificationDateFieldName` (string, default
///   `"LastModifiedDate"`).
public struct BriefcaseSyncDownTarget: Sendable, Hashable, TargetCommonKeys {
    /// The default and largest number of ids per retrieve call.
    public static let defaultCountIdsPerRetrieve = 2000

    /// One entry per object type (`infos`).
    public var infos: [BriefcaseObjectInfo]
    /// Ids per retrieve call after clamping to 1...2000 (`countIdsPerRetrieve`).
    public var countIdsPerRetrieve: Int
    /// The field holding the server id (`idFieldName`).
    public var idFieldName: String
    /// The field holding the server modification date (`modificationDateFieldName`).
    public var modificationDateFieldName: String
    /// Keys the product does not know, verbatim.
    public var extraKeys: [String: JSONValue]

    /// Creates a briefcase target; `countIdsPerRetrieve` is clamped to 1...2000.
    public init(
        infos: [BriefcaseObjectInfo],
        countIdsPerRetrieve: Int = BriefcaseSyncDownTarget.defaultCountIdsPerRetrieve,
        idFieldName: String = "Id",
        modificationDateFieldName: String = "LastModifiedDate",
        extraKeys: [String: JSONValue] = [:]
    ) {
        self.infos = infos
        self.countIdsPerRetrieve = min(max(countIdsPerRetrieve, 1), Self.defaultCountIdsPerRetrieve)
        self.idFieldName = idFieldName
        self.modificationDateFieldName = modificationDateFieldName
        self.extraKeys = extraKeys
    }
}

/// One object type of a briefcase target.
///
/// Keys:
/// - `sobjectType` (string, required), `soupName` (string, required), `fieldlist` (array of
///   strings, required).
/// - `idFieldName` (string, default `"Id"`), `modificationDateFieldName` (string, default
///   `"LastModifiedDate"`).
public struct BriefcaseObjectInfo: Sendable, Hashable {
    /// The object (`sobjectType`).
    public var sobjectType: String
    /// The soup its records go to (`soupName`).
    public var soupName: String
    /// Fields to fetch (`fieldlist`).
    public var fieldlist: [String]
    /// `idFieldName`.
    public var idFieldName: String
    /// `modificationDateFieldName`.
    public var modificationDateFieldName: String
    /// Keys the product does not know, verbatim.
    public var extraKeys: [String: JSONValue]

    /// Creates a briefcase entry.
    public init(
        sobjectType: String,
        soupName: String,
        fieldlist: [String],
        idFieldName: String = "Id",
        modificationDateFieldName: String = "LastModifiedDate",
        extraKeys: [String: JSONValue] = [:]
    ) {
        self.sobjectType = sobjectType
        self.soupName = soupName
        self.fieldlist = fieldlist
        self.idFieldName = idFieldName
        self.modificationDateFieldName = modificationDateFieldName
        self.extraKeys = extraKeys
    }
}
