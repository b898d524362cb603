import Foundation
import GRDB
import SyncLedger
import SyncrunTestSupport
import Testing

@testable import SoupStore

/// The record-syncs rows of a long transaction into a filled soup (issue 33 item 4): a page's ids
/// wait in `syncrun_pending_record_syncs` and move to `syncrun_record_syncs` in key order before
/// the commit, giving the rows the page-by-page write gives.
struct DeferredRecordSyncsTests {
    static let soup = BulkLoadTests.soup

    private func counts(_ store: SoupStore) throws -> [Int] {
        try store.read { reader in
            try [
                "SELECT count(*) FROM syncrun_record_syncs", "SELECT count(*) FROM syncrun_pending_record_syncs",
                "SELECT count(*) FROM TABLE_1",
            ].map { try Int.fetchOne(reader.db, sql: $0) ?? -1 }
        }
    }

    @Test func deferredIDsWaitInThePendingTableAndMoveOnceAsThePageByPageWriteRecordsThem() throws {
        let deferred = try TemporaryStore(soups: [Self.soup])
        let direct = try TemporaryStore(soups: [Self.soup])
        defer {
            deferred.remove()
            direct.remove()
        }
        let options = PageUpsertOptions(syncID: 4)
        // The second page holds a record of the first again.
        let pages = [
            BulkLoadTests.page((0..<30).map { BulkLoadTests.record($0) }),
            BulkLoadTests.page((25..<50).map { BulkLoadTests.record($0) }),
        ]
        // Both stores hold a record first, so neither write is a bulk load.
        for store in [deferred.store, direct.store] {
            _ = try store.write {
                try $0.upsertFetchedPage(
                    BulkLoadTests.page([BulkLoadTests.record(99)]),
                    into: "accounts",
                    options: options
                )
            }
        }
        let waiting = try deferred.store.write { writer in
            for page in pages {
                _ = try writer.upsertFetchedPage(page, into: "accounts", options: options, deferringRecordSyncs: true)
            }
            let waiting = try Int.fetchOne(writer.db, sql: "SELECT count(*) FROM syncrun_pending_record_syncs")
            try writer.recordDeferredRecordSyncs(of: "accounts", syncID: 4)
            // Once moved, nothing is left to move again.
            try writer.recordDeferredRecordSyncs(of: "accounts", syncID: 4)
            return waiting
        }
        try direct.store.write { writer in
            for page in pages { _ = try writer.upsertFetchedPage(page, into: "accounts", options: options) }
        }
        #expect(waiting == 55)
        #expect(try counts(deferred.store) == [51, 0, 51])
        #expect(try BulkLoadTests.content(deferred.store) == BulkLoadTests.content(direct.store))
    }
}
