import GRDB

/// The DDL SmartStore runs, reproduced statement for statement (store.md §2).
enum SoupSchema {
    /// `PRAGMA user_version` Android writes (store.md §2.6).
    static let userVersion = 3

    /// Creates the bookkeeping tables when missing (store.md §2.1).
    static func createBookkeeping(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS soup_attrs (id INTEGER PRIMARY KEY AUTOINCREMENT, soupName TEXT);
                CREATE INDEX IF NOT EXISTS soup_attrs_0 on soup_attrs ( soupName );
                CREATE TABLE IF NOT EXISTS soup_index_map (soupName TEXT, path TEXT, columnName TEXT, columnType TEXT);
                CREATE INDEX IF NOT EXISTS soup_index_map_0 on soup_index_map ( soupName );
                CREATE TABLE IF NOT EXISTS long_operations_status (id INTEGER PRIMARY KEY AUTOINCREMENT, \
                type TEXT, details TEXT, status TEXT, created INTEGER, lastModified INTEGER);
                """
        )
    }

    /// Classifies an opened file: empty (new), SmartStore (possibly legacy `soup_names`), or other.
    enum FileKind {
        case empty
        case smartStore
        case legacySmartStore
        case other
    }

    static func kind(of db: Database) throws -> FileKind {
        let tables = try Set(
            String.fetchAll(
                db,
                sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        )
        if tables.isEmpty { return .empty }
        if tables.contains("soup_attrs") && tables.contains("soup_index_map") { return .smartStore }
        if tables.contains("soup_names") && tables.contains("soup_index_map") { return .legacySmartStore }
        return .other
    }

    /// Creates `TABLE_N` (and `TABLE_N_fts`), its indexes and its `soup_index_map` rows for a
    /// layout whose `soup_attrs` row already exists (store.md §2.2–§2.4).
    static func createSoupTables(_ db: Database, layout: SoupLayout) throws {
        let table = layout.tableName
        var columns = ["id INTEGER PRIMARY KEY AUTOINCREMENT", "soup TEXT", "created INTEGER", "lastModified INTEGER"]
        for index in layout.columns {
            columns.append("\(index.columnName) \(index.type.columnSQLType ?? "TEXT")")
        }
        try db.execute(sql: "CREATE TABLE \(table) (\(columns.joined(separator: ", ")))")
        if layout.hasFullTextTable {
            let ftsColumns = layout.fullTextColumns.map(\.columnName).joined(separator: ",")
            try db.execute(sql: "CREATE VIRTUAL TABLE \(layout.ftsTableName) USING fts5(\(ftsColumns))")
        }
        for index in indexes(of: layout) { try db.execute(sql: index.sql) }
        for index in layout.indexes {
            try db.execute(
                sql: "INSERT INTO soup_index_map (soupName, path, columnName, columnType) VALUES (?, ?, ?, ?)",
                arguments: [layout.name, index.path, index.columnName, index.type.rawValue]
            )
        }
    }

    /// The SQL indexes of a soup's table, in the order SmartStore creates them: `created`,
    /// `lastModified`, then one per index spec (the `json1` ones on their expression).
    static func indexes(of layout: SoupLayout) -> [(name: String, sql: String)] {
        let table = layout.tableName
        var result = [
            ("\(table)_created_idx", "CREATE INDEX \(table)_created_idx on \(table) ( created )"),
            ("\(table)_lastModified_idx", "CREATE INDEX \(table)_lastModified_idx on \(table) ( lastModified )"),
        ]
        for index in layout.indexes {
            let name = "\(table)_\(index.position)_idx"
            result.append((name, "CREATE INDEX \(name) on \(table) ( \(index.columnName) )"))
        }
        return result
    }

    /// Registers a new soup: `soup_attrs` row, tables, indexes, map rows. Returns its layout.
    static func registerSoup(_ db: Database, spec: SoupSpec) throws -> SoupLayout {
        try db.execute(sql: "INSERT INTO soup_attrs (soupName) VALUES (?)", arguments: [spec.name])
        let layout = SoupLayout(name: spec.name, tableID: db.lastInsertedRowID, specs: spec.indexes)
        try createSoupTables(db, layout: layout)
        return layout
    }

    /// Drops a soup's tables and bookkeeping rows (store.md §4.4).
    static func dropSoup(_ db: Database, layout: SoupLayout) throws {
        try db.execute(sql: "DROP TABLE IF EXISTS \(layout.tableName)")
        try db.execute(sql: "DROP TABLE IF EXISTS \(layout.ftsTableName)")
        try db.execute(sql: "DELETE FROM soup_attrs WHERE soupName = ?", arguments: [layout.name])
        try db.execute(sql: "DELETE FROM soup_index_map WHERE soupName = ?", arguments: [layout.name])
    }
}
