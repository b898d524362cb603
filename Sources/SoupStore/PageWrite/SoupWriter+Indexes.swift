import Foundation
import GRDB

/// A soup's SQL indexes suspended while a page-by-page load fills it, and rebuilt once at the end
/// (docs/store.md, *Bulk load into an empty soup*): index builds from sorted input are far cheaper
/// than inserting 100,000s of random Ids and Names one by one into B-trees that no longer fit the
/// page cache, and they write each index page once.
///
/// The soup's `soup_index_map` rows and index columns stay as they are, so an app that opens the
/// store sees the soup with all its index specs; only the SQL indexes (`TABLE_N_created_idx`,
/// `TABLE_N_lastModified_idx`, `TABLE_N_i_idx`) are absent meanwhile. Which loads are under way,
/// and finishing a killed one, is the sync ledger's bookkeeping.
extension SoupWriter {
    /// Whether `soup` can be loaded with its indexes suspended by records keyed at `keyPath`: it
    /// holds no entry, has no full-text index, and `keyPath` is an indexed top-level path.
    ///
    /// - Throws: `SoupStoreError` (`.unknownSoup`, `.sqlite`).
    public func canLoadWithoutIndexes(_ soup: String, keyPath: String) throws -> Bool {
        let layout = try layout(soup)
        guard !layout.hasFullTextTable, SoupPath.isValid(keyPath), !keyPath.contains("."),
            let key = layout.index(forPath: keyPath), key.hasColumn
        else { return false }
        return try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(layout.tableName))") == false
    }

    /// Drops the SQL indexes of `soup` (its index specs stay); ``appendPage(_:into:options:)`` then
    /// writes pages without lookups until ``rebuildIndexes(of:mergingBy:localEntries:)``.
    ///
    /// - Throws: `SoupStoreError` (`.unknownSoup`, `.sqlite`).
    public func suspendIndexes(of soup: String) throws {
        for index in SoupSchema.indexes(of: try layout(soup)) {
            try db.execute(sql: "DROP INDEX IF EXISTS \(index.name)")
        }
    }

    /// Creates the SQL indexes of `soup` that are missing, first the one of `keyPath`, by which
    /// the entries sharing a key (a record appended again by a later page) are then merged as the
    /// upsert would have: the first entry keeps its id and takes the last one's document, stamp and
    /// columns, or, under ``LocalEntries/keep``, an entry with local changes is kept as it is.
    /// Returns the number of entries merged into an earlier one.
    ///
    /// - Throws: `SoupStoreError` (`.unknownSoup`, `.sqlite`).
    @discardableResult
    public func rebuildIndexes(of soup: String, mergingBy keyPath: String, localEntries: LocalEntries) throws -> Int {
        let layout = try layout(soup)
        let indexes = SoupSchema.indexes(of: layout)
        // Index builds sort the whole table: let SQLite's sorter merge on a helper thread (the
        // page cache, and so memory, stays as it is).
        let threads = try Int.fetchOne(db, sql: "PRAGMA threads") ?? 0
        try db.execute(sql: "PRAGMA threads = \(Self.indexBuildThreads)")
        defer { try? db.execute(sql: "PRAGMA threads = \(threads)") }
        let key = layout.index(forPath: keyPath)
        // The key's index first: the merge below groups by it.
        if let key, let keyIndex = indexes.first(where: { $0.name == "\(layout.tableName)_\(key.position)_idx" }) {
            try db.execute(
                sql: keyIndex.sql.replacingOccurrences(of: "CREATE INDEX", with: "CREATE INDEX IF NOT EXISTS")
            )
        }
        let merged = try key.map { try mergeDuplicates(layout: layout, key: $0, localEntries: localEntries) } ?? 0
        for index in indexes {
            try db.execute(sql: index.sql.replacingOccurrences(of: "CREATE INDEX", with: "CREATE INDEX IF NOT EXISTS"))
        }
        return merged
    }

    /// Helper threads SQLite's sorter may use while the indexes of a loaded soup are built.
    static let indexBuildThreads = 2

    /// Merges the entries sharing a key (a record written again by a later page) as the upsert
    /// does: the first entry keeps its id and takes the last one's document, stamp and columns;
    /// under ``LocalEntries/keep``, an entry with local changes is kept as it is instead.
    private func mergeDuplicates(layout: SoupLayout, key: SoupLayout.Index, localEntries: LocalEntries) throws -> Int {
        let table = layout.tableName
        let groups = try String.fetchAll(
            db,
            sql: """
                SELECT group_concat(id) FROM \(table) WHERE \(key.columnName) IN (SELECT \(key.columnName) \
                FROM \(table) WHERE \(key.columnName) IS NOT NULL GROUP BY 1 HAVING count(*) > 1) \
                GROUP BY \(key.columnName)
                """
        )
        guard !groups.isEmpty else { return 0 }
        let protected = localEntries.protectedEntryCondition(in: layout, table: table)
        let assignments = layout.columns.map { "\($0.columnName) = last.\($0.columnName)" }.joined(separator: ", ")
        var merged = 0
        for group in groups {
            let ids = group.split(separator: ",").compactMap { Int64($0) }.sorted()
            guard let first = ids.first, let last = ids.last, ids.count > 1 else { continue }
            var keep = first
            var source: Int64? = last
            if let protected,
                let local = try Int64.fetchOne(
                    db,
                    sql: "SELECT min(id) FROM \(table) WHERE id IN (\(group)) AND \(protected)"
                )
            {
                keep = local
                source = nil
            }
            if let source {
                try db.execute(
                    sql: """
                        UPDATE \(table) SET soup = json_set(last.soup, '$._soupEntryId', ?1), \
                        lastModified = last.lastModified\(assignments.isEmpty ? "" : ", " + assignments) \
                        FROM (SELECT * FROM \(table) WHERE id = ?2) AS last WHERE \(table).id = ?1
                        """,
                    arguments: [keep, source]
                )
            }
            try db.execute(
                sql: "DELETE FROM \(table) WHERE id IN (\(group)) AND id <> ?",
                arguments: [keep]
            )
            merged += ids.count - 1
        }
        return merged
    }
}

/// A soup's scattered field indexes set aside while one transaction adds many records to a soup
/// that already holds many (issue 33 item 4: a sync down into a filled soup): each new record
/// lands on a random leaf of an index on a field such as `Name`, so 100,000 new records among
/// 900,000 dirty nearly every leaf of it, more pages than the page cache a sync may use holds, and
/// the cache writes them out again and again. Dropped and created again in the same transaction
/// (``restoreIndexes(of:)`` before it commits), such an index is written once, in key order, from a
/// sort; a kill meanwhile rolls back to the last commit, which has every index.
extension SoupWriter {
    /// Drops, in the open transaction, the SQL indexes of `soup` on record fields whose new values
    /// land anywhere in the index: every column index spec except the one of `keyPath` (the upsert
    /// looks records up by it), of `modificationDateField` (new records come last), SmartStore's
    /// control fields and stamps, and `_`-prefixed paths. Does nothing for a soup with a full-text
    /// index. Returns how many indexes it set aside; ``restoreIndexes(of:)`` must run before the
    /// transaction commits.
    ///
    /// - Throws: `SoupStoreError` (`.unknownSoup`, `.sqlite`).
    @discardableResult
    public func suspendFieldIndexes(of soup: String, keyPath: String, modificationDateField: String?) throws -> Int {
        let layout = try layout(soup)
        guard !layout.hasFullTextTable else { return 0 }
        var dropped = 0
        for index in layout.columns
        where index.path != keyPath && index.path != modificationDateField && !index.path.hasPrefix("_") {
            try db.execute(sql: "DROP INDEX IF EXISTS \(layout.tableName)_\(index.position)_idx")
            dropped += 1
        }
        return dropped
    }

    /// Creates the SQL indexes of `soup` that are missing (after ``suspendFieldIndexes(of:keyPath:modificationDateField:)``),
    /// each from one sort of the table.
    ///
    /// - Throws: `SoupStoreError` (`.unknownSoup`, `.sqlite`).
    public func restoreIndexes(of soup: String) throws {
        for index in SoupSchema.indexes(of: try layout(soup)) {
            try db.execute(sql: index.sql.replacingOccurrences(of: "CREATE INDEX", with: "CREATE INDEX IF NOT EXISTS"))
        }
    }

    /// How many records one server page (a query response or a JSON array of records) holds, and
    /// how many of them `soup` stores already, looked up by the value at `keyPath` through that
    /// spec's index (the page is read by SQLite, not parsed in Swift); `nil` when `keyPath` has no
    /// column index in `soup`.
    ///
    /// - Throws: `SoupStoreError` (`.unknownSoup`, `.invalidPath`, `.sqlite` for text that is not JSON).
    public func storedRecords(ofPage page: String, in soup: String, keyPath: String) throws
        -> (records: Int, stored: Int)?
    {
        let layout = try layout(soup)
        try SoupPath.validate(keyPath)
        guard let key = layout.columns.first(where: { $0.path == keyPath }) else { return nil }
        let row = try Row.fetchOne(
            db,
            sql: """
                SELECT count(*), coalesce(sum(EXISTS (SELECT 1 FROM \(layout.tableName) \
                WHERE \(key.columnName) = json_extract(value, ?4))), 0) \
                FROM json_each(?3, \(PageKeysTarget.recordsPath)) WHERE type = 'object'
                """,
            arguments: [nil as String?, nil as String?, page, "$.\(keyPath)"]
        )
        guard let row else { return (0, 0) }
        return (row[0], row[1])
    }

    /// The highest entry id `soup` has given (its size, where no entry was deleted), read in
    /// constant time.
    ///
    /// - Throws: `SoupStoreError` (`.unknownSoup`, `.sqlite`).
    public func highestEntryID(of soup: String) throws -> Int64 {
        let layout = try layout(soup)
        return try Int64.fetchOne(
            db,
            sql: "SELECT seq FROM sqlite_sequence WHERE name = ?",
            arguments: [layout.tableName]
        ) ?? 0
    }
}
