import JSONCore
import Logging
import SyncConfig

/// The plug-ins an executable registers: each sync down or sync up plug-in under the class names a
/// config's `iOSImpl` / `androidImpl` may name.
///
/// A factory is called once per run (and once per `prepare` or dry run) of a sync that names the
/// plug-in, with that sync's definition, so a plug-in can read its own keys and throw ``CustomTargetError`` for bad ones.
///
/// ```swift
/// var targets = CustomTargets()
/// targets.registerSyncDown(["MyCasesDownTarget", "com.example.MyCasesDownTarget"]) { definition in
///     MyCasesDownTarget(pageSize: definition.keys["pageSize"]?.integerValue ?? 200)
/// }
/// targets.registerSyncUp(["MyCasesUpTarget"]) { _ in MyCasesUpTarget() }
/// await Syncrun.main(targets: targets)
/// ```
public struct CustomTargets: Sendable {
    /// Makes a sync down plug-in for one sync.
    public typealias SyncDownFactory = @Sendable (CustomTargetDefinition) throws -> any SyncDownTargetPlugin
    /// Makes a sync up plug-in for one sync.
    public typealias SyncUpFactory = @Sendable (CustomTargetDefinition) throws -> any SyncUpTargetPlugin

    private var syncDown: [String: SyncDownFactory] = [:]
    private var syncUp: [String: SyncUpFactory] = [:]
    /// The logger of the engine that runs the plug-ins (``SyncEngine/init(store:org:logger:configuration:)``
    /// sets it); each plug-in logs through it with the metadata `plugin: <class name>`.
    package var engineLogger: Logger?

    /// No plug-ins (the stock `syncrun`).
    public init() {}

    /// Registers a sync down plug-in under each of `names` (its iOS class name, its Android class
    /// name, or any name a config uses); a later registration of a name replaces the earlier one.
    public mutating func registerSyncDown(_ names: [String], _ make: @escaping SyncDownFactory) {
        for name in names { syncDown[name] = make }
    }

    /// Registers a sync up plug-in under each of `names`.
    public mutating func registerSyncUp(_ names: [String], _ make: @escaping SyncUpFactory) {
        for name in names { syncUp[name] = make }
    }

    /// Whether no plug-in is registered.
    public var isEmpty: Bool { syncDown.isEmpty && syncUp.isEmpty }

    /// The names the config loader accepts, by direction.
    public var implRegistry: TargetImplRegistry {
        TargetImplRegistry(customSyncDownImplNames: Set(syncDown.keys), customSyncUpImplNames: Set(syncUp.keys))
    }

    /// The sync down plug-in for `definition`, whose target is `target`.
    ///
    /// - Throws: `SyncEngineError` `.notSupported` naming the missing plug-in; `.invalidTarget`
    ///   when the factory refuses the definition.
    func syncDownPlugin(for definition: SyncDefinition, target: SyncConfig.CustomSyncDownTarget) throws
        -> (plugin: any SyncDownTargetPlugin, definition: CustomTargetDefinition)
    {
        try plugin(from: syncDown, .syncDown, for: definition, implName: target.implName, target: target)
    }

    /// The sync up plug-in for `definition`, whose target is `target`, with the id and
    /// modification date fields it uses (the plug-in's own, else the config's).
    ///
    /// - Throws: as ``syncDownPlugin(for:target:)``.
    func syncUpPlugin(for definition: SyncDefinition, target: SyncUpTarget, implName name: String) throws
        -> (plugin: any SyncUpTargetPlugin, definition: CustomTargetDefinition)
    {
        let made = try plugin(from: syncUp, .syncUp, for: definition, implName: name, target: target)
        let custom = made.definition
        return (
            made.plugin,
            CustomTargetDefinition(
                sync: custom.sync,
                implName: custom.implName,
                idFieldName: made.plugin.idFieldName ?? custom.idFieldName,
                modificationDateFieldName: made.plugin.modificationDateFieldName ?? custom.modificationDateFieldName,
                keys: custom.keys
            )
        )
    }

    /// The logger a plug-in gets in its ``CustomTargetContext``: the engine's, with the metadata
    /// `plugin: <implName>`; nothing is logged when no engine gave one (a plug-in made outside a run).
    func pluginLogger(implName: String) -> Logger {
        var logger = engineLogger ?? Logger(label: "syncrun.plugin", factory: { _ in SwiftLogNoOpLogHandler() })
        logger[metadataKey: "plugin"] = .string(implName)
        return logger
    }

    /// The plug-in `factories` holds for `implName`, made for `definition` with `target`'s fields
    /// and keys.
    ///
    /// - Throws: as ``syncDownPlugin(for:target:)``.
    private func plugin<Plugin>(
        from factories: [String: @Sendable (CustomTargetDefinition) throws -> Plugin],
        _ direction: SyncType,
        for definition: SyncDefinition,
        implName name: String,
        target: some CustomTargetKeys
    ) throws -> (plugin: Plugin, definition: CustomTargetDefinition) {
        guard let make = factories[name] else {
            let other = direction == .syncDown ? syncUp[name] != nil : syncDown[name] != nil
            throw SyncEngineError.missingPlugin(definition.name, implName: name, direction: direction, other: other)
        }
        let custom = CustomTargetDefinition(
            sync: definition,
            implName: name,
            idFieldName: target.idFieldName,
            modificationDateFieldName: target.modificationDateFieldName,
            keys: target.extraKeys
        )
        do {
            return (try make(custom), custom)
        } catch let error as SyncEngineError {
            throw error
        } catch {
            throw SyncEngineError.invalidTarget(definition.name, "the plug-in '\(name)' refused this sync: \(error)")
        }
    }
}

/// What a config's custom target hands its plug-in: the id and modification date fields, and the
/// keys that belong to the plug-in.
protocol CustomTargetKeys {
    var idFieldName: String { get }
    var modificationDateFieldName: String { get }
    var extraKeys: [String: JSONValue] { get }
}

extension SyncConfig.CustomSyncDownTarget: CustomTargetKeys {}
extension SyncUpTarget: CustomTargetKeys {}
