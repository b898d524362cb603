import GRDB

/// Read access to a store, valid only inside `SoupStore.read` (or as `SoupWriter.reader`, where it
/// sees the writer's uncommitted changes).
///
/// Every method streams or pages: none loads a whole soup into memory.
public struct SoupReader {
    package let db: Database
    package let context: StoreContext

    package func layout(_ soup: String) throws -> SoupLayout {
        try SoupLayout.require(db, soup: soup)
    }

    /// Whether a soup named `soup` is registered.
    public func hasSoup(_ soup: String) throws -> Bool {
        try SoupLayout.load(db, soup: soup) != nil
    }

    /// Every registered soup with its index specs and entry count, in registration order.
    public func soups() throws -> [SoupDescription] {
        try SoupLayout.soupNames(db).map { name in
            let layout = try layout(name)
            return SoupDescription(
                name: name,
                indexes: layout.specs,
                tableName: layout.tableName,
                entryCount: try count(layout)
            )
        }
    }

    /// The index specs of `soup`, in spec order.
    ///
    /// - Throws: `SoupStoreError` with code `.unknownSoup`.
    public func indexSpecs(of soup: String) throws -> [IndexSpec] {
        try layout(soup).specs
    }

    /// How many entries `soup` holds.
    public func entryCount(in soup: String) throws -> Int {
        try count(layout(soup))
    }

    private func count(_ layout: SoupLayout) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM \(layout.tableName)") ?? 0
    }

    /// The entry with `_soupEntryId` `entryID`, or `nil`.
    public func entry(_ entryID: Int64, in soup: String) throws -> SoupEntry? {
        let layout = try layout(soup)
        return try Row.fetchOne(
            db,
            sql: "SELECT id, created, lastModified, soup FROM \(layout.tableName) WHERE id = ?",
            arguments: [entryID]
        ).map(Self.entry)
    }

    /// The entries whose value at `path` is one of `values`, compared as the index column
    /// compares (text for `string` indexes), ordered by `_soupEntryId`.
    ///
    /// Used to look records up by server id (`Id`). Works on unindexed paths too (a full scan).
    /// - Throws: `SoupStoreError` (`.unknownSoup`, `.invalidPath`).
    public func entries(in soup: String, wherePath path: String, isIn values: [String]) throws -> [SoupEntry] {
        let layout = try layout(soup)
        try SoupPath.validate(path)
        let column = layout.expression(forPath: path)
        return try Row.fetchAll(
            db,
            sql: """
                SELECT id, created, lastModified, soup FROM \(layout.tableName)
                WHERE \(column) IN (SELECT value FROM json_each(?)) ORDER BY id
                """,
            arguments: [JSONText.array(values)]
        ).map(Self.entry)
    }

    /// Calls `body` with every entry of `soup` in `_soupEntryId` order, one row in memory at a time.
    ///
    /// - Throws: `SoupStoreError`, or what `body` throws (which stops the iteration).
    public func forEachEntry(in soup: String, _ body: (SoupEntry) throws -> Void) throws {
        let layout = try layout(soup)
        let cursor = try Row.fetchCursor(
            db,
            sql: "SELECT id, created, lastModified, soup FROM \(layout.tableName) ORDER BY id"
        )
        while let row = try cursor.next() {
            try body(Self.entry(row))
        }
    }

    /// Up to `limit` entries with local changes (`__local__` set), with `_soupEntryId` greater than
    /// `afterEntryID`, in numeric `_soupEntryId` order. Page through by passing the last id back.
    public func dirtyEntries(in soup: String, afterEntryID: Int64 = 0, limit: Int = 2000) throws -> [SoupEntry] {
        let layout = try layout(soup)
        let dirty = ControlFields.predicate(ControlFields.local, is: true, in: layout)
        let statement = try db.cachedStatement(
            sql: """
                SELECT id, created, lastModified, soup FROM \(layout.tableName)
                WHERE \(dirty) AND id > ? ORDER BY id LIMIT ?
                """
        )
        // Each row is read straight from the statement (no copied row per entry).
        var entries: [SoupEntry] = []
        entries.reserveCapacity(min(limit, 10_000))
        let rows = try Row.fetchCursor(statement, arguments: [afterEntryID, limit])
        while let row = try rows.next() { entries.append(Self.entry(row)) }
        return entries
    }

    /// How many entries of `soup` have local changes.
    public func dirtyEntryCount(in soup: String) throws -> Int {
        let layout = try layout(soup)
        let dirty = ControlFields.predicate(ControlFields.local, is: true, in: layout)
        return try Int.fetchOne(db, sql: "SELECT count(*) FROM \(layout.tableName) WHERE \(dirty)") ?? 0
    }

    /// Streams, in batches of at most `batchSize`, the values at `idPath` of the clean entries of
    /// `soup` (`__local__` explicitly false): the ghost-cleaning candidates (sync-semantics §6).
    ///
    /// - Parameters:
    ///   - syncID: When given, only entries whose `__sync_id__` equals it.
    ///   - body: Called per batch, in `_soupEntryId` order.
    public func forEachCleanID(
        in soup: String,
        idPath: String,
        syncID: Int64? = nil,
        batchSize: Int = 2000,
        _ body: ([String]) throws -> Void
    ) throws {
        let layout = try layout(soup)
        try SoupPath.validate(idPath)
        var conditions = [ControlFields.predicate(ControlFields.local, is: false, in: layout)]
        var arguments: StatementArguments = []
        if let syncID {
            conditions.append("\(layout.expression(forPath: ControlFields.syncID)) = ?")
            arguments += [syncID]
        }
        let column = layout.expression(forPath: idPath)
        let cursor = try String.fetchCursor(
            db,
            sql: """
                SELECT CAST(\(column) AS TEXT) FROM \(layout.tableName)
                WHERE \(conditions.joined(separator: " AND ")) AND \(column) IS NOT NULL ORDER BY id
                """,
            arguments: arguments
        )
        var batch: [String] = []
        batch.reserveCapacity(batchSize)
        while let value = try cursor.next() {
            batch.append(value)
            if batch.count >= batchSize {
                try body(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { try body(batch) }
    }

    /// Runs a Smart SQL query (store.md §5.4), calling `body` once per row; rows are never
    /// collected, so any result size runs in constant memory.
    ///
    /// - Parameters:
    ///   - smartSQL: A `SELECT` (or `WITH`) with `{soup}` / `{soup:path}` references.
    ///   - arguments: Values for its `?` placeholders, always bound, never spliced.
    /// - Throws: `SoupStoreError` (`.invalidQuery`, `.unknownSoup`, `.invalidPath`, `.sqlite`).
    public func query(_ smartSQL: String, arguments: [SoupValue] = [], _ body: (QueryRow) throws -> Void) throws {
        let sql = try SmartSQL.translate(smartSQL, layouts: { try SoupLayout.load(db, soup: $0) })
        let statement: Statement
        do {
            statement = try db.makeStatement(sql: sql)
        } catch let error as DatabaseError {
            throw SoupStoreError.invalidQuery("\(error.message ?? "SQLite rejected it") (translated to: \(sql))")
        }
        let bound = StatementArguments(arguments.map(\.databaseValue))
        do {
            try statement.validateArguments(bound)
        } catch let error as DatabaseError {
            throw SoupStoreError.invalidQuery(error.message ?? "wrong number of arguments")
        }
        let names = statement.columnNames
        let cursor = try Row.fetchCursor(statement, arguments: bound)
        while let row = try cursor.next() {
            let values = (0..<names.count).map { SoupValue(row[$0] as DatabaseValue) }
            try body(QueryRow(columnNames: names, values: values))
        }
    }

    /// Runs a query spec (exact, range, like, match, all) and calls `body` with each matching
    /// entry, streamed.
    public func forEachEntry(matching spec: QuerySpec, _ body: (SoupEntry) throws -> Void) throws {
        let smart = try spec.smartSQL(layout: try layout(spec.soup))
        let sql = try SmartSQL.translate(smart.sql, layouts: { try SoupLayout.load(db, soup: $0) })
        let cursor = try Row.fetchCursor(
            db,
            sql: sql,
            arguments: StatementArguments(smart.arguments.map(\.databaseValue))
        )
        while let row = try cursor.next() {
            try body(Self.entry(row))
        }
    }

    static func entry(_ row: Row) -> SoupEntry {
        SoupEntry(entryID: row[0], created: row[1] ?? 0, lastModified: row[2] ?? 0, json: row[3] ?? "{}")
    }
}
