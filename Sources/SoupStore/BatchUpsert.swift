import GRDB

/// The set-based upsert behind every write of JSON documents: one batch of documents (a JSON
/// array, or the `records` array of a query page) is split, keyed, merged and written by a fixed
/// number of SQL statements, whatever its size. No document is parsed in Swift.
///
/// Steps: split the source with `json_each` into a temp table, computing each document's key;
/// check every element is an object with a key; keep the last of same-key duplicates; look up
/// existing entries (through the key's index) and their `__local__` flag; drop the locally
/// changed ones when leaving changed entries alone; assign ids; write the final documents with
/// `_soupEntryId` / `_soupLastModifiedDate` (and control fields) set; update, then insert, with
/// every index column computed from the final document in the same statement; refresh FTS rows.
package struct BatchUpsert {
    /// How documents are matched with stored entries.
    package enum Key: Equatable {
        /// By `_soupEntryId`: update that entry if it exists; otherwise insert, keeping the given id.
        case entryID
        /// By the value at an indexed path (an external id such as `Id`).
        case path(String)
    }

    /// How control fields are treated.
    package enum Control: Equatable {
        /// Documents are stored as given.
        case asGiven
        /// Server records (sync-semantics §4.6): flags false, `__last_error__` removed, and
        /// `__sync_id__` set when an id is given.
        case serverRecord(syncID: Int64?)
    }

    package var key: Key
    package var control: Control
    package var localEntries: LocalEntries
    package var modificationDateField: String?
    package var collectEntryIDs: Bool = false

    package init(
        key: Key,
        control: Control,
        localEntries: LocalEntries,
        modificationDateField: String? = nil,
        collectEntryIDs: Bool = false
    ) {
        self.key = key
        self.control = control
        self.localEntries = localEntries
        self.modificationDateField = modificationDateField
        self.collectEntryIDs = collectEntryIDs
    }

    package struct Result {
        package var inserted = 0
        package var updated = 0
        package var skipped = 0
        /// Records whose stored entry already held exactly what the write would store (not rewritten).
        package var unchanged = 0
        package var maxModificationDate: SoupValue = .null
        package var entryIDs: [Int64] = []
    }

    private static let table = "temp.syncrun_batch"

    /// The SQL that keys documents and matches them with stored entries, shared by `run` and the
    /// read-only preview (`SoupReader.previewPage`), so both decide the same way.
    package struct Matching {
        /// The key of a document `value` (from `json_each`).
        package var keyExpression: String
        /// The stored key of entry `t`.
        package var storedKey: String
        /// True when entry `t` has local changes.
        package var isLocal: String
    }

    /// Validates the key and builds its matching SQL for `layout`.
    package func matching(layout: SoupLayout) throws -> Matching {
        let keyIndex: SoupLayout.Index?
        switch key {
        case .entryID:
            keyIndex = nil
        case .path(let path):
            try SoupPath.validate(path)
            guard let index = layout.index(forPath: path) else {
                throw SoupStoreError.unindexedExternalIDPath(path, soup: layout.name)
            }
            keyIndex = index
        }
        let keyExpression =
            keyIndex.map { SoupProjection.sql(for: $0, document: "value") }
            ?? "json_extract(value, '$.\(SoupPath.entryID)')"
        let stored: String
        switch keyIndex {
        case nil: stored = "t.id"
        case let index? where index.type == .json1:
            stored = "json_extract(t.soup, \(SoupPath.jsonPathLiteral(index.path)))"
        case let index?: stored = "t.\(index.columnName)"
        }
        return Matching(
            keyExpression: keyExpression,
            storedKey: stored,
            isLocal: ControlFields.predicate(ControlFields.local, is: true, in: layout, table: "t")
        )
    }

    package func run(_ db: Database, layout: SoupLayout, source: String, now: Int64) throws -> Result {
        let sourcePath = try Self.sourcePath(db, source: source)
        let matching = try matching(layout: layout)
        if let modificationDateField { try SoupPath.validate(modificationDateField) }

        try db.execute(
            sql: """
                CREATE TEMP TABLE IF NOT EXISTS syncrun_batch (ord INTEGER PRIMARY KEY, raw TEXT, type TEXT, \
                ext, existing INTEGER, matches INTEGER, isLocal INTEGER, eid INTEGER, doc TEXT, same INTEGER);
                DELETE FROM \(Self.table);
                """
        )
        defer { try? db.execute(sql: "DELETE FROM \(Self.table)") }

        // 1. Split, key, and look up stored entries, in one pass over the source.
        let (keyExpression, isLocal, stored) = (matching.keyExpression, matching.isLocal, matching.storedKey)
        try db.execute(
            sql: """
                INSERT INTO \(Self.table) (ord, raw, type, ext, existing, matches, isLocal)
                SELECT s.ord, s.raw, s.type, s.ext, min(t.id), count(t.id), \
                coalesce(max(CASE WHEN \(isLocal) THEN 1 ELSE 0 END), 0)
                FROM (SELECT key AS ord, value AS raw, type, CASE type WHEN 'object' THEN \(keyExpression) END AS ext \
                FROM json_each(?, '\(sourcePath)')) AS s
                LEFT JOIN \(layout.tableName) AS t ON \(stored) = s.ext
                GROUP BY s.ord
                """,
            arguments: [source]
        )

        // 2. Check shapes and keys.
        if let bad = try Row.fetchOne(
            db,
            sql: "SELECT ord, type FROM \(Self.table) WHERE type != 'object' ORDER BY ord LIMIT 1"
        ) {
            throw SoupStoreError.notAnObject(entry: (bad[0] as Int) + 1, found: bad[1] ?? "null")
        }
        if case .path(let path) = key,
            let missing = try Int.fetchOne(
                db,
                sql: "SELECT ord FROM \(Self.table) WHERE ext IS NULL ORDER BY ord LIMIT 1"
            )
        {
            throw SoupStoreError.missingExternalID(entry: missing + 1, path: path)
        }
        if case .path(let path) = key,
            let ambiguous = try Row.fetchOne(
                db,
                sql: "SELECT ord, matches FROM \(Self.table) WHERE matches > 1 ORDER BY ord LIMIT 1"
            )
        {
            throw SoupStoreError.ambiguousExternalID(
                entry: (ambiguous[0] as Int) + 1,
                path: path,
                soup: layout.name,
                count: ambiguous[1]
            )
        }

        // 3. Same key twice in one batch: the last one wins, as sequential upserts would give.
        try db.execute(
            sql: """
                DELETE FROM \(Self.table) WHERE ord IN (SELECT ord FROM (SELECT ord, row_number() OVER \
                (PARTITION BY ext ORDER BY ord DESC) AS rn FROM \(Self.table) WHERE ext IS NOT NULL) WHERE rn > 1)
                """
        )

        var result = Result()
        if localEntries == .keep {
            // The rows `LocalEntries.skips(matched:entryIsLocal:)` drops, as one statement.
            try db.execute(sql: "DELETE FROM \(Self.table) WHERE existing IS NOT NULL AND isLocal = 1")
            result.skipped = db.changesCount
        }

        // 4. Ids and final documents: stored entries keep their ids, given ids are kept, the rest
        // continue the sequence. Each row is rewritten once.
        let known = key == .entryID ? "coalesce(existing, CAST(ext AS INTEGER))" : "existing"
        try db.execute(
            sql: "UPDATE \(Self.table) SET eid = \(known), doc = \(documentExpression(entryID: known)) "
                + "WHERE \(known) IS NOT NULL",
            arguments: [now]
        )
        let base =
            try Int64.fetchOne(
                db,
                sql: """
                    SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = ?), 0), \
                    coalesce((SELECT max(eid) FROM \(Self.table)), 0))
                    """,
                arguments: [layout.tableName]
            ) ?? 0
        try db.execute(
            sql: """
                UPDATE \(Self.table) SET eid = ?2 + r.rn, doc = \(documentExpression(entryID: "?2 + r.rn")) \
                FROM (SELECT ord AS o, row_number() OVER (ORDER BY ord) AS rn FROM \(Self.table) WHERE eid IS NULL) AS r \
                WHERE \(Self.table).ord = r.o
                """,
            arguments: [now, base]
        )

        // 5. A server record sent again exactly as stored (a tie-safe resync re-reads the records
        // at its watermark) is not rewritten, and counted as unchanged.
        if case .serverRecord = control {
            try db.execute(
                sql: """
                    UPDATE \(Self.table) SET same = 1 WHERE existing IS NOT NULL AND EXISTS \
                    (SELECT 1 FROM \(layout.tableName) AS t WHERE t.id = \(Self.table).eid AND \
                    \(Self.unstamped("t.soup")) = \(Self.unstamped("\(Self.table).doc")))
                    """
            )
        }
        let counts = try Row.fetchOne(
            db,
            sql: "SELECT count(existing) - count(same), count(*) - count(existing), count(same) FROM \(Self.table)"
        )
        result.updated = counts?[0] ?? 0
        result.inserted = counts?[1] ?? 0
        result.unchanged = counts?[2] ?? 0
        if let field = modificationDateField {
            let value =
                try DatabaseValue.fetchOne(
                    db,
                    sql: "SELECT max(json_extract(doc, '$.\(field)')) FROM \(Self.table)"
                ) ?? .null
            result.maxModificationDate = SoupValue(value)
        }

        // 7. Write.
        let columns = layout.columns
        let assignments = columns.map {
            "\($0.columnName) = \(SoupProjection.sql(for: $0, document: "\(Self.table).doc"))"
        }
        try db.execute(
            sql: """
                UPDATE \(layout.tableName) SET soup = \(Self.table).doc, lastModified = ?\
                \(assignments.isEmpty ? "" : ", " + assignments.joined(separator: ", ")) \
                FROM \(Self.table) WHERE \(Self.table).existing IS NOT NULL AND \(Self.table).same IS NULL \
                AND \(layout.tableName).id = \(Self.table).eid
                """,
            arguments: [now]
        )
        let columnNames = (["id", "soup", "created", "lastModified"] + columns.map(\.columnName))
            .joined(separator: ", ")
        let values = (["eid", "doc", "?1", "?1"] + columns.map { SoupProjection.sql(for: $0, document: "doc") })
            .joined(separator: ", ")
        try db.execute(
            sql: """
                INSERT INTO \(layout.tableName) (\(columnNames)) SELECT \(values) FROM \(Self.table) \
                WHERE existing IS NULL ORDER BY ord
                """,
            arguments: [now]
        )
        if layout.hasFullTextTable {
            try FullText.refresh(db, layout: layout, idsSQL: "SELECT eid FROM \(Self.table)")
        }
        if collectEntryIDs {
            result.entryIDs = try Int64.fetchAll(db, sql: "SELECT eid FROM \(Self.table) ORDER BY ord")
        }
        return result
    }

    /// Whether stored entry `t` already holds exactly the document this upsert would write for
    /// the page record `raw` (as text), but for `_soupLastModifiedDate`: compared as SQLite renders
    /// both, which for a compact server response is the bytes the one-pass write compares.
    package func storesSameDocument(raw: String) -> String {
        let document = documentExpression(entryID: "t.id", raw: raw, stamped: false)
        return "(\(Self.unstamped("t.soup")) = json(\(document)))"
    }

    /// `document` without its `_soupLastModifiedDate`.
    private static func unstamped(_ document: String) -> String {
        "json_remove(\(document), '$.\(SoupPath.lastModified)')"
    }

    /// The final document: control fields per `control`, then `_soupEntryId` and
    /// `_soupLastModifiedDate` (bound as `?1`, left out when not `stamped`).
    private func documentExpression(entryID: String, raw: String = "raw", stamped: Bool = true) -> String {
        let stamps = "'$.\(SoupPath.entryID)', \(entryID)" + (stamped ? ", '$.\(SoupPath.lastModified)', ?1" : "")
        switch control {
        case .asGiven:
            return "json_set(\(raw), \(stamps))"
        case .serverRecord(let syncID):
            let flags = [
                ControlFields.local, ControlFields.locallyCreated, ControlFields.locallyUpdated,
                ControlFields.locallyDeleted,
            ].map { "'$.\($0)', json('false')" }.joined(separator: ", ")
            let sync = syncID.map { ", '$.\(ControlFields.syncID)', \($0)" } ?? ""
            // json_remove only when the key can be there: it costs a parse and a rewrite.
            let cleaned =
                "CASE WHEN instr(\(raw), '\"\(ControlFields.lastError)\"') > 0 "
                + "THEN json_remove(\(raw), '$.\(ControlFields.lastError)') ELSE \(raw) END"
            return "json_set(\(cleaned), \(flags)\(sync), \(stamps))"
        }
    }

    /// `'$'` for an array, `'$.records'` for a query page; throws for anything else.
    package static func sourcePath(_ db: Database, source: String) throws -> String {
        let row = try Row.fetchOne(
            db,
            sql: "SELECT json_valid(?1), CASE WHEN json_valid(?1) THEN json_type(?1) END, "
                + "CASE WHEN json_valid(?1) THEN json_type(?1, '$.records') END",
            arguments: [source]
        )
        guard let row, (row[0] as Bool?) == true else {
            throw JSONSyntaxScanner.firstError(in: source)
                ?? SoupStoreError.malformedJSON(line: 1, column: 1, "not valid JSON")
        }
        let type: String = row[1] ?? "null"
        if type == "array" { return "$" }
        if type == "object", (row[2] as String?) == "array" { return "$.records" }
        throw SoupStoreError.notAnArray(found: type == "object" ? "an object without a 'records' array" : type)
    }
}
