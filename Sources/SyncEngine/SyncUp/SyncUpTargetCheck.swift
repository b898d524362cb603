import Logging
import OrgClient
import SoupStore
import SyncConfig

/// A sync up as it will run: its target (with a plug-in's own id and modification date fields),
/// its request plan, and a custom target's plug-in, made once by ``SyncUpTargetCheck``.
struct SyncUpSetup {
    var target: SyncUpTarget
    var plan: SyncUpRequestPlan
    var plugin: (plugin: any SyncUpTargetPlugin, definition: CustomTargetDefinition, logger: Logger)?

    /// The sender of the plug-in, when the target is a custom one.
    func customSender(org: any OrgClient) -> CustomSyncUpSender? {
        plugin.map {
            CustomSyncUpSender(plugin: $0.plugin, definition: $0.definition, plan: plan, org: org, logger: $0.logger)
        }
    }
}

/// Checks that a sync up definition can run and derives its request plan: the kind is
/// supported, both field lists are known (§7.3), and the soup exists.
enum SyncUpTargetCheck {
    /// - Throws: `SyncEngineError` `.wrongType`, `.notSupported` (custom),
    ///   `.invalidTarget` (no field list, no soup), `.store`.
    static func plan(
        for definition: SyncDefinition,
        store: SoupStore,
        plugins: CustomTargets = CustomTargets()
    ) throws -> SyncUpSetup {
        let setup = try plan(for: definition, plugins: plugins)
        try requireSoup(definition.soupName, of: definition, store: store)
        if let info = setup.target.parentChildren {
            try requireSoup(info.children.soupName, of: definition, store: store)
        }
        return setup
    }

    /// The checks and plan of ``plan(for:store:)`` that need no store (the dry run takes a soup
    /// not registered yet as empty).
    ///
    /// A custom target's plug-in must be in `plugins`; it is made here (once per run), the id and
    /// modification date fields it fixes replace the config's, and its field lists may be absent
    /// (the plug-in gets the record's whole document too).
    ///
    /// - Throws: `SyncEngineError` `.wrongType`, `.notSupported`, `.invalidTarget` (no field list).
    static func plan(
        for definition: SyncDefinition,
        plugins: CustomTargets = CustomTargets()
    ) throws -> SyncUpSetup {
        guard case .up(var target) = definition.target else { throw SyncEngineError.notSyncUp(definition.name) }
        var customFields: [String]?
        var plugin: (plugin: any SyncUpTargetPlugin, definition: CustomTargetDefinition, logger: Logger)?
        switch target.kind {
        case .collection, .single, .batch: break
        case .parentChildren:
            guard target.parentChildren != nil else {
                throw SyncEngineError.invalidTarget(
                    definition.name,
                    "a parent_children target needs its 'parent' and 'children' keys"
                )
            }
        case .endpoint:
            guard target.endpoint != nil else {
                throw SyncEngineError.invalidTarget(
                    definition.name,
                    "an endpoint target needs its 'create', 'update' and 'delete' keys"
                )
            }
        case .custom(let implName):
            let made = try plugins.syncUpPlugin(for: definition, target: target, implName: implName)
            target.idFieldName = made.definition.idFieldName
            target.modificationDateFieldName = made.definition.modificationDateFieldName
            plugin = (made.plugin, made.definition, plugins.pluginLogger(implName: implName))
            customFields = []
        }
        // An endpoint request with its own body template needs no field list.
        let createTemplate: [String]? = target.endpoint?.create.request.body != nil ? [] : customFields
        let updateTemplate: [String]? = target.endpoint?.update.body != nil ? [] : customFields
        guard let createFields = target.createFieldlist ?? definition.options.fieldlist ?? createTemplate else {
            throw SyncEngineError.noFieldList(definition.name, operation: "create", key: "createFieldlist")
        }
        guard let updateFields = target.updateFieldlist ?? definition.options.fieldlist ?? updateTemplate else {
            throw SyncEngineError.noFieldList(definition.name, operation: "update", key: "updateFieldlist")
        }
        let plan = SyncUpRequestPlan(
            createFields: createFields,
            updateFields: updateFields,
            externalIDField: target.externalIdFieldName,
            isOverwrite: definition.options.mergeMode == .overwrite,
            idFieldName: target.idFieldName,
            modificationDateFieldName: target.modificationDateFieldName
        )
        return SyncUpSetup(target: target, plan: plan, plugin: plugin)
    }

    private static func requireSoup(_ soup: String, of definition: SyncDefinition, store: SoupStore) throws {
        do {
            guard try store.read({ try $0.hasSoup(soup) }) else {
                throw SyncEngineError.missingSoup(definition.name, soup: soup)
            }
        } catch let error as SoupStoreError {
            throw SyncEngineError.store(definition.name, error)
        }
    }
}
