import FileSchema
import GRDB
import Logging
import SoupStore

/// The sync ledger's tables in a store file, created and upgraded by the store's one migrator.
///
/// Open every store a sync writes with these steps (``SoupStore/ledger(path:logger:)``): the
/// ledger's writers rely on its tables existing. The steps are named and ordered; a shipped step
/// is never edited or renamed, a change is a new step appended to ``migrations``.
///
/// `store-1` and `ledger-1` adopt files written before syncrun versioned its tables (up to commit
/// a4b5152), which created them on first use: they create each one only when missing. `store-1`
/// keeps the name it shipped with (files record it), from when the store module created the
/// record-syncs, bulk-load and org-binding tables; they are the ledger's now. Its SQL spells the
/// table names out, as a shipped step must never change with a renamed constant.
public enum LedgerSchema {
    /// The ledger's steps, in order.
    public static let migrations = VersionedDatabase([
        .init("store-1-record-syncs-bulk-loads-org-binding") { db in
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS syncrun_record_syncs (soup_name TEXT NOT NULL, \
                    record_id TEXT NOT NULL, sync_id INTEGER NOT NULL, \
                    PRIMARY KEY (soup_name, record_id, sync_id)) WITHOUT ROWID;
                    CREATE INDEX IF NOT EXISTS syncrun_record_syncs_by_sync \
                    ON syncrun_record_syncs (sync_id, soup_name);
                    CREATE TABLE IF NOT EXISTS syncrun_bulk_loads (soup_name TEXT PRIMARY KEY NOT NULL, \
                    sync_id INTEGER NOT NULL, key_path TEXT NOT NULL, leave_if_changed INTEGER NOT NULL, \
                    pid INTEGER NOT NULL, host TEXT NOT NULL);
                    CREATE TABLE IF NOT EXISTS syncrun_pending_record_syncs (soup_name TEXT NOT NULL, \
                    record_id TEXT NOT NULL, sync_id INTEGER NOT NULL);
                    CREATE TABLE IF NOT EXISTS syncrun_org_binding (id INTEGER PRIMARY KEY CHECK (id = 1), \
                    org_id TEXT NOT NULL, user_id TEXT NOT NULL, org_name TEXT NOT NULL, \
                    instance_url TEXT NOT NULL, bound_at INTEGER NOT NULL);
                    """
            )
        },
        .init("ledger-1-ghost-scans-locks-plan-journal-bulk-jobs") { db in
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS \(GhostScanTable.name) (sync_id INTEGER NOT NULL, \
                    record_id TEXT NOT NULL, PRIMARY KEY (sync_id, record_id)) WITHOUT ROWID;
                    CREATE TABLE IF NOT EXISTS \(GhostCheckTable.name) (sync_id INTEGER NOT NULL, \
                    record_id TEXT NOT NULL, present INTEGER NOT NULL, PRIMARY KEY (sync_id, record_id)) WITHOUT ROWID;
                    CREATE TABLE IF NOT EXISTS \(SyncLocksTable.name) (sync_id INTEGER PRIMARY KEY, \
                    pid INTEGER NOT NULL, host TEXT NOT NULL, token TEXT NOT NULL, operation TEXT NOT NULL, \
                    claimed_at INTEGER NOT NULL);
                    CREATE TABLE IF NOT EXISTS \(PlanJournalTable.name) (step_id TEXT PRIMARY KEY, \
                    position INTEGER NOT NULL, status TEXT NOT NULL, updated_at INTEGER NOT NULL);
                    CREATE TABLE IF NOT EXISTS \(BulkJobJournalTable.name) (sync_id INTEGER PRIMARY KEY, \
                    job_id TEXT NOT NULL, query TEXT NOT NULL, api_version TEXT NOT NULL, since INTEGER NOT NULL, \
                    locator TEXT, created_at INTEGER NOT NULL);
                    """
            )
        },
        // The binding check asks the org who a token belongs to once per token and instance.
        .init("ledger-2-org-binding-credential") { db in
            try db.execute(sql: "ALTER TABLE syncrun_org_binding ADD COLUMN credential_digest TEXT")
        },
        // `syncrun watch`: each watched sync's last applied Pub/Sub replay id (SoupWriter+WatchPositions.swift).
        .init("ledger-3-watch-positions") { db in
            try db.execute(
                sql: """
                    CREATE TABLE syncrun_watch_positions (sync_id INTEGER PRIMARY KEY, topic TEXT NOT NULL, \
                    replay_id BLOB NOT NULL, applied_at INTEGER NOT NULL)
                    """
            )
        },
    ])
}

extension SoupStore {
    /// Opens (creating when missing) the store at `path` with the ledger's tables, upgrading a
    /// file written by an older syncrun and refusing one written by a newer one.
    ///
    /// - Throws: `SoupStoreError` as ``SoupStore/init(path:logger:migrations:)``.
    public static func ledger(path: String, logger: Logger? = nil) throws -> SoupStore {
        let store = try SoupStore(path: path, logger: logger, migrations: LedgerSchema.migrations)
        try store.finishAbandonedBulkLoads()
        return store
    }

    /// Opens the existing store at `path` for reading only, with the ledger's steps known (a file
    /// written by a newer syncrun is refused; an older one is read without being upgraded).
    ///
    /// - Throws: `SoupStoreError` as ``SoupStore/openReadOnly(path:logger:migrations:)``.
    public static func ledgerReadOnly(path: String, logger: Logger? = nil) throws -> SoupStore {
        try SoupStore.openReadOnly(path: path, logger: logger, migrations: LedgerSchema.migrations)
    }
}
