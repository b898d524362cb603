import SoupStore
import SyncConfig

/// Checks that a sync up definition can run and derives its request plan: the kind is
/// supported, both field lists are known (§7.3), and the soup exists.
enum SyncUpTargetCheck {
    /// - Throws: `SyncEngineError` `.wrongType`, `.notSupported` (custom),
    ///   `.invalidTarget` (no field list, no soup), `.store`.
    static func plan(for definition: SyncDefinition, store: SoupStore) throws -> (SyncUpTarget, SyncUpRequestPlan) {
        guard case .up(let target) = definition.target else { throw SyncEngineError.notSyncUp(definition.name) }
        switch target.kind {
        case .collection, .single, .batch: break
        case .parentChildren:
            guard let info = target.parentChildren else {
                throw SyncEngineError.syncUpNotSupported(definition.name, kind: "parent_children")
            }
            try requireSoup(info.children.soupName, of: definition, store: store)
        case .custom:
            throw SyncEngineError.syncUpNotSupported(definition.name, kind: target.kind.productTypeName ?? "custom")
        }
        guard let createFields = target.createFieldlist ?? definition.options.fieldlist else {
            throw SyncEngineError.noFieldList(definition.name, operation: "create", key: "createFieldlist")
        }
        guard let updateFields = target.updateFieldlist ?? definition.options.fieldlist else {
            throw SyncEngineError.noFieldList(definition.name, operation: "update", key: "updateFieldlist")
        }
        try requireSoup(definition.soupName, of: definition, store: store)
        let plan = SyncUpRequestPlan(
            createFields: createFields,
            updateFields: updateFields,
            externalIDField: target.externalIdFieldName,
            isOverwrite: definition.options.mergeMode == .overwrite,
            idFieldName: target.idFieldName,
            modificationDateFieldName: target.modificationDateFieldName
        )
        return (target, plan)
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
