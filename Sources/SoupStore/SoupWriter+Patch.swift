import GRDB
import JSONCore

/// What ``SoupWriter/patchEntries(_:in:)`` and ``SoupWriter/setMember(_:to:in:)`` did.
public struct EntryPatchResult: Sendable, Hashable {
    /// The `_soupLastModifiedDate` each rewritten entry had before, by `_soupEntryId`; entries that
    /// do not exist are absent (and were not written).
    public var previousLastModified: [Int64: Int64]
    /// The `_soupLastModifiedDate` every rewritten entry has now.
    public var lastModified: Int64
}

extension SoupWriter {
    /// Merge-patches the documents of some entries (RFC 7396, SQLite's `json_patch`), in one
    /// set-based `UPDATE` whatever their number: each member of an entry's patch replaces the
    /// document's top-level member of that name, and `null` removes it. Objects merge into
    /// objects (RFC 7396), so give scalar values (or use ``setMember(_:to:in:)``) to replace one.
    ///
    /// `_soupLastModifiedDate` is set; only the index columns (and FTS row) whose path starts with
    /// a patched member are recomputed, from the new document, in the same statement. The
    /// statements are cached on the connection, so a batch after the first prepares nothing.
    ///
    /// - Parameter patches: The patch of each entry, by `_soupEntryId`; entries that do not exist
    ///   are skipped.
    /// - Throws: `SoupStoreError` (`.unknownSoup`, `.sqlite`).
    @discardableResult
    public func patchEntries(_ patches: [Int64: JSONObject], in soup: String) throws -> EntryPatchResult {
        var members = Set<String>()
        for patch in patches.values { members.formUnion(patch.keys) }
        // The argument is written straight from the patches (no enclosing value to build and
        // sort), with `_soupLastModifiedDate` in every patch so one `json_patch` per entry does it all.
        let now = Self.now()
        let stamp = ",\"" + SoupPath.lastModified + "\":" + String(now) + "}"
        var argument = "{"
        argument.reserveCapacity(patches.count * 160)
        let unsorted = JSONValue.WriteOptions(sortedKeys: false)
        for (index, entryID) in patches.keys.sorted().enumerated() {
            guard var patch = patches[entryID] else { continue }
            patch[SoupPath.lastModified] = nil
            if index > 0 { argument += "," }
            argument += "\"" + String(entryID) + "\":"
            if patch.isEmpty {
                argument += "{" + stamp.dropFirst()
            } else {
                JSONValue.object(patch).write(to: &argument, options: unsorted)
                argument.removeLast()
                argument += stamp
            }
        }
        argument += "}"
        return try rewrite(
            soup,
            argument: argument,
            document: "json_patch(t.soup, p.value)",
            members: members,
            now: now,
            stampsInDocument: true
        )
    }

    /// Sets the top-level member `member` of the documents of some entries to whole values (not
    /// merged), in one set-based `UPDATE`, like ``patchEntries(_:in:)``.
    ///
    /// - Parameter values: The value of each entry, by `_soupEntryId`; entries that do not exist
    ///   are skipped.
    /// - Throws: `SoupStoreError` (`.unknownSoup`, `.invalidPath`, `.sqlite`).
    @discardableResult
    public func setMember(_ member: String, to values: [Int64: JSONValue], in soup: String) throws
        -> EntryPatchResult
    {
        try SoupPath.validate(member)
        let argument = JSONValue.object(
            JSONObject(values.sorted { $0.key < $1.key }.map { (String($0.key), $0.value) })
        )
        // json_each gives scalars as SQL values (booleans as 1 and 0): give them back their JSON kind.
        let value =
            "CASE p.type WHEN 'true' THEN json('true') WHEN 'false' THEN json('false') WHEN 'null' THEN json('null') "
            + "WHEN 'object' THEN json(p.value) WHEN 'array' THEN json(p.value) ELSE p.value END"
        return try rewrite(
            soup,
            argument: argument.jsonText,
            document: "json_set(t.soup, \(SoupPath.jsonPathLiteral(member)), \(value))",
            members: [member],
            now: Self.now(),
            stampsInDocument: false
        )
    }

    /// Rewrites the entries keyed in the JSON object `argument` (`_soupEntryId` → value `p`) to
    /// `document` (an expression of the stored `t.soup` and `p.value` / `p.type`), recomputing the
    /// index columns whose path starts with one of `members`. `now` becomes the entries'
    /// `_soupLastModifiedDate`: set in the document here unless `stampsInDocument` (then
    /// `document` already holds it).
    private func rewrite(
        _ soup: String,
        argument: String,
        document: String,
        members: Set<String>,
        now: Int64,
        stampsInDocument: Bool
    ) throws -> EntryPatchResult {
        let layout = try layout(soup)
        let ids = "SELECT CAST(key AS INTEGER) FROM json_each(?1)"
        var previous: [Int64: Int64] = [:]
        let read = try db.cachedStatement(sql: "SELECT id, lastModified FROM \(layout.tableName) WHERE id IN (\(ids))")
        let rows = try Row.fetchCursor(read, arguments: [argument])
        while let row = try rows.next() { previous[row[0]] = row[1] }
        guard !previous.isEmpty else { return EntryPatchResult(previousLastModified: [:], lastModified: now) }

        let changed = members.union([SoupPath.lastModified])
        let columns = layout.columns.filter { index in
            SoupPath.segments(index.path).first.map { changed.contains(String($0)) } ?? false
        }
        let assignments = columns.map { "\($0.columnName) = \(SoupProjection.sql(for: $0, document: "n.doc"))" }
        let stamped =
            stampsInDocument ? document : "json_set(\(document), '$.\(SoupPath.lastModified)', ?2)"
        let update = try db.cachedStatement(
            sql: """
                WITH n AS MATERIALIZED (SELECT t.id AS eid, \(stamped) AS doc FROM json_each(?1) AS p \
                JOIN \(layout.tableName) AS t ON t.id = CAST(p.key AS INTEGER)) \
                UPDATE \(layout.tableName) SET soup = n.doc, lastModified = ?2\
                \(assignments.map { ", " + $0 }.joined()) FROM n WHERE \(layout.tableName).id = n.eid
                """
        )
        try update.execute(arguments: [argument, now])
        if columns.contains(where: { $0.type == .fullText }) {
            try FullText.refresh(db, layout: layout, idsSQL: ids, arguments: [argument])
        }
        return EntryPatchResult(previousLastModified: previous, lastModified: now)
    }
}

extension SoupReader {
    /// The entries with these `_soupEntryId`s that exist, in `_soupEntryId` order, in one statement.
    ///
    /// - Throws: `SoupStoreError` (`.unknownSoup`).
    public func entries(withIDs entryIDs: [Int64], in soup: String) throws -> [SoupEntry] {
        guard !entryIDs.isEmpty else { return [] }
        let layout = try layout(soup)
        let statement = try db.cachedStatement(
            sql: """
                SELECT id, created, lastModified, soup FROM \(layout.tableName) \
                WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id
                """
        )
        return try Row.fetchAll(statement, arguments: [Self.idList(entryIDs)]).map(Self.entry)
    }

    /// The `_soupLastModifiedDate` of the entries with these `_soupEntryId`s that exist, in one
    /// statement.
    ///
    /// - Throws: `SoupStoreError` (`.unknownSoup`).
    public func lastModifiedDates(of entryIDs: [Int64], in soup: String) throws -> [Int64: Int64] {
        guard !entryIDs.isEmpty else { return [:] }
        let layout = try layout(soup)
        let statement = try db.cachedStatement(
            sql: "SELECT id, lastModified FROM \(layout.tableName) WHERE id IN (SELECT value FROM json_each(?))"
        )
        var dates: [Int64: Int64] = [:]
        let rows = try Row.fetchCursor(statement, arguments: [Self.idList(entryIDs)])
        while let row = try rows.next() { dates[row[0]] = row[1] }
        return dates
    }

    private static func idList(_ entryIDs: [Int64]) -> String {
        "[" + entryIDs.map(String.init).joined(separator: ",") + "]"
    }
}
