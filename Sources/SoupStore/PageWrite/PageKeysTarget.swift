import GRDB

/// Where a page write also puts the key of every record of the page (kept, skipped or repeated), in
/// page order, inside the page's own statements pass and transaction: a table of the layer above the
/// store (the sync ledger remembers which sync fetched which record), which so needs no second pass
/// over the page. The store runs the statement; the table, and what the rows mean, are the caller's.
public struct PageKeysTarget: Sendable, Hashable {
    /// An `INSERT` taking `?1` the soup's name, `?2` one record's key as text and `?3` ``value``.
    public var insertSQL: String
    /// The value bound to `?3` (the sync's id).
    public var value: Int64

    /// Creates a target.
    public init(insertSQL: String, value: Int64) {
        self.insertSQL = insertSQL
        self.value = value
    }

    /// `'$'` for a JSON array page, `'$.records'` for a query response, as SQL over the page at `?3`.
    package static let recordsPath = "CASE json_type(?3) WHEN 'array' THEN '$' ELSE '$.records' END"

    /// Runs the insert for every record key of `page` (a query response or a JSON array of
    /// records) at `keyPath`: the set-based write's way, reading the keys with SQLite's JSON
    /// functions (the one-pass write binds the keys it scanned instead).
    func insertKeys(_ db: Database, of page: String, soup: String, keyPath: String) throws {
        let keys = try String.fetchCursor(
            db,
            sql: """
                SELECT CAST(json_extract(value, ?4) AS TEXT) FROM json_each(?3, \(Self.recordsPath)) \
                WHERE type = 'object' AND json_extract(value, ?4) IS NOT NULL
                """,
            arguments: [soup, value, page, "$.\(keyPath)"]
        )
        let insert = try db.cachedStatement(sql: insertSQL)
        while let key = try keys.next() {
            try insert.execute(arguments: [soup, key, value])
        }
    }
}
