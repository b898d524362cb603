import GRDB

/// A registered soup as SmartStore lays it out: its table number, and where each index spec lives
/// (an extracted column `TABLE_N_i`, or the `json_extract` expression of a `json1` index).
package struct SoupLayout: Sendable, Equatable {
    /// One index spec and its storage.
    package struct Index: Sendable, Equatable {
        package var path: String
        package var type: SoupIndexType
        /// `TABLE_N_i`, or for `json1` the expression `json_extract(soup, '$.<path>')`.
        package var columnName: String
        /// Position `i` of the spec (every spec counts, `json1` included).
        package var position: Int

        /// Whether this spec has a real column in `TABLE_N`.
        package var hasColumn: Bool { type != .json1 }
    }

    /// The soup's name.
    package var name: String
    /// `soup_attrs.id`: the `N` of `TABLE_N`.
    package var tableID: Int64
    /// Index specs in spec order.
    package var indexes: [Index]
    /// Whether `TABLE_N_fts` exists.
    package var hasFullTextTable: Bool

    package var tableName: String { "TABLE_\(tableID)" }
    package var ftsTableName: String { "\(tableName)_fts" }
    package var columns: [Index] { indexes.filter(\.hasColumn) }
    package var fullTextColumns: [Index] { indexes.filter { $0.type == .fullText } }
    package var specs: [IndexSpec] { indexes.map { IndexSpec(path: $0.path, type: $0.type) } }

    /// The layout SmartStore gives `specs` in table `TABLE_<tableID>`.
    package init(name: String, tableID: Int64, specs: [IndexSpec]) {
        self.name = name
        self.tableID = tableID
        self.indexes = specs.enumerated().map { position, spec in
            Index(
                path: spec.path,
                type: spec.type,
                columnName: spec.type == .json1
                    ? SoupPath.json1Expression(spec.path) : "TABLE_\(tableID)_\(position)",
                position: position
            )
        }
        self.hasFullTextTable = specs.contains { $0.type == .fullText }
    }

    package init(name: String, tableID: Int64, indexes: [Index], hasFullTextTable: Bool) {
        self.name = name
        self.tableID = tableID
        self.indexes = indexes
        self.hasFullTextTable = hasFullTextTable
    }

    /// The first index on `path` (Android's choice when a path is indexed twice).
    package func index(forPath path: String) -> Index? {
        indexes.first { $0.path == path }
    }

    /// The SQL expression Smart SQL uses for `{soup:path}` (store.md §5.4), unqualified.
    package func expression(forPath path: String) -> String {
        switch path {
        case SoupPath.wholeSoup: return "\(tableName).soup"
        case SoupPath.entryID: return "\(tableName).id"
        case SoupPath.created: return "\(tableName).created"
        case SoupPath.lastModified: return "\(tableName).lastModified"
        default: return index(forPath: path)?.columnName ?? SoupPath.json1Expression(path)
        }
    }

    /// `path`'s value as text, for comparing with an id: the column itself when `path` has a
    /// `string` or `full_text` index (a TEXT column, so SQLite answers `= ?` from its index), else
    /// `CAST(expression AS TEXT)` (a scan).
    package func textExpression(forPath path: String) -> String {
        if let index = index(forPath: path), index.type == .string || index.type == .fullText {
            return index.columnName
        }
        return "CAST(\(expression(forPath: path)) AS TEXT)"
    }

    /// Reads the layout of `soup`, or `nil` when no such soup is registered.
    package static func load(_ db: Database, soup: String) throws -> SoupLayout? {
        // Cached statements: a command reads layouts a few dozen times (every reader and writer call
        // that names a soup), and compiling these three each time was a tenth of a resync's store work.
        guard
            let tableID = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT id FROM soup_attrs WHERE soupName = ?"),
                arguments: [soup]
            )
        else { return nil }
        // No ORDER BY on purpose: SmartStore reads the map in rowid (insertion) order.
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: "SELECT path, columnName, columnType FROM soup_index_map WHERE soupName = ? ORDER BY rowid"
            ),
            arguments: [soup]
        )
        var indexes: [Index] = []
        for (position, row) in rows.enumerated() {
            let path: String = row["path"] ?? ""
            let typeName: String = row["columnType"] ?? ""
            guard let type = SoupIndexType(rawValue: typeName) else {
                throw SoupStoreError.invalidSoupSpec(
                    soup,
                    "soup_index_map has unknown index type '\(typeName)' for path '\(path)'"
                )
            }
            let columnName: String = row["columnName"] ?? ""
            // Positions are recovered from the column names when possible (gaps come from json1).
            let suffix = columnName.split(separator: "_").last.flatMap { Int($0) }
            indexes.append(Index(path: path, type: type, columnName: columnName, position: suffix ?? position))
        }
        let fts =
            try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = ?"),
                arguments: ["TABLE_\(tableID)_fts"]
            ) ?? false
        return SoupLayout(name: soup, tableID: tableID, indexes: indexes, hasFullTextTable: fts)
    }

    /// Reads the layout of `soup`, throwing when it is not registered.
    package static func require(_ db: Database, soup: String) throws -> SoupLayout {
        guard let layout = try load(db, soup: soup) else { throw SoupStoreError.unknownSoup(soup) }
        return layout
    }

    /// Every registered soup name, in registration order.
    package static func soupNames(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT soupName FROM soup_attrs ORDER BY id")
    }
}
