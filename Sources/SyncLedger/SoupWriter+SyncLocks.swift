import GRDB
import SoupStore

/// Who is running a sync (or cleaning its ghosts) right now: one row per sync in
/// `syncrun_sync_locks`, taken and released by the sync engine inside `writeImmediately`.
///
/// The store only keeps the rows; deciding whether the owner is still alive (and so whether a
/// `RUNNING` state was left by a killed process) is the engine's job.
public struct SyncLock: Sendable, Hashable {
    /// The sync's id.
    public var syncID: Int64
    /// The owning process's id.
    public var processID: Int32
    /// The owning machine's host name.
    public var hostName: String
    /// A value unique to the run holding the lock, so only that run releases it.
    public var token: String
    /// What the owner is doing (`syncDown`, `cleanGhosts`).
    public var operation: String
    /// When the lock was taken, in ms since the epoch.
    public var claimedAt: Int64

    /// Creates a lock value.
    public init(syncID: Int64, processID: Int32, hostName: String, token: String, operation: String, claimedAt: Int64) {
        self.syncID = syncID
        self.processID = processID
        self.hostName = hostName
        self.token = token
        self.operation = operation
        self.claimedAt = claimedAt
    }
}

enum SyncLocksTable {
    static let name = "syncrun_sync_locks"

    static func fetch(_ db: Database, condition: String, arguments: StatementArguments) throws -> [SyncLock] {
        guard try db.tableExists(name) else { return [] }
        return try Row.fetchAll(
            db,
            sql:
                "SELECT sync_id, pid, host, token, operation, claimed_at FROM \(name) WHERE \(condition) ORDER BY sync_id",
            arguments: arguments
        ).map { row in
            SyncLock(
                syncID: row[0],
                processID: row[1],
                hostName: row[2],
                token: row[3],
                operation: row[4],
                claimedAt: row[5]
            )
        }
    }
}

extension SoupReader {
    /// The lock on sync `syncID`, or `nil` when nobody holds one.
    public func syncLock(syncID: Int64) throws -> SyncLock? {
        try SyncLocksTable.fetch(db, condition: "sync_id = ?", arguments: [syncID]).first
    }

    /// Every lock held, by sync id.
    public func syncLocks() throws -> [SyncLock] {
        try SyncLocksTable.fetch(db, condition: "1", arguments: [])
    }
}

extension SoupWriter {
    /// Takes (or takes over) the lock on `lock.syncID`. Check the current holder first, in the
    /// same `writeImmediately` transaction.
    public func acquireSyncLock(_ lock: SyncLock) throws {
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO \(SyncLocksTable.name) (sync_id, pid, host, token, operation, claimed_at) \
                VALUES (?, ?, ?, ?, ?, ?)
                """,
            arguments: [lock.syncID, lock.processID, lock.hostName, lock.token, lock.operation, lock.claimedAt]
        )
    }

    /// Releases the lock on `syncID` when `token` still holds it; returns whether it did.
    @discardableResult
    public func releaseSyncLock(syncID: Int64, token: String) throws -> Bool {
        guard try db.tableExists(SyncLocksTable.name) else { return false }
        try db.execute(
            sql: "DELETE FROM \(SyncLocksTable.name) WHERE sync_id = ? AND token = ?",
            arguments: [syncID, token]
        )
        return db.changesCount > 0
    }

    /// Removes the lock on `syncID` whoever holds it (its owner is known to be gone).
    public func breakSyncLock(syncID: Int64) throws {
        guard try db.tableExists(SyncLocksTable.name) else { return }
        try db.execute(sql: "DELETE FROM \(SyncLocksTable.name) WHERE sync_id = ?", arguments: [syncID])
    }
}
