import Foundation
import SyncrunTestSupport
import Testing

@testable import SoupStore

/// A soup's scattered field indexes set aside inside a long transaction and built again before
/// each commit (issue 33 item 4): every committed state, and so every state a kill leaves, has all
/// of the soup's SQL indexes.
struct ScatteredIndexesTests {
    static let soup = SoupSpec(
        name: "accounts",
        indexes: [
            IndexSpec(path: "Id", type: .string), IndexSpec(path: "__local__", type: .string),
            IndexSpec(path: "__sync_id__", type: .integer), IndexSpec(path: "LastModifiedDate", type: .string),
            IndexSpec(path: "Name", type: .string), IndexSpec(path: "NumberOfEmployees", type: .integer),
        ]
    )
    static let allIndexes = ["created", "lastModified", "0", "1", "2", "3", "4", "5"].map { "TABLE_1_\($0)_idx" }
        .sorted()

    private func page(_ range: Range<Int>) -> String {
        #"{"totalSize":0,"done":true,"records":"# + TestFixtures.accountRecords(range) + "}"
    }

    private static let options = PageUpsertOptions(syncID: 1)

    /// Integrity, the soup table's SQL indexes and its row count, as `sqlite3` sees the file at `path`.
    private func books(_ path: String) throws -> [String] {
        try SystemSQLite.lines(
            path,
            """
            PRAGMA integrity_check;
            SELECT group_concat(name, ' ') FROM (SELECT name FROM sqlite_master WHERE type = 'index' AND \
            tbl_name = 'TABLE_1' ORDER BY name);
            SELECT count(*) FROM TABLE_1;
            """
        )
    }

    /// What a process killed now leaves on disk: the database file and its WAL, copied while the
    /// transaction is open (the shared-memory index is rebuilt from the WAL when the copy opens).
    private func killedCopy(of path: String, in directory: URL, _ name: String) throws -> String {
        let copy = directory.appendingPathComponent(name).path
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        if FileManager.default.fileExists(atPath: path + "-wal") {
            try FileManager.default.copyItem(atPath: path + "-wal", toPath: copy + "-wal")
        }
        return copy
    }

    @Test func aPageIsCountedAgainstTheStoredRecordsByItsKey() throws {
        let temporary = try TemporaryStore(soups: [Self.soup])
        defer { temporary.remove() }
        let counts = try temporary.store.write { writer in
            _ = try writer.upsertPage(page(0..<10), into: "accounts")
            let array = TestFixtures.accountRecords(5..<12)
            return [
                try writer.storedRecords(ofPage: page(5..<12), in: "accounts", keyPath: "Id"),
                try writer.storedRecords(ofPage: array, in: "accounts", keyPath: "Id"),
                try writer.storedRecords(ofPage: page(20..<23), in: "accounts", keyPath: "Id"),
                try writer.storedRecords(ofPage: #"{"records":[]}"#, in: "accounts", keyPath: "Id"),
            ]
        }
        #expect(counts.map { $0?.records } == [7, 7, 3, 0])
        #expect(counts.map { $0?.stored } == [5, 5, 0, 0])
        // A key with no column index of its own: no count.
        let unindexed = try temporary.store.write { writer in
            try writer.storedRecords(ofPage: page(0..<3), in: "accounts", keyPath: "Industry")
        }
        #expect(unindexed == nil)
    }

    @Test func onlyTheFieldIndexesAreSetAsideAndRestoreBuildsThemAgain() throws {
        let temporary = try TemporaryStore(soups: [Self.soup])
        defer { temporary.remove() }
        let dropped = try temporary.store.write { writer in
            _ = try writer.upsertPage(page(0..<20), into: "accounts", options: Self.options)
            return try writer.suspendFieldIndexes(
                of: "accounts",
                keyPath: "Id",
                modificationDateField: "LastModifiedDate"
            )
        }
        // Name and NumberOfEmployees; not the key, the date, the control fields or the stamps.
        #expect(dropped == 2)
        let remaining = Self.allIndexes.filter { $0 != "TABLE_1_4_idx" && $0 != "TABLE_1_5_idx" }
        #expect(try books(temporary.path) == ["ok", remaining.joined(separator: " "), "20"])
        try temporary.store.write { writer in try writer.restoreIndexes(of: "accounts") }
        #expect(try books(temporary.path) == ["ok", Self.allIndexes.joined(separator: " "), "20"])
        #expect(try temporary.store.write { try $0.highestEntryID(of: "accounts") } == 20)
    }

    @Test func everyCommitHasEveryIndexAndAKillMeanwhileLeavesTheLastCommit() async throws {
        let temporary = try TemporaryStore(soups: [Self.soup])
        defer { temporary.remove() }
        let store = temporary.store
        let copies = try TemporaryDirectory(prefix: "killed")
        defer { try? FileManager.default.removeItem(at: copies.url) }
        _ = try await store.write { try $0.upsertPage(page(0..<100), into: "accounts", options: Self.options) }

        let killed = try await store.withLongTransaction(cacheBytes: 2 * 1024 * 1024) { transaction in
            var killed: [[String]] = []
            transaction.setBeforeCommit { writer in try writer.restoreIndexes(of: "accounts") }
            _ = try await transaction.write { writer in
                try writer.suspendFieldIndexes(of: "accounts", keyPath: "Id", modificationDateField: "LastModifiedDate")
            }
            // More than the 2 MB cache holds: uncommitted pages spill into the WAL.
            for start in stride(from: 100, to: 8_100, by: 1_000) {
                _ = try await transaction.write { try $0.upsertPage(page(start..<start + 1_000), into: "accounts") }
            }
            killed.append(try books(try killedCopy(of: temporary.path, in: copies.url, "before-commit.db")))
            try await transaction.commit()
            killed.append(try books(try killedCopy(of: temporary.path, in: copies.url, "after-commit.db")))
            // Set aside again in the next transaction; its end commits through the same work.
            _ = try await transaction.write { writer in
                try writer.suspendFieldIndexes(of: "accounts", keyPath: "Id", modificationDateField: "LastModifiedDate")
            }
            _ = try await transaction.write { try $0.upsertPage(page(8_100..<8_600), into: "accounts") }
            killed.append(try books(try killedCopy(of: temporary.path, in: copies.url, "second.db")))
            return killed
        }
        let all = Self.allIndexes.joined(separator: " ")
        #expect(killed == [["ok", all, "100"], ["ok", all, "8100"], ["ok", all, "8100"]])
        #expect(try books(temporary.path) == ["ok", all, "8600"])
    }

    @Test func aFailingBeforeCommitKeepsNothingSinceTheLastCommit() async throws {
        struct Planted: Error {}
        let temporary = try TemporaryStore(soups: [Self.soup])
        defer { temporary.remove() }
        let store = temporary.store
        var failure: (any Error)?
        do {
            try await store.withLongTransaction(cacheBytes: 8 * 1024 * 1024) { transaction in
                _ = try await transaction.write { try $0.upsertPage(page(0..<10), into: "accounts") }
                try await transaction.commit()
                _ = try await transaction.write { writer in
                    try writer.suspendFieldIndexes(of: "accounts", keyPath: "Id", modificationDateField: nil)
                }
                _ = try await transaction.write { try $0.upsertPage(page(10..<20), into: "accounts") }
                transaction.setBeforeCommit { _ in throw Planted() }
            }
        } catch {
            failure = error
        }
        #expect(failure != nil)
        #expect(try books(temporary.path) == ["ok", Self.allIndexes.joined(separator: " "), "10"])
    }
}
