import OrgClient
import SoupStore
import SyncConfig

/// What differs between a stored sync state's definition and the config's (§1.3, §11 item 23).
enum DefinitionDrift {
    /// The keys that differ, as `soupName`, `target.query`, `options.mergeMode`…; empty when the
    /// definitions agree.
    static func differences(stored: StoredSyncState, config definition: SyncDefinition) -> [String] {
        var keys: [String] = []
        if stored.kind.rawValue != definition.type.rawValue { keys.append("type") }
        if stored.soupName != definition.soupName { keys.append("soupName") }
        keys += differences(
            prefix: "target",
            stored: stored.targetJSON,
            config: definition.normalizedTargetJSON.jsonText()
        )
        keys += differences(
            prefix: "options",
            stored: stored.optionsJSON,
            config: definition.normalizedOptionsJSON.jsonText()
        ).filter { !tuningKeys.contains($0) }
        return keys.sorted()
    }

    /// Keys that change how fast a sync runs, not what it does: changing them is no drift.
    static let tuningKeys: Set<String> = [
        "options.maxConcurrentRequests", "options.minApiShare", "options.stopApiShare",
    ]

    private static func differences(prefix: String, stored: String, config: String) -> [String] {
        guard let storedValue = try? OrgValue(parsing: stored), let configValue = try? OrgValue(parsing: config) else {
            return [prefix]
        }
        guard let storedObject = storedValue.objectValue, let configObject = configValue.objectValue else {
            return storedValue == configValue ? [] : [prefix]
        }
        let keys = Set(storedObject.keys).union(configObject.keys)
        return keys.filter { storedObject[$0] != configObject[$0] }.sorted().map { "\(prefix).\($0)" }
    }
}
