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
    /// Whether to also remember, in the same statements pass, that `syncID` fetched every record
    /// of the page (what ``SoupWriter/recordFetchedIDs(of:in:idPath:syncID:)`` does with
    /// `externalIDPath`), saving a second pass over the page. Ignored without a `syncID`.
    public var recordsFetchedIDs: Bool

    /// Creates options; defaults match MobileSync's.
    public init(
        externalIDPath: String = "Id",
        localEntries: LocalEntries = .overwrite,
        syncID: Int64? = nil,
        modificationDateField: String? = "LastModifiedDate",
        recordsFetchedIDs: Bool = false
    ) {
        self.externalIDPath = externalIDPath
        self.localEntries = localEntries
        self.syncID = syncID
        self.modificationDateField = modificationDateField
        self.recordsFetchedIDs = recordsFetchedIDs
    }
}

/// What `upsertPage` did.
public struct PageUpsertResult: Sendable, Hashable {
    /// Records stored as new entries.
    public var inserted: Int
    /// Records that replaced stored entries.
    public var updated: Int
    /// Records dropped because their entry has local changes (``LocalEntries/keep`` only).
    public var skipped: Int
    /// The largest value of the modification-date field among saved records (skipped ones
    /// excluded), as stored in the records (Salesforce: ISO-8601 text); `.null` when none.
    public var maxModificationDate: SoupValue

    /// Records saved (`inserted + updated`).
    public var saved: Int { inserted + updated }

    /// Creates a result.
    public init(inserted: Int, updated: Int, skipped: Int, maxModificationDate: SoupValue) {
        self.inserted = inserted
        self.updated = updated
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
        let syncID = options.syncID.flatMap { $0 >= 0 ? $0 : nil }
        let layout = try layout(soup)
        let now = Self.now()
        let fetchedBy = options.recordsFetchedIDs ? options.syncID : nil
        // A bulk load of this soup (docs/store.md): this sync's pages skip the lookups; anything
        // else first ends the load, so that it finds the soup merged and indexed.
        var isBulkLoad = false
        if let load = try BulkLoadTables.load(db, soup: soup) {
            if load.syncID == syncID, load.keyPath == options.externalIDPath, fetchedBy != nil {
                isBulkLoad = true
            } else {
                try finishBulkLoad(of: soup)
            }
        }
        var direct = DirectPageUpsert(
            keyPath: options.externalIDPath,
            syncID: syncID,
            localEntries: options.localEntries,
            modificationDateField: options.modificationDateField,
            fetchedBySyncID: fetchedBy
        )
        direct.isBulkLoad = isBulkLoad
        if let result = try direct.run(db, layout: layout, page: page, now: now) {
            return PageUpsertResult(
                inserted: result.inserted,
                updated: result.updated,
                skipped: result.skipped,
                maxModificationDate: result.maxModificationDate
            )
        }
        // Pages of another shape (or in error): set-based SQL over the page text, which looks
        // records up (so a bulk load ends first).
        if isBulkLoad { try finishBulkLoad(of: soup) }
        let upsert = BatchUpsert(
            key: .path(options.externalIDPath),
            control: .serverRecord(syncID: syncID),
            localEntries: options.localEntries,
            modificationDateField: options.modificationDateField
        )
        let result = try upsert.run(db, layout: layout, source: page, now: now)
        if let fetchedBy {
            try recordFetchedIDs(of: page, in: soup, idPath: options.externalIDPath, syncID: fetchedBy)
        }
        return PageUpsertResult(
            inserted: result.inserted,
            updated: result.updated,
            skipped: result.skipped,
            maxModificationDate: result.maxModificationDate
        )
    }
}
