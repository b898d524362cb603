import JSONCore

/// A sync up target. The kind comes from the impl names (`iOSImpl` / `androidImpl`, mapped
/// through ``TargetImplRegistry``) or the product's `type`; without either it is
/// ``SyncUpTargetKind/collection``.
///
/// Keys:
/// - `createFieldlist` (array of strings, default absent): fields sent on create; overrides
///   `options.fieldlist`.
/// - `updateFieldlist` (array of strings, default absent): fields sent on update; overrides
///   `options.fieldlist`.
/// - `externalIdFieldName` (string, default absent): creates become upserts on this field.
/// - `matchFields` (array of strings, default absent; a syncrun extension read by `syncrun migrate`):
///   the key that finds a record's counterpart in the target org, one field or several (a composite
///   key), relationship paths such as `Account.Name` allowed.
/// - `idFieldName` (string, default `"Id"`), `modificationDateFieldName` (string, default
///   `"LastModifiedDate"`).
/// - `maxBatchSize` (int): records per call; collection default and cap 200, batch default and
///   cap 25; ignored (1) for single-record and parent-children.
/// - `iOSImpl`, `androidImpl` (strings, default absent): SDK class names choosing the kind.
/// - `type` (string, default absent): `"rest"` (iOS, the default), `"single"`, `"batch"`,
///   `"collection"`, `"parent_children"`, `"endpoint"` (product) or `"custom"`.
/// - endpoint only: `create`, `update`, `delete`, `modificationDate`, `batch` (see
///   ``EndpointSyncUpInfo``).
/// - parent-children only: `parent`, `children`, `childrenCreateFieldlist`,
///   `childrenUpdateFieldlist`, `relationshipType` (see ``ParentChildrenSyncUpInfo``).
public struct SyncUpTarget: Sendable, Hashable, TargetCommonKeys {
    /// Which implementation runs the sync.
    public var kind: SyncUpTargetKind
    /// Fields sent on create (`createFieldlist`).
    public var createFieldlist: [String]?
    /// Fields sent on update (`updateFieldlist`).
    public var updateFieldlist: [String]?
    /// External id field for upserts (`externalIdFieldName`).
    public var externalIdFieldName: String?
    /// The fields whose values find a record's counterpart in another org (`matchFields`).
    public var matchFields: [String]?
    /// The field holding the server id (`idFieldName`).
    public var idFieldName: String
    /// The field holding the server modification date (`modificationDateFieldName`).
    public var modificationDateFieldName: String
    /// Records per server call after clamping to the kind's cap (`maxBatchSize`).
    public var maxBatchSize: Int
    /// `iOSImpl` as written in the config, if any.
    public var iOSImpl: String?
    /// `androidImpl` as written in the config, if any.
    public var androidImpl: String?
    /// The parent-children keys; present exactly when ``kind`` is `.parentChildren`.
    public var parentChildren: ParentChildrenSyncUpInfo?
    /// The endpoint requests; present exactly when ``kind`` is `.endpoint`.
    public var endpoint: EndpointSyncUpInfo?
    /// Keys the product does not know (for custom targets: the plug-in's keys), verbatim.
    public var extraKeys: [String: JSONValue]
    /// The API the records go up through (`api`): `auto` uses a Bulk API 2.0 ingest job when the
    /// sync's dirty records are at least ``bulkThreshold`` (collection and batch targets).
    public var api: SyncAPI = .auto
    /// The dirty-record count at which `auto` switches to Bulk API 2.0 (`bulkThreshold`).
    public var bulkThreshold: Int = SyncAPI.defaultBulkThreshold

    /// Creates a sync up target; `maxBatchSize` defaults to and is clamped by the kind's cap.
    public init(
        kind: SyncUpTargetKind = .collection,
        createFieldlist: [String]? = nil,
        updateFieldlist: [String]? = nil,
        externalIdFieldName: String? = nil,
        idFieldName: String = "Id",
        modificationDateFieldName: String = "LastModifiedDate",
        maxBatchSize: Int? = nil,
        iOSImpl: String? = nil,
        androidImpl: String? = nil,
        parentChildren: ParentChildrenSyncUpInfo? = nil,
        extraKeys: [String: JSONValue] = [:],
        matchFields: [String]? = nil,
        endpoint: EndpointSyncUpInfo? = nil
    ) {
        self.endpoint = endpoint
        self.kind = kind
        self.matchFields = matchFields
        self.createFieldlist = createFieldlist
        self.updateFieldlist = updateFieldlist
        self.externalIdFieldName = externalIdFieldName
        self.idFieldName = idFieldName
        self.modificationDateFieldName = modificationDateFieldName
        self.maxBatchSize = min(max(maxBatchSize ?? kind.maxBatchSizeCap, 1), kind.maxBatchSizeCap)
        self.iOSImpl = iOSImpl
        self.androidImpl = androidImpl
        self.parentChildren = parentChildren
        self.extraKeys = extraKeys
    }
}

/// The implementation behind a sync up target.
public enum SyncUpTargetKind: Sendable, Hashable {
    /// One record per call (`SFSyncUpTarget` / `…target.SyncUpTarget`, `"type": "single"`).
    case single
    /// Composite batches of up to 25 (`SFBatchSyncUpTarget` / `…target.BatchSyncUpTarget`,
    /// `"type": "batch"`).
    case batch
    /// sObject collections of up to 200, the default (`SFCollectionSyncUpTarget` /
    /// `…target.CollectionSyncUpTarget`, `"type": "collection"`, no impl key).
    case collection
    /// A parent with its children per call (`SFParentChildrenSyncUpTarget` /
    /// `…target.ParentChildrenSyncUpTarget`, `"type": "parent_children"`).
    case parentChildren
    /// A plug-in registered under this class name.
    case custom(implName: String)
    /// JSON endpoints of the org declared in the config (`"type": "endpoint"`), see
    /// ``EndpointSyncUpInfo``.
    case endpoint

    /// The largest (and default) `maxBatchSize`: 1, 25, 200, 1, or 200 for custom targets; 1 for
    /// endpoint targets (their batch form has its own `maxBatchSize`).
    public var maxBatchSizeCap: Int {
        switch self {
        case .single, .parentChildren, .endpoint: 1
        case .batch: 25
        case .collection, .custom: 200
        }
    }

    /// The product's `type` value for the built-in kinds (`nil` for custom).
    public var productTypeName: String? {
        switch self {
        case .single: "single"
        case .batch: "batch"
        case .collection: "collection"
        case .parentChildren: "parent_children"
        case .endpoint: "endpoint"
        case .custom: nil
        }
    }
}

/// The keys of a parent-children sync up target.
///
/// Keys:
/// - `parent` (object, required): ``ParentInfo``; `createFieldlist` / `updateFieldlist` apply
///   to it.
/// - `children` (object, required): ``ChildrenInfo``.
/// - `childrenCreateFieldlist`, `childrenUpdateFieldlist` (arrays of strings, default absent).
/// - `relationshipType` (string, required): `"MASTER_DETAIL"` or `"LOOKUP"`.
public struct ParentChildrenSyncUpInfo: Sendable, Hashable {
    /// The parent (`parent`).
    public var parent: ParentInfo
    /// The children (`children`).
    public var children: ChildrenInfo
    /// Child fields sent on create (`childrenCreateFieldlist`).
    public var childrenCreateFieldlist: [String]?
    /// Child fields sent on update (`childrenUpdateFieldlist`).
    public var childrenUpdateFieldlist: [String]?
    /// `relationshipType`.
    public var relationshipType: RelationshipType

    /// Creates parent-children keys.
    public init(
        parent: ParentInfo,
        children: ChildrenInfo,
        childrenCreateFieldlist: [String]? = nil,
        childrenUpdateFieldlist: [String]? = nil,
        relationshipType: RelationshipType
    ) {
        self.parent = parent
        self.children = children
        self.childrenCreateFieldlist = childrenCreateFieldlist
        self.childrenUpdateFieldlist = childrenUpdateFieldlist
        self.relationshipType = relationshipType
    }
}
