import GRDB

/// Upkeep of a soup's FTS table (`TABLE_N_fts`), whose rows share their `rowid` with the entry id.
enum FullText {
    /// Rewrites the FTS rows of the entries whose ids `idsSQL` selects from the soup's current rows.
    static func refresh(_ db: Database, layout: SoupLayout, idsSQL: String, arguments: StatementArguments = []) throws {
        guard layout.hasFullTextTable else { return }
        let columns = layout.fullTextColumns.map(\.columnName).joined(separator: ", ")
        try db.execute(
            sql: "DELETE FROM \(layout.ftsTableName) WHERE rowid IN (\(idsSQL))",
            arguments: arguments
        )
        try db.execute(
            sql: """
                INSERT INTO \(layout.ftsTableName) (rowid, \(columns)) SELECT id, \(columns) \
                FROM \(layout.tableName) WHERE id IN (\(idsSQL))
                """,
            arguments: arguments
        )
    }

    /// Rebuilds the whole FTS table from the soup table.
    static func rebuild(_ db: Database, layout: SoupLayout) throws {
        guard layout.hasFullTextTable else { return }
        let columns = layout.fullTextColumns.map(\.columnName).joined(separator: ", ")
        try db.execute(sql: "DELETE FROM \(layout.ftsTableName)")
        try db.execute(
            sql: "INSERT INTO \(layout.ftsTableName) (rowid, \(columns)) SELECT id, \(columns) FROM \(layout.tableName)"
        )
    }
}
