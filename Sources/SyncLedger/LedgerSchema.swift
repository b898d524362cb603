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
/// `ledger-1` adopts files written before syncrun versioned its tables (up to commit a4b5152),
/// which created them on first use: it creates each one only when missing.
public enum LedgerSchema {
    /// The ledger's steps, applied after the store's own.
    public static let migrations = VersionedDatabase([
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
        }
    ])
}

extension SoupStore {
    /// Opens (creating when missing) the store at `path` with the ledger's tables, upgrading a
    /// file written by an older syncrun and refusing one written by a newer one.
    ///
    /// - Throws: `SoupStoreError` as ``SoupStore/init(path:logger:migrations:)``.
    public static func ledger(path: String, logger: Logger? = nil) throws -> SoupStore {
        try SoupStore(path: path, logger: logger, migrations: LedgerSchema.migrations)
    }

    /// Opens the existing store at `path` for reading only, with the ledger's steps known (a file
    /// written by a newer syncrun is refused; an older one is read without being upgraded).
    ///
    /// - Throws: `SoupStoreError` as ``SoupStore/openReadOnly(path:logger:migrations:)``.
    public static func ledgerReadOnly(path: String, logger: Logger? = nil) throws -> SoupStore {
        try SoupStore.openReadOnly(path: path, logger: logger, migrations: LedgerSchema.migrations)
    }
}
