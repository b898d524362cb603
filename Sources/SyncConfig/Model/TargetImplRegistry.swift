/// Maps the SDK's target class names (`iOSImpl` / `androidImpl`, both platforms) to built-in
/// sync up kinds, and knows which custom class names (sync up or sync down) have a plug-in.
///
/// The product cannot load classes by name: a custom target whose name is not registered is
/// rejected (`unregistered-custom-target`).
///
/// ```swift
/// let registry = TargetImplRegistry(customImplNames: ["MyCustomSyncUpTarget"])
/// registry.syncUpKind(forImplName: "SFBatchSyncUpTarget")  // .batch
/// ```
public struct TargetImplRegistry: Sendable, Hashable {
    /// The built-in names: iOS class names and Android fully qualified class names.
    public static let builtInImplNames: [String: SyncUpTargetKind] = [
        "SFSyncUpTarget": .single,
        "SFBatchSyncUpTarget": .batch,
        "SFCollectionSyncUpTarget": .collection,
        "SFParentChildrenSyncUpTarget": .parentChildren,
        androidPackage + "SyncUpTarget": .single,
        androidPackage + "BatchSyncUpTarget": .batch,
        androidPackage + "CollectionSyncUpTarget": .collection,
        androidPackage + "ParentChildrenSyncUpTarget": .parentChildren,
    ]

    /// The product's `type` values for sync up targets.
    public static let productTypeNames: [String: SyncUpTargetKind] = [
        "single": .single,
        "batch": .batch,
        "collection": .collection,
        "parent_children": .parentChildren,
        "endpoint": .endpoint,
    ]

    /// The Android package of the SDK's targets, with a trailing dot.
    public static let androidPackage = "com.salesforce.androidsdk.mobilesync.target."

    /// Whether a plug-in is registered for a custom target class name (either direction).
    public func isRegistered(customImplName name: String) -> Bool {
        customImplNames.contains(name)
    }

    /// Whether a plug-in for syncs of `type` is registered under `name`.
    public func isRegistered(customImplName name: String, for type: SyncType) -> Bool {
        switch type {
        case .syncDown: customSyncDownImplNames.contains(name)
        case .syncUp: customSyncUpImplNames.contains(name)
        }
    }

    /// Custom class names for which a plug-in is available (either direction).
    public var customImplNames: Set<String> { customSyncDownImplNames.union(customSyncUpImplNames) }

    /// Class names of the registered sync down plug-ins.
    public var customSyncDownImplNames: Set<String>

    /// Class names of the registered sync up plug-ins.
    public var customSyncUpImplNames: Set<String>

    /// Creates a registry that also accepts the given custom class names, for both directions.
    public init(customImplNames: Set<String> = []) {
        self.init(customSyncDownImplNames: customImplNames, customSyncUpImplNames: customImplNames)
    }

    /// Creates a registry that accepts the given sync down and sync up plug-in class names.
    public init(customSyncDownImplNames: Set<String>, customSyncUpImplNames: Set<String>) {
        self.customSyncDownImplNames = customSyncDownImplNames
        self.customSyncUpImplNames = customSyncUpImplNames
    }

    /// The sync up kind for an `iOSImpl` / `androidImpl` value, or `nil` when the name is
    /// neither built in nor registered.
    public func syncUpKind(forImplName name: String) -> SyncUpTargetKind? {
        if let kind = Self.builtInImplNames[name] { return kind }
        return customSyncUpImplNames.contains(name) ? .custom(implName: name) : nil
    }

    /// The iOS and Android class names of a built-in kind (both are written, so either SDK can
    /// read the definition); `nil` for a custom kind, whose names are kept as written.
    public static func implNames(for kind: SyncUpTargetKind) -> (iOS: String, android: String)? {
        switch kind {
        case .single: ("SFSyncUpTarget", androidPackage + "SyncUpTarget")
        case .batch: ("SFBatchSyncUpTarget", androidPackage + "BatchSyncUpTarget")
        case .collection: ("SFCollectionSyncUpTarget", androidPackage + "CollectionSyncUpTarget")
        case .parentChildren: ("SFParentChildrenSyncUpTarget", androidPackage + "ParentChildrenSyncUpTarget")
        case .custom, .endpoint: nil
        }
    }
}
