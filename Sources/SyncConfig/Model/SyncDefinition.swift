import JSONCore

/// One named sync of a syncs config.
///
/// Keys:
/// - `syncName` (string, required): unique within the file.
/// - `syncType` (string, required): `"syncDown"` or `"syncUp"` (``SyncType``).
/// - `soupName` (string, required): the soup read or written. `briefcase` ignores it;
///   `parent_children` requires it to equal `parent.soupName`.
/// - `target` (object, required): a ``SyncDownTarget`` or a ``SyncUpTarget`` by `syncType`.
/// - `options` (object, default `{"mergeMode": "OVERWRITE"}`): ``SyncOptions``.
/// - `dependsOn` (array of sync names, default `[]`): product extension; syncs to run first.
///
/// Other keys are kept verbatim in ``extraKeys`` (and reported as `unknown-key` warnings).
public struct SyncDefinition: Sendable, Hashable {
    /// The sync's name (`syncName`).
    public var name: String
    /// Sync down or sync up (`syncType`).
    public var type: SyncType
    /// The soup (`soupName`).
    public var soupName: String
    /// The target (`target`); its direction always matches ``type``.
    public var target: SyncTarget
    /// The options (`options`).
    public var options: SyncOptions
    /// Names of syncs that must run before this one (`dependsOn`, product extension).
    public var dependsOn: [String]
    /// Keys of the sync object the product does not know, verbatim.
    public var extraKeys: [String: JSONValue]
    /// Where the sync's object starts, when it was read from a file.
    public var location: SourceLocation?

    /// Creates a sync definition.
    public init(
        name: String,
        type: SyncType,
        soupName: String,
        target: SyncTarget,
        options: SyncOptions = SyncOptions(),
        dependsOn: [String] = [],
        extraKeys: [String: JSONValue] = [:],
        location: SourceLocation? = nil
    ) {
        self.name = name
        self.type = type
        self.soupName = soupName
        self.target = target
        self.options = options
        self.dependsOn = dependsOn
        self.extraKeys = extraKeys
        self.location = location
    }
}

/// A sync's target: the direction decides which kind.
public enum SyncTarget: Sendable, Hashable {
    /// A sync down target.
    case down(SyncDownTarget)
    /// A sync up target.
    case up(SyncUpTarget)

    /// The field holding the server id (`idFieldName`, default `Id`).
    public var idFieldName: String {
        switch self {
        case .down(let target): target.idFieldName
        case .up(let target): target.idFieldName
        }
    }

    /// The field holding the server modification date (`modificationDateFieldName`, default
    /// `LastModifiedDate`).
    public var modificationDateFieldName: String {
        switch self {
        case .down(let target): target.modificationDateFieldName
        case .up(let target): target.modificationDateFieldName
        }
    }
}
