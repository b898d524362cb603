import SoupStore
import SyncConfig

/// Turns a sync down definition into the fetcher that runs it, after checking it can run: the
/// kind is supported, the query parses, the soup exists and indexes the id field.
enum DownTargetFactory {
    /// - Throws: `SyncEngineError` `.wrongType`, `.notSupported` (a custom target whose plug-in
    ///   `plugins` lacks), `.invalidTarget`.
    static func makeFetcher(for definition: SyncDefinition, plugins: CustomTargets) throws -> any DownTargetFetcher {
        guard case .down(let target) = definition.target else {
            throw SyncEngineError.wrongType(definition.name, expected: "sync down")
        }
        switch target {
        case .soql(let soql):
            return try SOQLDownFetcher(syncName: definition.name, soupName: definition.soupName, target: soql)
        case .sosl(let sosl):
            return SOSLDownFetcher(soupName: definition.soupName, target: sosl)
        case .mru(let mru):
            return MRUDownFetcher(soupName: definition.soupName, target: mru)
        case .refresh(let refresh):
            return RefreshDownFetcher(soupName: definition.soupName, target: refresh)
        case .parentChildren(let tree):
            return try ParentChildrenDownFetcher(
                syncName: definition.name,
                target: tree,
                localEntries: definition.options.mergeMode.localEntries
            )
        case .briefcase(let briefcase):
            return try BriefcaseDownFetcher(syncName: definition.name, soupName: definition.soupName, target: briefcase)
        case .metadata(let metadata):
            return MetadataDownFetcher(syncName: definition.name, soupName: definition.soupName, target: metadata)
        case .endpoint(let endpoint):
            return EndpointDownFetcher(syncName: definition.name, soupName: definition.soupName, target: endpoint)
        case .layout(let layout):
            return LayoutDownFetcher(syncName: definition.name, soupName: definition.soupName, target: layout)
        case .custom(let custom):
            let (plugin, pluginDefinition) = try plugins.syncDownPlugin(for: definition, target: custom)
            return CustomDownFetcher(
                syncName: definition.name,
                soupName: definition.soupName,
                plugin: plugin,
                definition: pluginDefinition,
                logger: plugins.pluginLogger(implName: pluginDefinition.implName)
            )
        }
    }

    /// Checks that every soup the fetcher saves into exists and indexes its id field (sync down
    /// upserts by it).
    static func checkSoup(of fetcher: any DownTargetFetcher, syncName: String, store: SoupStore) throws {
        for destination in fetcher.destinations {
            try checkSoup(destination.soupName, idField: destination.idFieldName, syncName: syncName, store: store)
        }
        if let tree = fetcher as? ParentChildrenDownFetcher { try tree.checkChildSoup(store: store) }
    }

    private static func checkSoup(_ soup: String, idField: String, syncName: String, store: SoupStore) throws {
        let specs: [IndexSpec]
        do {
            guard try store.read({ try $0.hasSoup(soup) }) else {
                throw SyncEngineError.invalidTarget(
                    syncName,
                    "soup '\(soup)' does not exist in the store; declare it in the store config (userstore) "
                        + "with an index on '\(idField)'"
                )
            }
            specs = try store.read { try $0.indexSpecs(of: soup) }
        } catch let error as SoupStoreError {
            throw SyncEngineError.store(syncName, error)
        }
        guard specs.contains(where: { $0.path == idField }) else {
            throw SyncEngineError.invalidTarget(
                syncName,
                "soup '\(soup)' has no index on '\(idField)', which sync down needs to match records; "
                    + "add {\"path\": \"\(idField)\", \"type\": \"string\"} to its indexes"
            )
        }
    }
}
