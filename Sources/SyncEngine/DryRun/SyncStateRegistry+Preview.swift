import SoupStore
import SyncConfig
import SyncLedger

extension SyncStateRegistry {
    /// The stored state a run of `definition` would start from, checked as ``prepare(_:replace:)``
    /// and ``claim(id:name:operation:start:)`` check it, in one read transaction: nothing is
    /// created, replaced or locked.
    ///
    /// - Parameter replace: As in `prepare`: a stored definition that differs is taken as
    ///   recreated (no watermark), keeping its id, as the records it fetched move to the new one.
    /// - Returns: The state, or `nil` for a sync that never ran.
    /// - Throws: `SyncEngineError` `.definitionChanged` (without `replace`), `.alreadyRunning`
    ///   when a live run holds the sync, `.store`.
    func previewState(_ definition: SyncDefinition, replace: Bool) throws -> StoredSyncState? {
        let read: (state: StoredSyncState, lock: SyncLock?)?
        do {
            read = try store.read { reader in
                try reader.syncState(named: definition.name).map { ($0, try reader.syncLock(syncID: $0.id)) }
            }
        } catch {
            throw SyncEngineError.wrapping(error, syncName: definition.name)
        }
        guard let (stored, lock) = read else { return nil }
        var state = stored
        let drift = DefinitionDrift.differences(stored: stored, config: definition)
        if !drift.isEmpty {
            guard replace else { throw SyncEngineError.definitionChanged(definition.name, keys: drift) }
            state.maxTimeStamp = -1
        }
        if let lock, policy.isAlive(lock) { throw SyncEngineError.alreadyRunning(definition.name, lock: lock) }
        return state
    }
}
