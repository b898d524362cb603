import Logging
import SoupStore
import SyncConfig
import SyncLedger

/// Sync states in `syncs_soup` and the locks beside them: creating a named sync on first use,
/// reporting drift from the config, `--replace`, claiming a sync for one run, and turning the
/// `RUNNING` states of killed processes into `STOPPED`.
///
/// Claims run in `BEGIN IMMEDIATE` transactions, so two processes never both see a sync idle.
struct SyncStateRegistry: Sendable {
    let store: SoupStore
    let policy: SyncLockPolicy
    let logger: Logger

    var now: Int64 { policy.configuration.now() }

    /// The state of `definition`, created (`NEW`) when the store has none.
    ///
    /// - Throws: `SyncEngineError` `.definitionChanged` when the stored definition differs and
    ///   `replace` is false; `.alreadyRunning` when replacing a sync that runs.
    func prepare(_ definition: SyncDefinition, replace: Bool) throws -> StoredSyncState {
        let target = definition.normalizedTargetJSON.jsonText()
        let options = definition.normalizedOptionsJSON.jsonText()
        let kind: StoredSyncState.Kind = definition.type == .syncDown ? .syncDown : .syncUp
        return try store.writeImmediately { writer in
            try writer.ensureSyncsSoup()
            guard let existing = try writer.reader.syncState(named: definition.name) else {
                return try writer.createSyncState(
                    kind: kind,
                    name: definition.name,
                    targetJSON: target,
                    optionsJSON: options,
                    soupName: definition.soupName
                )
            }
            let drift = DefinitionDrift.differences(stored: existing, config: definition)
            guard !drift.isEmpty else { return existing }
            guard replace else { throw SyncEngineError.definitionChanged(definition.name, keys: drift) }
            if let lock = try writer.reader.syncLock(syncID: existing.id), policy.isAlive(lock) {
                throw SyncEngineError.alreadyRunning(definition.name, lock: lock)
            }
            try writer.breakSyncLock(syncID: existing.id)
            try writer.deleteSyncState(id: existing.id)
            let created = try writer.createSyncState(
                kind: kind,
                name: definition.name,
                targetJSON: target,
                optionsJSON: options,
                soupName: definition.soupName
            )
            try writer.transferRecordSyncs(from: existing.id, to: created.id)
            logger.debug(
                "Replaced sync definition",
                metadata: [
                    "sync.name": "\(definition.name)", "sync.id": "\(created.id)", "sync.previousID": "\(existing.id)",
                ]
            )
            return created
        }
    }

    /// Takes the lock on sync `id` for `operation` and, for a sync down, saves `start(state)`
    /// (the `RUNNING` state) in the same transaction.
    ///
    /// - Throws: `SyncEngineError` `.alreadyRunning` when a live run holds the sync,
    ///   `.unknownSync` when it vanished.
    func claim(
        id: Int64,
        name: String,
        operation: SyncOperation,
        start: (StoredSyncState) -> StoredSyncState?
    ) throws -> (state: StoredSyncState, lock: SyncLock) {
        let lock = policy.makeLock(syncID: id, operation: operation)
        return try store.writeImmediately { writer in
            guard let current = try writer.reader.syncState(id: id) else { throw SyncEngineError.unknownSync(id: id) }
            if let held = try writer.reader.syncLock(syncID: id), policy.isAlive(held) {
                throw SyncEngineError.alreadyRunning(name, lock: held)
            }
            try writer.acquireSyncLock(lock)
            guard let started = start(current) else { return (current, lock) }
            return (try writer.updateSyncState(started), lock)
        }
    }

    /// Saves `final` (when given) and releases `lock`, in one transaction.
    func release(_ lock: SyncLock, saving final: StoredSyncState?) async throws {
        try await store.write { writer in
            if let final { try writer.updateSyncState(final) }
            try writer.releaseSyncLock(syncID: lock.syncID, token: lock.token)
        }
    }

    /// Marks `STOPPED` every `RUNNING` sync whose run is gone (no lock, or a lock whose process
    /// no longer exists), and drops locks of dead processes. Returns the states it stopped.
    func recoverInterruptedRuns() throws -> [StoredSyncState] {
        let time = now
        return try store.writeImmediately { writer in
            guard try writer.reader.hasSoup(StoredSyncState.soupName) else { return [] }
            var recovered: [StoredSyncState] = []
            for state in try writer.reader.syncStates() where state.status == .running {
                if let lock = try writer.reader.syncLock(syncID: state.id), policy.isAlive(lock) { continue }
                var stopped = state
                stopped.status = .stopped
                stopped.endTime = time
                recovered.append(try writer.updateSyncState(stopped))
                try writer.breakSyncLock(syncID: state.id)
            }
            for lock in try writer.reader.syncLocks() where !policy.isAlive(lock) {
                try writer.breakSyncLock(syncID: lock.syncID)
                try writer.abandonGhostScan(syncID: lock.syncID)
            }
            return recovered
        }
    }
}
