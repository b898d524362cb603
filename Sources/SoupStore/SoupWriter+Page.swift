/// How `upsertPage` saves server records.
public struct PageUpsertOptions: Sendable, Hashable {
    /// The indexed path identifying records (the target's `idFieldName`, default `Id`).
    public var externalIDPath: String
    /// What happens to a stored entry that has `__local__` set (the sync's merge mode).
    public var localEntries: LocalEntries
    /// The sync's id, written as `__sync_id__` (omitted when `nil` or negative).
    public var syncID: Int64?
    /// The field whose maximum over saved records is reported (default `LastModifiedDate`);
    /// `nil` to skip.
    public var modificationDateField: String?
    /// When set, the key of every record of the page (kept, skipped or repeated) also goes to this
    /// table of the caller's, in the same statements pass and transaction (the sync ledger's
    /// record of which sync fetched which record).
    public var keys: PageKeysTarget?

    /// Creates options; defaults match MobileSync's.
    public init(
        externalIDPath: String = "Id",
        localEntries: LocalEntries = .overwrite,
        syncID: Int64? = nil,
        modificationDateField: String? = "LastModifiedDate",
        keys: PageKeysTarget? = nil
    ) {
        self.externalIDPath = externalIDPath
        self.localEntries = localEntries
        self.syncID = syncID
        self.modificationDateField = modificationDateField
        self.keys = keys
    }
}

/// What `upsertPage` did.
public struct PageUpsertResult: Sendable, Hashable {
    /// Records stored as new entries.
    public var inserted: Int
    /// Records that replaced stored entries.
    public var updated: Int
    /// Records whose stored entry already held exactly what the write would store (a record the
    /// server sent again unchanged): not rewritten, and not counted as updated.
    public var unchanged: Int
    /// Records dropped because their entry has local changes (``LocalEntries/keep`` only).
    public var skipped: Int
    /// The largest value of the modification-date field among saved records (skipped ones
    /// excluded), as stored in the records (Salesforce: ISO-8601 text); `.null` when none.
    public var maxModificationDate: SoupValue

    /// Records saved (`inserted + updated`; unchanged ones are not written).
    public var saved: Int { inserted + updated }

    /// Creates a result.
    public init(inserted: Int, updated: Int, skipped: Int, maxModificationDate: SoupValue, unchanged: Int = 0) {
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
        self.skipped = skipped
        self.maxModificationDate = maxModificationDate
    }
}

extension SoupWriter {
    /// Saves one page of server records the way sync down does (sync-semantics §4.5–§4.6), in
    /// a fixed number of SQL statements over the page text: no record is parsed in Swift.
    ///
    /// Each record is stored with `__local__`, `__locally_created__`, `__locally_updated__` and
    /// `__locally_deleted__` false, `__last_error__` removed and `__sync_id__` set, upserted by
    /// `options.externalIDPath`: a stored entry with the same id is replaced as a whole, unless
    /// it has local changes and `options.localEntries` is ``LocalEntries/keep``. Call it inside the same
    /// `write` as the sync state update, so records and state commit together.
    ///
    /// ```swift
    /// let result = try store.write { writer in
    ///     let result = try writer.upsertPage(pageJSON, into: "accounts", options: .init(syncID: state.id))
    ///     try writer.updateSyncState(state)
    ///     return result
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - page: A query response (`{"totalSize": …, "records": […]}`) or a JSON array of records.
    ///   - soup: The soup.
    /// - Throws: `SoupStoreError` (`.unknownSoup`, `.malformedJSON`, `.notAnObject`,
    ///   `.missingExternalID`, `.ambiguousExternalID`, `.invalidPath`). Nothing is written then.
    public func upsertPage(_ page: String, into soup: String, options: PageUpsertOptions = PageUpsertOptions())
        throws -> PageUpsertResult
    {
        let layout = try layout(soup)
        let now = Self.now()
        if let result = try directUpsert(options, appendsWithoutLookup: false).run(
            db,
            layout: layout,
            page: page,
            now: now
        ) {
            return PageUpsertResult(result)
        }
        // Pages of another shape (or in error): set-based SQL over the page text.
        let upsert = BatchUpsert(
            key: .path(options.externalIDPath),
            control: .serverRecord(syncID: Self.syncID(options)),
            localEntries: options.localEntries,
            modificationDateField: options.modificationDateField
        )
        let result = try upsert.run(db, layout: layout, source: page, now: now)
        if let keys = options.keys {
            try SoupPath.validate(options.externalIDPath)
            try keys.insertKeys(db, of: page, soup: soup, keyPath: options.externalIDPath)
        }
        return PageUpsertResult(result)
    }

    /// Appends one page of server records to a soup that holds none of them (a bulk load whose SQL
    /// indexes are suspended, ``suspendIndexes(of:)``): as ``upsertPage(_:into:options:)`` but with
    /// nothing looked up, every record inserted; a key that comes on two pages is stored twice,
    /// until ``rebuildIndexes(of:mergingBy:localEntries:)`` merges them. Returns `nil`, having
    /// written nothing, for a page or soup this one-pass write does not handle: write it with
    /// `upsertPage` once the indexes are back.
    ///
    /// - Throws: As `upsertPage`.
    public func appendPage(_ page: String, into soup: String, options: PageUpsertOptions) throws -> PageUpsertResult? {
        let layout = try layout(soup)
        let direct = directUpsert(options, appendsWithoutLookup: true)
        return try direct.run(db, layout: layout, page: page, now: Self.now()).map(PageUpsertResult.init)
    }

    private func directUpsert(_ options: PageUpsertOptions, appendsWithoutLookup: Bool) -> DirectPageUpsert {
        var direct = DirectPageUpsert(
            keyPath: options.externalIDPath,
            syncID: Self.syncID(options),
            localEntries: options.localEntries,
            modificationDateField: options.modificationDateField,
            keys: options.keys
        )
        direct.appendsWithoutLookup = appendsWithoutLookup
        return direct
    }

    /// The sync id written as `__sync_id__`: none when absent or negative.
    private static func syncID(_ options: PageUpsertOptions) -> Int64? {
        options.syncID.flatMap { $0 >= 0 ? $0 : nil }
    }
}

extension PageUpsertResult {
    init(_ result: BatchUpsert.Result) {
        self.init(
            inserted: result.inserted,
            updated: result.updated,
            skipped: result.skipped,
            maxModificationDate: result.maxModificationDate,
            unchanged: result.unchanged
        )
    }
}
