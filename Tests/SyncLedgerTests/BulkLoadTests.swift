import Foundation
import GRDB
import SyncLedger
import SyncrunTestSupport
import Testing

@testable import SoupStore

/// A bulk load into an empty soup (pages written without the soup's SQL indexes, built at the
/// end) must leave what page upserts leave, keep the soup's index specs visible to another
/// connection while it runs, and be finished by the next open when its process died.
struct BulkLoadTests {
    static let soup = SoupSpec(
        name: "accounts",
        indexes: [
            IndexSpec(path: "Id", type: .string), IndexSpec(path: "Name", type: .string),
            IndexSpec(path: "__local__", type: .string), IndexSpec(path: "__sync_id__", type: .integer),
            IndexSpec(path: "LastModifiedDate", type: .string), IndexSpec(path: "Industry", type: .json1),
        ]
    )

    /// Record `number` (Ids in scrambled order, as a query ordered by date returns them).
    static func record(_ number: Int, name: String? = nil) -> String {
        let id = String(format: "001%012d", (number * 7919) % 10007)
        return """
            {"attributes":{"type":"Account"},"Id":"\(id)","Name":"\(name ?? "Account \(number)")",\
            "Industry":"Industry \(number % 3)","LastModifiedDate":"2024-01-01T00:00:\(String(format: "%02d", number % 60)).000Z"}
            """
    }

    static func page(_ records: [String]) -> String {
        #"{"totalSize":99,"done":false,"records":["# + records.joined(separator: ",") + "]}"
    }

    static let options = PageUpsertOptions(syncID: 3)

    /// The pages of one sync: records 7 and 12 come again on later pages (changed while the query
    /// was paged), record 20 twice in one page.
    static let pages = [
        page((0..<30).map { record($0) }),
        page((30..<60).map { record($0) } + [record(7, name: "Seven again"), record(12, name: "Twelve again")]),
        page([record(7, name: "Seven third"), record(20, name: "Twenty a"), record(20, name: "Twenty b")]),
    ]

    /// Entries by Id, without what depends on the write's instant or on entry-id allocation; and
    /// whether every document's `_soupEntryId` is its row's id.
    static func content(_ store: SoupStore) throws -> [String] {
        try store.read { reader in
            let rows = try String.fetchAll(
                reader.db,
                sql: """
                    SELECT json_remove(soup, '$._soupEntryId', '$._soupLastModifiedDate') || '|' || \
                    quote(TABLE_1_0) || quote(TABLE_1_1) || quote(TABLE_1_2) || quote(TABLE_1_3) || quote(TABLE_1_4) || \
                    '|' || (json_extract(soup, '$._soupEntryId') = id) || (created <= lastModified) \
                    FROM TABLE_1 ORDER BY TABLE_1_0
                    """
            )
            let syncs = try String.fetchAll(
                reader.db,
                sql: "SELECT soup_name || record_id || sync_id FROM syncrun_record_syncs ORDER BY 1"
            )
            return rows + ["--"] + syncs
        }
    }

    static func indexes(_ path: String) throws -> [String] {
        try DatabaseQueue(path: path).read { db in
            try String.fetchAll(
                db,
                sql:
                    "SELECT name || ': ' || sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'TABLE_1' ORDER BY 1"
            )
        }
    }

    @Test func leavesWhatPageUpsertsLeaveAndIndexesTheSoupWhenFinished() throws {
        let bulk = try TemporaryStore(soups: [Self.soup])
        let plain = try TemporaryStore(soups: [Self.soup])
        defer {
            bulk.remove()
            plain.remove()
        }
        let indexes = try Self.indexes(plain.path)
        #expect(indexes.count == 8)
        #expect(
            try bulk.store.write {
                try $0.beginBulkLoad(into: "accounts", syncID: 3, keyPath: "Id", localEntries: .overwrite)
            }
        )
        for (number, page) in Self.pages.enumerated() {
            let loaded = try bulk.store.write {
                try $0.upsertFetchedPage(page, into: "accounts", options: Self.options)
            }
            let upserted = try plain.store.write {
                try $0.upsertFetchedPage(page, into: "accounts", options: Self.options)
            }
            #expect(loaded.saved == upserted.saved && loaded.skipped == upserted.skipped)
            #expect(loaded.maxModificationDate == upserted.maxModificationDate)
            // Mid-run, another connection (an app) sees the soup with every index spec declared,
            // its SQL indexes absent, and no record syncs yet.
            let app = try DatabaseQueue(path: bulk.path)
            try app.read { db in
                let declared = try String.fetchAll(
                    db,
                    sql: "SELECT path FROM soup_index_map WHERE soupName = 'accounts' ORDER BY rowid"
                )
                #expect(declared == Self.soup.indexes.map(\.path), "page \(number)")
                #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM TABLE_1") ?? 0 > 0)
                #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM syncrun_record_syncs") == 0)
                #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM syncrun_pending_record_syncs") ?? 0 > 0)
            }
            #expect(try Self.indexes(bulk.path).isEmpty)
        }
        let merged = try bulk.store.write { try $0.finishBulkLoad(of: "accounts") }
        // Record 7 twice, 12 once, and 20 once (page 3 keeps the last of its two, which meets page 1's).
        #expect(merged == 4)
        #expect(try Self.content(bulk.store) == Self.content(plain.store))
        #expect(try Self.indexes(bulk.path) == indexes)
        #expect(try bulk.store.read { try $0.bulkLoad(of: "accounts") } == nil)
        #expect(try SystemSQLite.lines(bulk.path, "SELECT count(*) FROM syncrun_pending_record_syncs") == ["0"])
        #expect(try SystemSQLite.lines(bulk.path, "PRAGMA integrity_check") == ["ok"])
        // Finishing again does nothing; later pages go through the upsert.
        #expect(try bulk.store.write { try $0.finishBulkLoad(of: "accounts") } == 0)
        let later = Self.page([Self.record(3, name: "Three later"), Self.record(99)])
        let result = try bulk.store.write { try $0.upsertFetchedPage(later, into: "accounts", options: Self.options) }
        _ = try plain.store.write { try $0.upsertFetchedPage(later, into: "accounts", options: Self.options) }
        #expect(result.inserted == 1 && result.updated == 1)
        #expect(try Self.content(bulk.store) == Self.content(plain.store))
    }

    @Test func leaveIfChangedKeepsAnEntryChangedLocallyDuringTheLoad() throws {
        let bulk = try TemporaryStore(soups: [Self.soup])
        let plain = try TemporaryStore(soups: [Self.soup])
        defer {
            bulk.remove()
            plain.remove()
        }
        var options = Self.options
        options.localEntries = .keep
        #expect(
            try bulk.store.write {
                try $0.beginBulkLoad(into: "accounts", syncID: 3, keyPath: "Id", localEntries: .keep)
            }
        )
        for store in [bulk.store, plain.store] {
            try store.write { _ = try $0.upsertFetchedPage(Self.pages[0], into: "accounts", options: options) }
            // An app edits record 7 between two pages.
            let id = String(format: "001%012d", (7 * 7919) % 10007)
            let filter = EntryFilter(path: "Id", value: id)
            try store.write { _ = try $0.markEntries(.updated, in: "accounts", where: filter) }
            try store.write { _ = try $0.upsertFetchedPage(Self.pages[1], into: "accounts", options: options) }
        }
        #expect(try bulk.store.write { try $0.finishBulkLoad(of: "accounts") } == 2)
        #expect(try Self.content(bulk.store) == Self.content(plain.store))
        let kept = try bulk.store.read { reader in
            try String.fetchOne(
                reader.db,
                sql: "SELECT json_extract(soup, '$.Name') FROM TABLE_1 WHERE json_extract(soup, '$.__local__')"
            )
        }
        #expect(kept == "Account 7")
    }

    @Test func startsOnlyOnAnEmptySoupWithoutFullTextIndexes() throws {
        let fullText = SoupSpec(
            name: "notes",
            indexes: [IndexSpec(path: "Id", type: .string), IndexSpec(path: "Body", type: .fullText)]
        )
        let temporary = try TemporaryStore(soups: [Self.soup, fullText])
        defer { temporary.remove() }
        let store = temporary.store
        #expect(
            try !store.write { try $0.beginBulkLoad(into: "notes", syncID: 3, keyPath: "Id", localEntries: .overwrite) }
        )
        #expect(
            try !store.write {
                try $0.beginBulkLoad(into: "accounts", syncID: 3, keyPath: "Name2", localEntries: .overwrite)
            }
        )
        try store.write { _ = try $0.upsertFetchedPage(Self.pages[2], into: "accounts", options: Self.options) }
        #expect(
            try !store.write {
                try $0.beginBulkLoad(into: "accounts", syncID: 3, keyPath: "Id", localEntries: .overwrite)
            }
        )
        #expect(try Self.indexes(temporary.path).count == 8)
        #expect(try store.read { try $0.bulkLoad(of: "accounts") } == nil)
    }

    @Test func anotherSyncsPageEndsTheLoadFirst() throws {
        let temporary = try TemporaryStore(soups: [Self.soup])
        defer { temporary.remove() }
        let store = temporary.store
        #expect(
            try store.write {
                try $0.beginBulkLoad(into: "accounts", syncID: 3, keyPath: "Id", localEntries: .overwrite)
            }
        )
        try store.write { _ = try $0.upsertFetchedPage(Self.pages[0], into: "accounts", options: Self.options) }
        try store.write { _ = try $0.upsertFetchedPage(Self.pages[1], into: "accounts", options: Self.options) }
        var other = Self.options
        other.syncID = 4
        let result = try store.write { try $0.upsertFetchedPage(Self.pages[2], into: "accounts", options: other) }
        // Records 7 and 20 were stored (7 twice, merged first), so the other sync updates them.
        #expect(result.updated == 2 && result.inserted == 0)
        #expect(try store.read { try $0.bulkLoad(of: "accounts") } == nil)
        #expect(try Self.indexes(temporary.path).count == 8)
        #expect(try store.read { try $0.entryCount(in: "accounts") } == 60)
    }

    @Test func aLoadWhoseProcessDiedIsFinishedWhenTheStoreIsOpened() throws {
        let temporary = try TemporaryStore(soups: [Self.soup])
        defer { temporary.remove() }
        #expect(
            try temporary.store.write {
                try $0.beginBulkLoad(into: "accounts", syncID: 3, keyPath: "Id", localEntries: .overwrite)
            }
        )
        try temporary.store.write {
            _ = try $0.upsertFetchedPage(Self.pages[0], into: "accounts", options: Self.options)
        }
        try temporary.store.write {
            _ = try $0.upsertFetchedPage(Self.pages[1], into: "accounts", options: Self.options)
        }
        // Opened while its (this) process lives: left alone.
        _ = try SoupStore.ledger(path: temporary.path)
        #expect(try temporary.store.read { try $0.bulkLoad(of: "accounts") } != nil)
        // The loading process is gone (a pid that has exited): the next open finishes the load.
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        try DatabaseQueue(path: temporary.path).write { db in
            try db.execute(sql: "UPDATE syncrun_bulk_loads SET pid = ?", arguments: [gone.processIdentifier])
        }
        let reopened = try SoupStore.ledger(path: temporary.path)
        #expect(try reopened.read { try $0.bulkLoad(of: "accounts") } == nil)
        #expect(try Self.indexes(temporary.path).count == 8)
        #expect(try reopened.read { try $0.entryCount(in: "accounts") } == 60)
        let fetched = try SystemSQLite.lines(temporary.path, "SELECT count(*) FROM syncrun_record_syncs")
        #expect(fetched == ["60"])
    }
}
