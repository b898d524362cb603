import Foundation
import GRDB

/// Write access to a store, valid only inside `SoupStore.write`: everything done through one
/// writer commits together, or not at all.
///
/// Every write sets `_soupEntryId` and `_soupLastModifiedDate` in the document and recomputes
/// the index columns and FTS row in the same statements, so columns never disagree with documents.
public struct SoupWriter {
    package let db: Database
    package let context: StoreContext

    /// Reads that see this writer's uncommitted changes.
    public var reader: SoupReader { SoupReader(db: db, context: context) }

    /// The current time in milliseconds since the Unix epoch.
    package static func now() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }

    package func layout(_ soup: String) throws -> SoupLayout {
        try SoupLayout.require(db, soup: soup)
    }

    /// Registers `spec` if no soup has its name; if one does with other index specs, alters it to
    /// `spec` (re-indexing) inside this transaction. Returns what was done.
    ///
    /// - Throws: `SoupStoreError` (`.invalidSoupSpec`, `.invalidPath`, `.sqlite`).
    @discardableResult
    public func registerSoup(_ spec: SoupSpec) throws -> SoupRegistration {
        try spec.validate()
        guard let existing = try SoupLayout.load(db, soup: spec.name) else {
            _ = try SoupSchema.registerSoup(db, spec: spec)
            context.logger.debug("Registered soup", metadata: ["store.soup": "\(spec.name)"])
            return .created
        }
        if existing.specs == spec.indexes { return .unchanged }
        try AlterSoupOperation.run(in: db, from: existing, to: spec.indexes, logger: context.logger)
        return .altered
    }

    /// Upserts one JSON object and returns the stored entry.
    ///
    /// - Parameters:
    ///   - json: A JSON object.
    ///   - soup: The soup.
    ///   - path: `_soupEntryId` (the default: update that entry when the document has one, else
    ///     create) or an indexed path whose value identifies the entry (an external id).
    /// - Throws: `SoupStoreError` (`.unknownSoup`, `.malformedJSON`, `.notAnObject`,
    ///   `.missingExternalID`, `.ambiguousExternalID`, `.invalidPath`).
    @discardableResult
    public func upsert(_ json: String, into soup: String, byExternalIDPath path: String = "_soupEntryId") throws
        -> SoupEntry
    {
        let layout = try layout(soup)
        let type = try String.fetchOne(
            db,
            sql: "SELECT CASE WHEN json_valid(?1) THEN json_type(?1) END",
            arguments: [json]
        )
        guard let type else {
            throw JSONSyntaxScanner.firstError(in: json)
                ?? SoupStoreError.malformedJSON(line: 1, column: 1, "not valid JSON")
        }
        guard type == "object" else { throw SoupStoreError.notAnObject(entry: 1, found: type) }
        var upsert = BatchUpsert(key: Self.key(path), control: .asGiven, localEntries: .overwrite)
        upsert.collectEntryIDs = true
        let result = try upsert.run(db, layout: layout, source: "[\(json)\n]", now: Self.now())
        guard let id = result.entryIDs.first, let entry = try reader.entry(id, in: soup) else {
            throw SoupStoreError.unknownEntry(result.entryIDs.first ?? 0, soup: soup)
        }
        return entry
    }

    /// Upserts every object of a JSON array (as given, control fields included) in set-based SQL.
    ///
    /// All or nothing: a malformed document, a non-object element or a missing key throws before
    /// anything is written, and the enclosing transaction rolls back on any error.
    ///
    /// - Parameters:
    ///   - jsonArray: A JSON array of objects.
    ///   - path: `_soupEntryId` (the default) or an indexed external id path.
    /// - Returns: How many entries were inserted and updated.
    public func upsert(entries jsonArray: String, into soup: String, byExternalIDPath path: String = "_soupEntryId")
        throws -> UpsertCounts
    {
        let upsert = BatchUpsert(key: Self.key(path), control: .asGiven, localEntries: .overwrite)
        let result = try upsert.run(db, layout: try layout(soup), source: jsonArray, now: Self.now())
        return UpsertCounts(inserted: result.inserted, updated: result.updated)
    }

    static func key(_ path: String) -> BatchUpsert.Key {
        path == SoupPath.entryID ? .entryID : .path(path)
    }

    /// Deletes the entries with these `_soupEntryId`s; returns how many existed.
    public func deleteEntries(_ entryIDs: [Int64], from soup: String) throws -> Int {
        let layout = try layout(soup)
        let ids = SoupReader.idList(entryIDs)
        try db.execute(
            sql: "DELETE FROM \(layout.tableName) WHERE id IN (SELECT value FROM json_each(?))",
            arguments: [ids]
        )
        let deleted = db.changesCount
        if layout.hasFullTextTable {
            try db.execute(
                sql: "DELETE FROM \(layout.ftsTableName) WHERE rowid IN (SELECT value FROM json_each(?))",
                arguments: [ids]
            )
        }
        return deleted
    }

    /// Deletes the entries whose value at `path` is one of `values` (compared as the index column
    /// compares); returns how many were deleted. Used by ghost cleaning with `Id`.
    public func deleteEntries(from soup: String, wherePath path: String, isIn values: [String]) throws -> Int {
        let layout = try layout(soup)
        try SoupPath.validate(path)
        let ids = try Int64.fetchAll(
            db,
            sql: """
                SELECT id FROM \(layout.tableName) WHERE \(layout.expression(forPath: path)) \
                IN (SELECT value FROM json_each(?))
                """,
            arguments: [JSONText.array(values)]
        )
        return try deleteEntries(ids, from: soup)
    }

    /// Removes every entry of `soup`, keeping the soup and its id sequence.
    public func clearSoup(_ soup: String) throws {
        let layout = try layout(soup)
        try db.execute(sql: "DELETE FROM \(layout.tableName)")
        if layout.hasFullTextTable { try db.execute(sql: "DELETE FROM \(layout.ftsTableName)") }
    }

    /// Drops `soup`: its tables and bookkeeping rows.
    public func dropSoup(_ soup: String) throws {
        try SoupSchema.dropSoup(db, layout: try layout(soup))
    }

    /// Rewrites the documents of the entries `condition` selects with `edit` (a `json_set`-style
    /// expression over `soup`), restamping `_soupLastModifiedDate` and recomputing index columns.
    /// Returns how many entries changed.
    func rewrite(
        _ layout: SoupLayout,
        edit: String,
        condition: String,
        arguments: StatementArguments = []
    ) throws -> Int {
        let now = Self.now()
        let columns = layout.columns.map {
            "\($0.columnName) = \(SoupProjection.sql(for: $0, document: "r.d"))"
        }
        try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS syncrun_rewrite (eid INTEGER PRIMARY KEY, d TEXT)")
        try db.execute(sql: "DELETE FROM temp.syncrun_rewrite")
        defer { try? db.execute(sql: "DELETE FROM temp.syncrun_rewrite") }
        // `now` is our own integer, spliced so the caller's `?1` placeholders keep their numbers.
        try db.execute(
            sql: """
                INSERT INTO temp.syncrun_rewrite (eid, d) SELECT id, json_set(\(edit), \
                '$.\(SoupPath.lastModified)', \(now)) FROM \(layout.tableName) WHERE \(condition)
                """,
            arguments: arguments
        )
        let count = db.changesCount
        try db.execute(
            sql: """
                UPDATE \(layout.tableName) SET soup = r.d, lastModified = ?\
                \(columns.isEmpty ? "" : ", " + columns.joined(separator: ", ")) \
                FROM temp.syncrun_rewrite AS r WHERE \(layout.tableName).id = r.eid
                """,
            arguments: [now]
        )
        try FullText.refresh(db, layout: layout, idsSQL: "SELECT eid FROM temp.syncrun_rewrite")
        return count
    }
}

/// What `registerSoup` did.
public enum SoupRegistration: String, Sendable, Hashable {
    /// The soup did not exist and was created.
    case created
    /// The soup existed with the same index specs.
    case unchanged
    /// The soup existed with other index specs and was altered (entries kept, re-indexed).
    case altered
}

/// How many entries an upsert inserted and updated.
public struct UpsertCounts: Sendable, Hashable {
    /// Entries created.
    public var inserted: Int
    /// Existing entries replaced.
    public var updated: Int

    /// Creates counts.
    public init(inserted: Int, updated: Int) {
        self.inserted = inserted
        self.updated = updated
    }
}
