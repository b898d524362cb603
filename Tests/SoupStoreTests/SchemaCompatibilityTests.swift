import Foundation
import SoupStore
import SyncrunTestSupport
import Testing

/// The file layout against store.md §2, checked with the system `sqlite3`, both ways.
struct SchemaCompatibilityTests {
    @Test func writtenStoreHasSmartStoreLayout() throws {
        let temporary = try TestFixtures.store([TestFixtures.contacts, TestFixtures.accounts])
        defer { temporary.remove() }
        let path = temporary.path
        #expect(
            try SystemSQLite.lines(
                path,
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'TABLE_%' ORDER BY name"
            )
                == [
                    // SmartStore's bookkeeping, then syncrun's versioned tables (SmartStore ignores them).
                    "grdb_migrations", "long_operations_status", "soup_attrs", "soup_index_map", "sqlite_sequence",
                    "syncrun_bulk_loads", "syncrun_ghost_check", "syncrun_ghost_scan", "syncrun_org_binding",
                    "syncrun_pending_record_syncs", "syncrun_plan_journal", "syncrun_record_syncs",
                    "syncrun_sync_locks", "syncrun_bulk_jobs", "syncrun_watch_positions",
                ].sorted()
        )
        #expect(
            try SystemSQLite.lines(path, "SELECT id || ':' || soupName FROM soup_attrs") == [
                "1:contacts", "2:accounts",
            ]
        )
        #expect(
            try SystemSQLite.lines(path, "SELECT group_concat(name, ',') FROM pragma_table_info('TABLE_1')")
                == [
                    "id,soup,created,lastModified,TABLE_1_0,TABLE_1_1,TABLE_1_2,TABLE_1_3,TABLE_1_4,TABLE_1_5,TABLE_1_6"
                ]
        )
        #expect(
            try SystemSQLite.lines(
                path,
                "SELECT group_concat(name || ' ' || type, ',') FROM pragma_table_info('TABLE_2')"
            )
                == [
                    "id INTEGER,soup TEXT,created INTEGER,lastModified INTEGER,TABLE_2_0 TEXT,TABLE_2_1 INTEGER,TABLE_2_2 REAL,TABLE_2_4 TEXT,TABLE_2_5 TEXT"
                ]
        )
        #expect(
            try SystemSQLite.lines(
                path,
                "SELECT sql FROM sqlite_master WHERE name IN ('TABLE_1_fts', 'TABLE_2_fts') ORDER BY name"
            )
                == [
                    "CREATE VIRTUAL TABLE TABLE_1_fts USING fts5(TABLE_1_1,TABLE_1_2)",
                    "CREATE VIRTUAL TABLE TABLE_2_fts USING fts5(TABLE_2_4)",
                ]
        )
        #expect(
            try SystemSQLite.lines(
                path,
                "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'TABLE_2' ORDER BY name"
            )
                == [
                    "TABLE_2_0_idx", "TABLE_2_1_idx", "TABLE_2_2_idx", "TABLE_2_3_idx", "TABLE_2_4_idx",
                    "TABLE_2_5_idx", "TABLE_2_created_idx", "TABLE_2_lastModified_idx",
                ]
        )
        #expect(
            try SystemSQLite.lines(path, "SELECT sql FROM sqlite_master WHERE name = 'TABLE_2_3_idx'")
                == ["CREATE INDEX TABLE_2_3_idx on TABLE_2 ( json_extract(soup, '$.Industry') )"]
        )
        #expect(
            try SystemSQLite.lines(
                path,
                "SELECT soupName, path, columnName, columnType FROM soup_index_map WHERE soupName = 'accounts'"
            )
                == [
                    "accounts|Id|TABLE_2_0|string", "accounts|NumberOfEmployees|TABLE_2_1|integer",
                    "accounts|AnnualRevenue|TABLE_2_2|floating",
                    "accounts|Industry|json_extract(soup, '$.Industry')|json1",
                    "accounts|Name|TABLE_2_4|full_text", "accounts|__local__|TABLE_2_5|string",
                ]
        )
        #expect(try SystemSQLite.lines(path, "PRAGMA journal_mode") == ["wal"])
        #expect(try SystemSQLite.lines(path, "PRAGMA user_version") == ["3"])
        _ = try temporary.store.write { try $0.upsert(entries: TestFixtures.accountRecords(0..<3), into: "accounts") }
        #expect(
            try SystemSQLite.lines(
                path,
                "SELECT count(*) FROM TABLE_2 WHERE id = json_extract(soup, '$._soupEntryId') AND lastModified = json_extract(soup, '$._soupLastModifiedDate')"
            )
                == ["3"]
        )
        #expect(try SystemSQLite.lines(path, "SELECT seq FROM sqlite_sequence WHERE name = 'TABLE_2'") == ["3"])
        // The plan SmartStore relies on for json1 indexes.
        let plan = try SystemSQLite.lines(
            path,
            "EXPLAIN QUERY PLAN SELECT id FROM TABLE_2 WHERE json_extract(soup, '$.Industry') = 'x'"
        )
        #expect(plan.contains { $0.contains("USING INDEX TABLE_2_3_idx") })
    }

    @Test func readsAHandBuiltSmartStoreFile() throws {
        let directory = try TemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory.url) }
        let path = directory.url.appendingPathComponent("smartstore.db").path
        // The SQL of store.md §2.1–§2.3, as Android writes it, with two documents.
        let sql = """
            PRAGMA user_version = 3;
            CREATE TABLE soup_attrs (id INTEGER PRIMARY KEY AUTOINCREMENT, soupName TEXT);
            CREATE INDEX soup_attrs_0 on soup_attrs ( soupName );
            CREATE TABLE soup_index_map (soupName TEXT, path TEXT, columnName TEXT, columnType TEXT);
            CREATE INDEX soup_index_map_0 on soup_index_map ( soupName );
            CREATE TABLE long_operations_status (id INTEGER PRIMARY KEY AUTOINCREMENT, type TEXT, details TEXT, status TEXT, created INTEGER, lastModified INTEGER);
            INSERT INTO soup_attrs (id, soupName) VALUES (1, 'contacts');
            CREATE TABLE TABLE_1 (id INTEGER PRIMARY KEY AUTOINCREMENT, soup TEXT, created INTEGER, lastModified INTEGER, TABLE_1_0 TEXT, TABLE_1_1 TEXT, TABLE_1_3 TEXT);
            CREATE VIRTUAL TABLE TABLE_1_fts USING fts5(TABLE_1_1);
            CREATE INDEX TABLE_1_created_idx on TABLE_1 ( created );
            CREATE INDEX TABLE_1_lastModified_idx on TABLE_1 ( lastModified );
            CREATE INDEX TABLE_1_0_idx on TABLE_1 ( TABLE_1_0 );
            CREATE INDEX TABLE_1_1_idx on TABLE_1 ( TABLE_1_1 );
            CREATE INDEX TABLE_1_2_idx on TABLE_1 ( json_extract(soup, '$.Title') );
            CREATE INDEX TABLE_1_3_idx on TABLE_1 ( TABLE_1_3 );
            INSERT INTO soup_index_map VALUES ('contacts', 'Id', 'TABLE_1_0', 'string');
            INSERT INTO soup_index_map VALUES ('contacts', 'LastName', 'TABLE_1_1', 'full_text');
            INSERT INTO soup_index_map VALUES ('contacts', 'Title', 'json_extract(soup, ''$.Title'')', 'json1');
            INSERT INTO soup_index_map VALUES ('contacts', '__local__', 'TABLE_1_3', 'string');
            INSERT INTO TABLE_1 VALUES (1, '{"Id":"003A","LastName":"Smith","Title":"CEO","__local__":true,"_soupEntryId":1,"_soupLastModifiedDate":1000}', 1000, 1000, '003A', 'Smith', '1');
            INSERT INTO TABLE_1 VALUES (2, '{"Id":"003B","LastName":"Jones","Title":"CTO","__local__":false,"_soupEntryId":2,"_soupLastModifiedDate":2000}', 2000, 2000, '003B', 'Jones', '0');
            INSERT INTO TABLE_1_fts (rowid, TABLE_1_1) VALUES (1, 'Smith'), (2, 'Jones');
            """
        _ = try SystemSQLite.lines(path, sql)
        let store = try SoupStore(path: path)
        let soups = try store.read { try $0.soups() }
        #expect(
            soups == [
                SoupDescription(
                    name: "contacts",
                    indexes: [
                        IndexSpec(path: "Id", type: .string), IndexSpec(path: "LastName", type: .fullText),
                        IndexSpec(path: "Title", type: .json1), IndexSpec(path: "__local__", type: .string),
                    ],
                    tableName: "TABLE_1",
                    entryCount: 2
                )
            ]
        )
        // iOS writes '1' for a true flag in a string column; it reads as dirty.
        #expect(try store.read { try $0.dirtyEntries(in: "contacts") }.map(\.entryID) == [1])
        var titles: [String] = []
        try store.read { reader in
            try reader.query(
                "select {contacts:Title} from {contacts} where {contacts:LastName} = ?",
                arguments: [.text("Jones")]
            ) {
                titles.append($0.jsonArray)
            }
        }
        #expect(titles == [#"["CTO"]"#])
        var matched: [Int64] = []
        try store.read {
            try $0.forEachEntry(matching: QuerySpec(soup: "contacts", path: "LastName", predicate: .match("smi*"))) {
                matched.append($0.entryID)
            }
        }
        #expect(matched == [1])
        let entry = try store.write {
            try $0.upsert(#"{"Id":"003C","LastName":"Brown","Title":"CFO"}"#, into: "contacts")
        }
        #expect(entry.entryID == 3)
        #expect(
            try SystemSQLite.lines(
                path,
                "SELECT TABLE_1_0, TABLE_1_1 FROM TABLE_1 WHERE id = 3; SELECT rowid FROM TABLE_1_fts WHERE TABLE_1_fts MATCH 'brown'"
            ) == ["003C|Brown", "3"]
        )
    }
}
