import FileSchema
import GRDB

/// The schema steps of the tables the store itself fills beside SmartStore's.
///
/// SmartStore's own tables (`soup_attrs`, `soup_index_map`, `TABLE_N`, `syncs_soup`) follow the
/// Mobile SDK's format and its `PRAGMA user_version`. Every other table of a store file is
/// syncrun's and is created and upgraded only by one `VersionedDatabase` (FileSchema): these
/// steps, then those of the layer that opens the store (the sync ledger's,
/// ``SoupStore/init(path:logger:migrations:)``).
///
/// `store-1` adopts files written before syncrun versioned its tables (up to commit a4b5152),
/// which created these tables on first use: it creates each one only when missing.
enum StoreMigrations {
    static let steps = VersionedDatabase([
        .init("store-1-record-syncs-bulk-loads-org-binding") { db in
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS \(RecordSyncsTable.name) (soup_name TEXT NOT NULL, \
                    record_id TEXT NOT NULL, sync_id INTEGER NOT NULL, \
                    PRIMARY KEY (soup_name, record_id, sync_id)) WITHOUT ROWID;
                    CREATE INDEX IF NOT EXISTS \(RecordSyncsTable.name)_by_sync \
                    ON \(RecordSyncsTable.name) (sync_id, soup_name);
                    CREATE TABLE IF NOT EXISTS \(BulkLoadTables.loads) (soup_name TEXT PRIMARY KEY NOT NULL, \
                    sync_id INTEGER NOT NULL, key_path TEXT NOT NULL, leave_if_changed INTEGER NOT NULL, \
                    pid INTEGER NOT NULL, host TEXT NOT NULL);
                    CREATE TABLE IF NOT EXISTS \(BulkLoadTables.pending) (soup_name TEXT NOT NULL, \
                    record_id TEXT NOT NULL, sync_id INTEGER NOT NULL);
                    CREATE TABLE IF NOT EXISTS syncrun_org_binding (id INTEGER PRIMARY KEY CHECK (id = 1), \
                    org_id TEXT NOT NULL, user_id TEXT NOT NULL, org_name TEXT NOT NULL, \
                    instance_url TEXT NOT NULL, bound_at INTEGER NOT NULL);
                    """
            )
        }
    ])
}
