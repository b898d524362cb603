import SoupStore
import SyncConfig

/// Turns a sync down definition into the fetcher that runs it, after checking it can run: the
/// kind is supported, the query parses, the soup exists and indexes the id field.
enum DownTargetFactory {
    /// - Throws: `SyncEngineError` `.wrongType`, `.notSupported` (briefcase, layout, metadata,
    ///   custom), `.invalidTarget`.
    static func makeFetcher(for definition: SyncDefinition) throws -> any DownTargetFetcher {
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
                syncName: definition.name, target: tree, mergeMode: definition.options.storeMergeMode)
        case .briefcase, .layout, .metadata, .custom:
            throw SyncEngineError.notSupported(definition.name, kind: target.kind.rawValue)
        }
    }

    /// Checks that the fetcher's soup exists and indexes its id field (sync down upserts by it).
    static func checkSoup(of fetcher: any DownTargetFetcher, syncName: String, store: SoupStore) throws {
        let soup = fetcher.soupName
        let specs: [IndexSpec]
        do {
            guard try store.read({ try $0.hasSoup(soup) }) else {
                throw SyncEngineError.invalidTarget(
                    syncName,
                    "soup '\(soup)' does not exist in the store; declare it in the store config (userstore) "
                        + "with an index on '\(fetcher.idFieldName)'")
            }
            specs = try store.read { try $0.indexSpecs(of: soup) }
        } catch let error as SoupStoreError {
            throw SyncEngineError.store(syncName, error)
        }
        guard specs.contains(where: { $0.path == fetcher.idFieldName }) else {
            throw SyncEngineError.invalidTarget(
                syncName,
                "soup '\(soup)' has no index on '\(fetcher.idFieldName)', which sync down needs to match records; "
                    + "add {\"path\": \"\(fetcher.idFieldName)\", \"type\": \"string\"} to its indexes")
        }
        if let tree = fetcher as? ParentChildrenDownFetcher { try tree.checkChildSoup(store: store) }
    }
}
