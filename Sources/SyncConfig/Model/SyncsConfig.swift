/// A syncs config (`usersyncs` / `globalsyncs`): named sync definitions.
///
/// Keys:
/// - `syncs` (array of sync objects, required): see ``SyncDefinition``.
public struct SyncsConfig: Sendable, Hashable {
    /// The syncs, in file order. Entries that could not be decoded are left out (the loader
    /// reports them as diagnostics).
    public var syncs: [SyncDefinition]

    /// Creates a syncs config.
    public init(syncs: [SyncDefinition]) {
        self.syncs = syncs
    }

    /// The sync named `name`.
    public func sync(named name: String) -> SyncDefinition? {
        syncs.first { $0.name == name }
    }
}

/// The direction of a sync, from `syncType`, compared exactly (case-sensitive).
public enum SyncType: String, Sendable, Hashable, CaseIterable {
    /// Server to soup (`"syncDown"`).
    case syncDown
    /// Soup to server (`"syncUp"`).
    case syncUp
}
