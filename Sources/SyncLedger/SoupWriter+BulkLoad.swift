import Foundation
import GRDB
import SoupStore

/// A sync down into an empty soup writes its pages without the soup's SQL indexes and builds
/// them once at the end (docs/store.md, *Bulk load into an empty soup*): the store suspends and
/// rebuilds the indexes (``SoupWriter/suspendIndexes(of:)``, ``SoupWriter/rebuildIndexes(of:mergingBy:localEntries:)``);
/// the ledger keeps the books. While the load runs:
///
/// - `syncrun_bulk_loads` holds one row per soup being loaded (the sync, its id path, its merge
///   mode, the loading process). The soup's `soup_index_map` rows and index columns stay as they
///   are, so an app that opens the store sees the soup with all its index specs; only the SQL
///   indexes (`TABLE_N_created_idx`, `TABLE_N_lastModified_idx`, `TABLE_N_i_idx`) are absent.
/// - pages are appended without looking records up (the soup held none of them), and their ids
///   go to `syncrun_pending_record_syncs`, a plain append-only table.
///
/// ``finishBulkLoad(of:)`` then, in one transaction, creates the id column's index, merges the
/// records that came on two pages (modified while the query was paged) as an upsert would have,
/// creates the other indexes, moves the pending ids into `syncrun_record_syncs` in key order, and
/// deletes the row. It runs before the sync is `DONE`, when a page of another shape or another
/// sync's page reaches the soup, and when a store is opened after the loading process died
/// (``SoupStore/finishAbandonedBulkLoads()``), so a killed load is repaired by the next run.
enum BulkLoadTables {
    static let loads = "syncrun_bulk_loads"
    static let pending = "syncrun_pending_record_syncs"
    /// A fetched id appended during a load, in page order (sorted into the record-syncs table at
    /// its end), as a ``PageKeysTarget`` statement.
    static let pendingInsert = "INSERT INTO \(pending) (soup_name, record_id, sync_id) VALUES (?1, ?2, ?3)"

    /// This machine's host name (`gethostname`, as the sync engine's locks record it; no lookup).
    static var hostName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The load under way into `soup`, if any.
    static func load(_ db: Database, soup: String) throws -> BulkLoad? {
        guard try db.tableExists(loads) else { return nil }
        return try Row.fetchOne(
            db,
            sql: "SELECT sync_id, key_path, leave_if_changed, pid, host FROM \(loads) WHERE soup_name = ?",
            arguments: [soup]
        ).map { row in
            BulkLoad(
                soupName: soup,
                syncID: row[0],
                keyPath: row[1],
                localEntries: (row[2] as Bool) ? .keep : .overwrite,
                processID: row[3],
                hostName: row[4]
            )
        }
    }
}

/// A bulk load under way (a row of `syncrun_bulk_loads`).
public struct BulkLoad: Sendable, Hashable {
    /// The soup being loaded.
    public var soupName: String
    /// The sync writing it.
    public var syncID: Int64
    /// The id path records are merged by.
    public var keyPath: String
    /// What happens to a merged entry with local changes (the sync's merge mode).
    public var localEntries: LocalEntries
    /// The loading process.
    public var processID: Int32
    /// The loading process's host.
    public var hostName: String
}

extension SoupWriter {
    /// Starts a bulk load of `soup` by sync `syncID` when the soup is empty: drops its SQL
    /// indexes and records the load; the pages that sync writes with ``upsertPage(_:into:options:)``
    /// then skip the lookups. Returns `false`, doing nothing, when the soup holds an entry, has a
    /// full-text index, is not keyed by an indexed top-level `keyPath`, or is already being loaded.
    ///
    /// Call ``finishBulkLoad(of:)`` before marking the sync done.
    ///
    /// - Throws: `SoupStoreError` (`.unknownSoup`, `.sqlite`).
    public func beginBulkLoad(into soup: String, syncID: Int64, keyPath: String, localEntries: LocalEntries) throws
        -> Bool
    {
        guard try canLoadWithoutIndexes(soup, keyPath: keyPath), try BulkLoadTables.load(db, soup: soup) == nil else {
            return false
        }
        try suspendIndexes(of: soup)
        try db.execute(
            sql: "INSERT INTO \(BulkLoadTables.loads) VALUES (?, ?, ?, ?, ?, ?)",
            arguments: [
                soup, syncID, keyPath, localEntries == .keep, ProcessInfo.processInfo.processIdentifier,
                BulkLoadTables.hostName,
            ]
        )
        return true
    }

    /// Finishes the bulk load of `soup`, if one is under way: merges the records that came on two
    /// pages, creates the soup's SQL indexes, records the pending ids in `syncrun_record_syncs`
    /// and ends the load. Returns the number of entries merged into an earlier one.
    ///
    /// - Throws: `SoupStoreError` (`.unknownSoup`, `.sqlite`).
    @discardableResult
    public func finishBulkLoad(of soup: String) throws -> Int {
        guard let load = try BulkLoadTables.load(db, soup: soup) else { return 0 }
        let merged = try rebuildIndexes(of: soup, mergingBy: load.keyPath, localEntries: load.localEntries)
        try movePendingRecordSyncs(of: soup)
        try db.execute(sql: "DELETE FROM \(BulkLoadTables.loads) WHERE soup_name = ?", arguments: [soup])
        return merged
    }

    /// Saves one page a sync down fetched (``upsertPage(_:into:options:)`` with `options.syncID`
    /// set) and remembers, in the same statements pass, that the sync fetched every record of it
    /// (``RecordSyncsTable``). During this sync's bulk load of the soup the page is appended without
    /// lookups and its ids go to the pending table; anything else first ends a load under way, so
    /// that it finds the soup merged and indexed.
    ///
    /// With `deferringRecordSyncs`, the page's ids go to `syncrun_pending_record_syncs` (appended)
    /// instead, and ``recordDeferredRecordSyncs(of:syncID:)`` must move them, in key order, before
    /// the transaction commits: many pages of scattered ids then dirty each page of the record-syncs
    /// table and its index once, instead of once per page of ids.
    ///
    /// - Throws: `SoupStoreError` as `upsertPage`.
    public func upsertFetchedPage(
        _ page: String,
        into soup: String,
        options: PageUpsertOptions,
        deferringRecordSyncs: Bool = false
    ) throws -> PageUpsertResult {
        var options = options
        guard let syncID = options.syncID else { return try upsertPage(page, into: soup, options: options) }
        if let load = try BulkLoadTables.load(db, soup: soup) {
            if load.syncID == syncID, load.keyPath == options.externalIDPath {
                options.keys = PageKeysTarget(insertSQL: BulkLoadTables.pendingInsert, value: syncID)
                if let result = try appendPage(page, into: soup, options: options) { return result }
            }
            // A page of another shape or another sync's: the load ends first.
            try finishBulkLoad(of: soup)
        }
        let insert = deferringRecordSyncs ? BulkLoadTables.pendingInsert : RecordSyncsTable.insert
        options.keys = PageKeysTarget(insertSQL: insert, value: syncID)
        return try upsertPage(page, into: soup, options: options)
    }

    /// Moves the ids that ``upsertFetchedPage(_:into:options:deferringRecordSyncs:)`` deferred for
    /// sync `syncID` into `soup` to `syncrun_record_syncs`, in key order (each page of the table
    /// and of its index by sync is dirtied once), in the open transaction. Does nothing during a
    /// bulk load of `soup` (its end moves them).
    ///
    /// - Throws: `SoupStoreError` (`.sqlite`).
    public func recordDeferredRecordSyncs(of soup: String, syncID: Int64) throws {
        guard try BulkLoadTables.load(db, soup: soup) == nil else { return }
        try movePendingRecordSyncs(of: soup, syncID: syncID)
    }

    /// Moves the pending ids of `soup` (those of sync `syncID` only, when given) into
    /// `syncrun_record_syncs` in key order, and takes them off the pending table.
    private func movePendingRecordSyncs(of soup: String, syncID: Int64? = nil) throws {
        let filter = syncID == nil ? "soup_name = ?1" : "soup_name = ?1 AND sync_id = ?2"
        var arguments: StatementArguments = [soup]
        if let syncID { arguments += [syncID] }
        try db.execute(
            sql: """
                INSERT OR IGNORE INTO \(RecordSyncsTable.name) (soup_name, record_id, sync_id) \
                SELECT soup_name, record_id, sync_id FROM \(BulkLoadTables.pending) WHERE \(filter) \
                ORDER BY record_id, sync_id
                """,
            arguments: arguments
        )
        try db.execute(sql: "DELETE FROM \(BulkLoadTables.pending) WHERE \(filter)", arguments: arguments)
    }
}

extension SoupReader {
    /// The bulk load under way into `soup`, if any.
    public func bulkLoad(of soup: String) throws -> BulkLoad? {
        try BulkLoadTables.load(db, soup: soup)
    }
}

extension SoupStore {
    /// Finishes the bulk loads whose process is gone (killed mid-run): their soups get their SQL
    /// indexes and merged records back. A load whose process still runs on this host is left to it.
    ///
    /// - Throws: `SoupStoreError`.
    public func finishAbandonedBulkLoads() throws {
        let loads = try read { reader -> [BulkLoad] in
            guard try reader.db.tableExists(BulkLoadTables.loads) else { return [] }
            return try String.fetchAll(reader.db, sql: "SELECT soup_name FROM \(BulkLoadTables.loads)")
                .compactMap { try BulkLoadTables.load(reader.db, soup: $0) }
        }
        guard !loads.isEmpty else { return }
        let host = BulkLoadTables.hostName
        let me = ProcessInfo.processInfo.processIdentifier
        for load in loads {
            // Alive (this process included): its own run finishes it. Another host's: its sync
            // down repairs it when it runs here.
            guard load.hostName == host, load.processID != me, kill(load.processID, 0) != 0, errno == ESRCH else {
                continue
            }
            try write { writer in _ = try writer.finishBulkLoad(of: load.soupName) }
        }
    }
}
