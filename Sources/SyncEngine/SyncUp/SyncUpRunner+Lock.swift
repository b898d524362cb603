import Foundation
import SoupStore
import SyncLedger

extension SyncUpRunner {
    /// Takes the sync's lock (operation `syncUp`) and saves the `RUNNING` state in one
    /// `BEGIN IMMEDIATE` transaction.
    func claim(
        state: StoredSyncState,
        name: String,
        start: (StoredSyncState) -> StoredSyncState
    ) throws -> (StoredSyncState, SyncLock) {
        let configuration = registry.policy.configuration
        let lock = SyncLock(
            syncID: state.id,
            processID: configuration.processID,
            hostName: configuration.hostName,
            token: UUID().uuidString,
            operation: "syncUp",
            claimedAt: configuration.now()
        )
        do {
            return try store.writeImmediately { writer in
                guard let current = try writer.reader.syncState(id: state.id) else {
                    throw SyncEngineError.unknownSync(id: state.id)
                }
                if let held = try writer.reader.syncLock(syncID: state.id), registry.policy.isAlive(held) {
                    throw SyncEngineError.alreadyRunning(name, lock: held)
                }
                try writer.acquireSyncLock(lock)
                return (try writer.updateSyncState(start(current)), lock)
            }
        } catch {
            throw SyncEngineError.wrapping(error, syncName: name)
        }
    }
}
