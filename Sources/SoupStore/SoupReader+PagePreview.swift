import GRDB

/// What `upsertPage` would do with one record of a page; see `SoupReader.previewPage`.
public struct PageRecordPreview: Sendable, Hashable {
    /// What would happen to the record.
    public enum Action: Sendable, Hashable {
        /// Stored as a new entry.
        case insert
        /// Replaces the stored entry.
        case update
        /// Dropped because the stored entry has local changes (``LocalEntries/keep``).
        case skip
        /// Left alone: the stored entry already holds exactly this record (the server sent it
        /// again unchanged), so nothing is written.
        case unchanged
    }

    /// The record's key (the value at the external id path) as text.
    public var recordID: String
    /// The stored entry it matches, when there is one.
    public var entryID: Int64?
    /// What would happen to it.
    public var action: Action

    /// Creates a record preview.
    public init(recordID: String, entryID: Int64?, action: Action) {
        self.recordID = recordID
        self.entryID = entryID
        self.action = action
    }
}

/// What `upsertPage` would do with one page, counted without writing.
public struct PagePreviewResult: Sendable, Hashable {
    /// Records in the page (duplicates of one key included).
    public var received: Int
    /// Records that would be stored as new entries.
    public var inserted: Int
    /// Records that would replace stored entries.
    public var updated: Int
    /// Records that would be dropped because their entry has local changes.
    public var skipped: Int
    /// Records the stored entries already hold exactly (not written, not counted as updated).
    public var unchanged: Int
    /// The first records (at most the limit asked for), in page order.
    public var records: [PageRecordPreview]

    /// Creates a result.
    public init(
        received: Int,
        inserted: Int,
        updated: Int,
        skipped: Int,
        records: [PageRecordPreview],
        unchanged: Int = 0
    ) {
        self.received = received
        self.inserted = inserted
        self.updated = updated
        self.skipped = skipped
        self.unchanged = unchanged
        self.records = records
    }
}

extension SoupReader {
    /// Decides, without writing anything, what `SoupWriter.upsertPage(_:into:options:)` would do
    /// with `page`: the same keys, the same matching of stored entries, the same "last of
    /// same-key duplicates wins" and the same `LEAVE_IF_CHANGED` rule, in one `SELECT` streamed
    /// row by row (no temporary table, so it runs in a read transaction).
    ///
    /// A soup that is not registered yet is taken as empty: every record would be inserted once it
    /// is registered.
    ///
    /// ```swift
    /// let preview = try store.read { reader in
    ///     try reader.previewPage(pageJSON, in: "accounts", options: .init(localEntries: .keep))
    /// }
    /// print(preview.inserted, preview.updated, preview.skipped)
    /// ```
    ///
    /// - Parameters:
    ///   - page: A query response (`{"records": […]}`) or a JSON array of records.
    ///   - soup: The soup `upsertPage` would write.
    ///   - options: As for `upsertPage` (its `syncID` is part of what a stored entry must already
    ///     hold to be unchanged); `modificationDateField` does not matter here.
    ///   - recordLimit: How many records to list in ``PagePreviewResult/records``.
    /// - Throws: `SoupStoreError`, as `upsertPage` would (`.malformedJSON`, `.notAnObject`,
    ///   `.missingExternalID`, `.ambiguousExternalID`, `.invalidPath`, `.unindexedExternalIDPath`).
    public func previewPage(
        _ page: String,
        in soup: String,
        options: PageUpsertOptions = PageUpsertOptions(),
        recordLimit: Int = 0
    ) throws -> PagePreviewResult {
        let sourcePath = try BatchUpsert.sourcePath(db, source: page)
        let path = options.externalIDPath
        try SoupPath.validate(path)
        let lookup: String
        if let layout = try SoupLayout.load(db, soup: soup) {
            let syncID = options.syncID.flatMap { $0 >= 0 ? $0 : nil }
            let upsert = BatchUpsert(
                key: .path(path),
                control: .serverRecord(syncID: syncID),
                localEntries: options.localEntries,
                modificationDateField: nil
            )
            let matching = try upsert.matching(layout: layout)
            let same = upsert.storesSameDocument(raw: "s.raw")
            lookup = """
                SELECT s.ord, s.type, s.ext, min(t.id) AS existing, count(t.id) AS matches, \
                coalesce(max(CASE WHEN \(matching.isLocal) THEN 1 ELSE 0 END), 0) AS isLocal, \
                coalesce(max(CASE WHEN t.id IS NOT NULL AND \(same) THEN 1 ELSE 0 END), 0) AS same
                FROM (SELECT key AS ord, value AS raw, type, \
                CASE type WHEN 'object' THEN \(matching.keyExpression) END AS ext \
                FROM json_each(?1, '\(sourcePath)')) AS s
                LEFT JOIN \(layout.tableName) AS t ON \(matching.storedKey) = s.ext
                GROUP BY s.ord
                """
        } else {
            lookup = """
                SELECT key AS ord, type, CASE type WHEN 'object' THEN json_extract(value, \
                \(SoupPath.jsonPathLiteral(path))) END AS ext, NULL AS existing, 0 AS matches, 0 AS isLocal, 0 AS same \
                FROM json_each(?1, '\(sourcePath)')
                """
        }
        let sql = """
            SELECT ord, type, CAST(ext AS TEXT), existing, matches, isLocal, \
            CASE WHEN ext IS NULL THEN 1 ELSE row_number() OVER (PARTITION BY ext ORDER BY ord DESC) END, same \
            FROM (\(lookup)) ORDER BY ord
            """
        var result = PagePreviewResult(received: 0, inserted: 0, updated: 0, skipped: 0, records: [])
        // upsertPage reports the first element that is not an object, then the first without a key,
        // then the first key matching several entries: keep the first of each, throw in that order.
        var notAnObject: (ord: Int, type: String)?
        var missingKey: Int?
        var ambiguous: (ord: Int, count: Int)?
        let cursor = try Row.fetchCursor(db, sql: sql, arguments: [page])
        while let row = try cursor.next() {
            let ord: Int = row[0]
            let type: String = row[1] ?? "null"
            result.received += 1
            guard type == "object" else {
                if notAnObject == nil { notAnObject = (ord, type) }
                continue
            }
            guard let recordID: String = row[2] else {
                if missingKey == nil { missingKey = ord }
                continue
            }
            let matches: Int = row[4]
            if matches > 1, ambiguous == nil { ambiguous = (ord, matches) }
            // A later record with the same key replaces this one within the page.
            guard (row[6] as Int) == 1 else { continue }
            let existing: Int64? = row[3]
            let action: PageRecordPreview.Action
            if existing == nil {
                action = .insert
                result.inserted += 1
            } else if options.localEntries.skips(matched: true, entryIsLocal: (row[5] as Int) == 1) {
                action = .skip
                result.skipped += 1
            } else if (row[7] as Int) == 1 {
                action = .unchanged
                result.unchanged += 1
            } else {
                action = .update
                result.updated += 1
            }
            if result.records.count < recordLimit {
                result.records.append(PageRecordPreview(recordID: recordID, entryID: existing, action: action))
            }
        }
        if let notAnObject { throw SoupStoreError.notAnObject(entry: notAnObject.ord + 1, found: notAnObject.type) }
        if let missingKey { throw SoupStoreError.missingExternalID(entry: missingKey + 1, path: path) }
        if let ambiguous {
            throw SoupStoreError.ambiguousExternalID(
                entry: ambiguous.ord + 1,
                path: path,
                soup: soup,
                count: ambiguous.count
            )
        }
        return result
    }
}
