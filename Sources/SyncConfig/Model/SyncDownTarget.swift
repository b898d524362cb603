import JSONCore

/// A sync down target, chosen by its `type` key (`soql`, `sosl`, `mru`, `refresh`,
/// `parent_children`, `briefcase`, `layout`, `metadata`, `custom`, `endpoint`).
///
/// Every kind carries `idFieldName` (string, default `"Id"`) and `modificationDateFieldName`
/// (string, default `"LastModifiedDate"`); the kinds' own keys are listed on their structs.
public enum SyncDownTarget: Sendable, Hashable {
    /// `type: "soql"`.
    case soql(SOQLSyncDownTarget)
    /// `type: "sosl"`.
    case sosl(SOSLSyncDownTarget)
    /// `type: "mru"`.
    case mru(MRUSyncDownTarget)
    /// `type: "refresh"`.
    case refresh(RefreshSyncDownTarget)
    /// `type: "parent_children"`.
    case parentChildren(ParentChildrenSyncDownTarget)
    /// `type: "briefcase"`.
    case briefcase(BriefcaseSyncDownTarget)
    /// `type: "layout"`.
    case layout(LayoutSyncDownTarget)
    /// `type: "metadata"`.
    case metadata(MetadataSyncDownTarget)
    /// `type: "custom"` with an `iOSImpl` / `androidImpl` class name.
    case custom(CustomSyncDownTarget)
    /// `type: "endpoint"`: a JSON endpoint of the org, declared in the config.
    case endpoint(EndpointSyncDownTarget)

    /// The `type` value of this kind.
    public var kind: SyncDownTargetKind {
        switch self {
        case .soql: .soql
        case .sosl: .sosl
        case .mru: .mru
        case .refresh: .refresh
        case .parentChildren: .parentChildren
        case .briefcase: .briefcase
        case .layout: .layout
        case .metadata: .metadata
        case .custom: .custom
        case .endpoint: .endpoint
        }
    }

    /// The field holding the server id (`idFieldName`).
    public var idFieldName: String { common.idFieldName }

    /// The field holding the server modification date (`modificationDateFieldName`).
    public var modificationDateFieldName: String { common.modificationDateFieldName }

    /// Keys of the target the product does not know, verbatim.
    public var extraKeys: [String: JSONValue] { common.extraKeys }

    private var common: any TargetCommonKeys {
        switch self {
        case .soql(let target): target
        case .sosl(let target): target
        case .mru(let target): target
        case .refresh(let target): target
        case .parentChildren(let target): target
        case .briefcase(let target): target
        case .layout(let target): target
        case .metadata(let target): target
        case .custom(let target): target
        case .endpoint(let target): target
        }
    }
}

/// The `type` of a sync down target, compared exactly (case-sensitive).
public enum SyncDownTargetKind: String, Sendable, Hashable, CaseIterable {
    /// A SOQL query, paged.
    case soql
    /// A SOSL search.
    case sosl
    /// The most recently used records of an object.
    case mru
    /// Re-read the records already in a soup.
    case refresh
    /// Parents with their children in one nested query.
    case parentChildren = "parent_children"
    /// Several object types chosen by the server's priming records.
    case briefcase
    /// A record layout description.
    case layout
    /// An object's describe metadata.
    case metadata
    /// A plug-in named by `iOSImpl` / `androidImpl`.
    case custom
    /// A JSON endpoint of the org, declared in the config.
    case endpoint
}

/// The keys every target has; the target structs conform.
protocol TargetCommonKeys {
    var idFieldName: String { get }
    var modificationDateFieldName: String { get }
    var extraKeys: [String: JSONValue] { get }
}

/// Defaults of the keys every target has (sync-semantics §1.5).
enum TargetDefaults {
    /// `idFieldName` when absent.
    static let idFieldName = "Id"
    /// `modificationDateFieldName` when absent.
    static let modificationDateFieldName = "LastModifiedDate"
}
