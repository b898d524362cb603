import GRDB
import JSONCore

/// What ``SoupWriter/patchEntries(_:in:lastModified:)`` and ``SoupWriter/setMember(_:to:in:)`` did.
public struct EntryPatchResult: Sendable, Hashable {
    /// The `_soupLastModifiedDate` each rewritten entry had before, by `_soupEntryId`; entries that
    /// do not exist are absent (and were not written).
    public var previousLastModified: [Int64: Int64]
    /// The `_soupLastModifiedDate` every rewritten entry has now.
    public var lastModified: Int64
}

extension SoupWriter {
    /// Merge-patches the documents of some entries (RFC 7396, SQLite's `json_patch`): each member
    /// of an entry's patch replaces the document's top-level member of that name, and `null`
    /// removes it. Objects merge into objects (RFC 7396), so give scalar values (or use
    /// ``setMember(_:to:in:)``) to replace one.
    ///
    /// `_soupLastModifiedDate` is set; only the index columns (and FTS row) whose path starts with
    /// a patched member are recomputed, in the same statement. One prepared `UPDATE` per shape of
    /// patch runs once per entry (measured cheaper than one set-based statement through
    /// `json_each`: no patch text to cut out of a batch-wide argument, no materialized documents,
    /// and an index column of a member the patch replaces is read from the small patch, not the
    /// merged document). The statements are cached on the connection, so a batch after the
    /// first prepares nothing.
    ///
    /// - Parameters:
    ///   - patches: The patch of each entry, by `_soupEntryId`; entries that do not exist are
    ///     skipped.
    ///   - lastModified: The entries' `_soupLastModifiedDate` when the caller has just read them in
    ///     this transaction (``SoupReader/lastModifiedDates(of:in:)``); an entry absent from it is
    ///     taken as not existing. `nil`: read here.
    /// - Throws: `SoupStoreError` (`.unknownSoup`, `.sqlite`).
    @discardableResult
    public func patchEntries(
        _ patches: [Int64: JSONObject],
        in soup: String,
        lastModified known: [Int64: Int64]? = nil
    ) throws -> EntryPatchResult {
        let layout = try layout(soup)
        let now = Self.now()
        let entryIDs = patches.keys.sorted()
        let previous =
            try known.map { known in
                Dictionary(uniqueKeysWithValues: entryIDs.compactMap { id in known[id].map { (id, $0) } })
            } ?? reader.lastModifiedDates(of: entryIDs, in: soup)
        guard !previous.isEmpty else { return EntryPatchResult(previousLastModified: [:], lastModified: now) }

        // One cached UPDATE per shape of patch (its members, and which of them hold objects), run
        // once per entry: SQLite merges each patch into its document, and the index columns of
        // the patched members are computed from the patch itself where that gives the new value
        // (a one-segment path whose member the patch replaces), else from the merged document.
        let stamp = "\"" + SoupPath.lastModified + "\":" + String(now) + "}"
        let unsorted = JSONValue.WriteOptions(sortedKeys: false)
        var members = Set<String>()
        var statements: [PatchShape: Statement] = [:]
        // Patches of a batch mostly share one shape: compare with the last one before hashing.
        var last: (keys: [String], objects: [Bool], statement: Statement)?
        var (text, keys, objects) = ("", [String](), [Bool]())
        for entryID in entryIDs where previous[entryID] != nil {
            guard let patch = patches[entryID] else { continue }
            text.removeAll(keepingCapacity: true)
            keys.removeAll(keepingCapacity: true)
            objects.removeAll(keepingCapacity: true)
            text += "{"
            for (member, value) in patch where member != SoupPath.lastModified {
                JSONWriter.appendQuoted(member, to: &text)
                text += ":"
                value.write(to: &text, options: unsorted)
                text += ","
                keys.append(member)
                if case .object = value { objects.append(true) } else { objects.append(false) }
            }
            text += stamp
            let update: Statement
            if let last, last.keys == keys, last.objects == objects {
                update = last.statement
            } else {
                let shape = PatchShape(members: Dictionary(zip(keys, objects)) { $1 })
                if let known = statements[shape] {
                    update = known
                } else {
                    update = try db.cachedStatement(sql: patchSQL(for: shape, layout: layout))
                    statements[shape] = update
                }
                members.formUnion(keys)
                last = (keys, objects, update)
            }
            try update.execute(arguments: [text, now, entryID])
        }
        members.insert(SoupPath.lastModified)
        try refreshFullText(of: previous.keys, members: members, layout: layout)
        return EntryPatchResult(previousLastModified: previous, lastModified: now)
    }

    /// The members of a patch, and whether each holds an object (merged, not replaced).
    private struct PatchShape: Hashable {
        var members: [String: Bool]
    }

    /// `UPDATE` of one entry (`?3`) by the patch `?1` (holding `_soupLastModifiedDate` `?2`).
    private func patchSQL(for shape: PatchShape, layout: SoupLayout) -> String {
        var assignments = ""
        for index in layout.columns {
            guard let first = SoupPath.segments(index.path).first.map(String.init) else { continue }
            let isStamp = first == SoupPath.lastModified
            guard isStamp || shape.members[first] != nil else { continue }
            let replaced = isStamp || shape.members[first] == false
            let fromPatch = replaced && SoupPath.segments(index.path).count == 1
            let document = fromPatch ? "?1" : "json_patch(soup, ?1)"
            assignments += ", \(index.columnName) = \(SoupProjection.sql(for: index, document: document))"
        }
        return
            "UPDATE \(layout.tableName) SET soup = json_patch(soup, ?1), lastModified = ?2\(assignments) WHERE id = ?3"
    }

    /// Sets the top-level member `member` of the documents of some entries to whole values (not
    /// merged), with one prepared `UPDATE` run per entry, like ``patchEntries(_:in:lastModified:)``.
    ///
    /// - Parameter values: The value of each entry, by `_soupEntryId`; entries that do not exist
    ///   are skipped.
    /// - Throws: `SoupStoreError` (`.unknownSoup`, `.invalidPath`, `.sqlite`).
    @discardableResult
    public func setMember(_ member: String, to values: [Int64: JSONValue], in soup: String) throws
        -> EntryPatchResult
    {
        try SoupPath.validate(member)
        let layout = try layout(soup)
        let now = Self.now()
        let entryIDs = values.keys.sorted()
        let previous = try reader.lastModifiedDates(of: entryIDs, in: soup)
        guard !previous.isEmpty else { return EntryPatchResult(previousLastModified: [:], lastModified: now) }

        // `json(?1)` gives the value its JSON kind (a string's text is quoted, as written).
        let document =
            "json_set(soup, \(SoupPath.jsonPathLiteral(member)), json(?1), '$.\(SoupPath.lastModified)', ?2)"
        let members: Set<String> = [member, SoupPath.lastModified]
        var assignments = ""
        for index in layout.columns {
            guard let first = SoupPath.segments(index.path).first.map(String.init), members.contains(first) else {
                continue
            }
            assignments += ", \(index.columnName) = \(SoupProjection.sql(for: index, document: document))"
        }
        let update = try db.cachedStatement(
            sql: "UPDATE \(layout.tableName) SET soup = \(document), lastModified = ?2\(assignments) WHERE id = ?3"
        )
        var text = ""
        for entryID in entryIDs where previous[entryID] != nil {
            guard let value = values[entryID] else { continue }
            text.removeAll(keepingCapacity: true)
            value.write(to: &text)
            try update.execute(arguments: [text, now, entryID])
        }
        try refreshFullText(of: previous.keys, members: members, layout: layout)
        return EntryPatchResult(previousLastModified: previous, lastModified: now)
    }

    /// Rewrites the full-text rows of `entryIDs` when an FTS column's path starts with one of
    /// `members`.
    private func refreshFullText(
        of entryIDs: Dictionary<Int64, Int64>.Keys,
        members: Set<String>,
        layout: SoupLayout
    ) throws {
        guard
            layout.columns.contains(where: { index in
                index.type == .fullText
                    && SoupPath.segments(index.path).first.map { members.contains(String($0)) } == true
            })
        else { return }
        try FullText.refresh(
            db,
            layout: layout,
            idsSQL: "SELECT value FROM json_each(?1)",
            arguments: [SoupReader.idList(entryIDs.sorted())]
        )
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

    /// The JSON array of `entryIDs`, for `json_each` in an `IN` clause.
    static func idList(_ entryIDs: [Int64]) -> String {
        "[" + entryIDs.map(String.init).joined(separator: ",") + "]"
    }
}
