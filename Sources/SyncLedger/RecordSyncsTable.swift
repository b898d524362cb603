import GRDB
import SoupStore

/// The side table that remembers, per soup record, every sync down that fetched it
/// (sync-semantics §11 item 8).
///
/// MobileSync keeps only `__sync_id__`, the last sync that wrote a record, so cleaning the ghosts
/// of one sync can delete a record another sync still returns. `syncrun_record_syncs` keeps the
/// whole set; ghost cleaning deletes a record only when no sync in its set still returns it.
/// The table is ours (SmartStore ignores tables it does not know) and is written in the same
/// transaction as the page it describes.
///
/// The store's one-pass page write fills it in the same statements pass as the soup rows, through
/// the statement the ledger gives it (``insert``, a ``PageKeysTarget``).
enum RecordSyncsTable {
    static let name = "syncrun_record_syncs"

    /// One fetched record, as a ``PageKeysTarget`` statement (`?1` soup, `?2` id, `?3` sync).
    static let insert = "INSERT OR IGNORE INTO \(name) (soup_name, record_id, sync_id) VALUES (?1, ?2, ?3)"

    /// `'$'` for a JSON array source, `'$.records'` for a query page, as SQL over `?3`.
    static let recordsPath = PageKeysTarget.recordsPath
}

extension SoupWriter {
    /// Remembers that sync `syncID` fetched the records of `page` into `soup`.
    ///
    /// Call it in the same `write` as `upsertPage`, with the same page text.
    ///
    /// - Parameters:
    ///   - page: A query response (`{"records": […]}`) or a JSON array of records.
    ///   - soup: The soup the records went to.
    ///   - idPath: The id field (`Id`).
    ///   - syncID: The sync's id.
    /// - Throws: `SoupStoreError` (`.invalidPath`, `.sqlite`).
    public func recordFetchedIDs(of page: String, in soup: String, idPath: String, syncID: Int64) throws {
        try SoupPath.validate(idPath)
        try db.execute(
            sql: """
                INSERT OR IGNORE INTO \(RecordSyncsTable.name) (soup_name, record_id, sync_id)
                SELECT ?1, CAST(json_extract(value, ?4) AS TEXT), ?2 FROM json_each(?3, \(RecordSyncsTable.recordsPath))
                WHERE type = 'object' AND json_extract(value, ?4) IS NOT NULL
                """,
            arguments: [soup, syncID, page, "$.\(idPath)"]
        )
    }
}
