import Foundation
import GRDB
import SyncrunTestSupport
import Testing

@testable import SoupStore

/// `withLongTransaction`: one write transaction across several writes with async work between
/// them (issue 33 item 4: a sync into a filled soup writes each dirtied index page once).
struct LongTransactionTests {
    private struct Planted: Error {}

    private func page(_ range: Range<Int>) -> String {
        #"{"totalSize":0,"done":true,"records":"# + TestFixtures.accountRecords(range) + "}"
    }

    private func count(_ store: SoupStore) throws -> Int {
        try store.read { try $0.entryCount(in: "accounts") }
    }

    @Test func writesAreInvisibleToReadersUntilACommitAndDurableAfter() async throws {
        let temporary = try TestFixtures.store()
        defer { temporary.remove() }
        let store = temporary.store
        let seen = try await store.withLongTransaction(cacheBytes: 64 * 1024 * 1024) { transaction in
            var seen: [Int] = []
            _ = try await transaction.write { try $0.upsertPage(page(0..<10), into: "accounts") }
            seen.append(try count(store))  // not committed yet
            // A write of the same store made inside joins the transaction (a savepoint).
            _ = try await store.write { try $0.upsertPage(page(10..<15), into: "accounts") }
            try await transaction.commit()
            seen.append(try count(store))
            _ = try await transaction.write { try $0.upsertPage(page(15..<20), into: "accounts") }
            seen.append(try count(store))
            return seen
        }
        #expect(seen == [0, 15, 15])
        #expect(try count(store) == 20)
        // The writer's page cache is back to SQLite's default, and no transaction is left open.
        let cacheSize = try await store.write { writer in try Int.fetchOne(writer.db, sql: "PRAGMA cache_size") }
        #expect(cacheSize == -2000)
        _ = try await store.write { try $0.upsertPage(page(20..<21), into: "accounts") }
        #expect(try count(store) == 21)
    }

    @Test func aFailedWriteRollsBackItselfOnlyAndAnErrorKeepsWhatCameBefore() async throws {
        let temporary = try TestFixtures.store()
        defer { temporary.remove() }
        let store = temporary.store
        var failedWrite: (any Error)?
        var failedRun: (any Error)?
        do {
            try await store.withLongTransaction(cacheBytes: 8 * 1024 * 1024) { transaction in
                _ = try await transaction.write { try $0.upsertPage(page(0..<5), into: "accounts") }
                do {
                    try await transaction.write { writer in
                        _ = try writer.upsertPage(page(5..<8), into: "accounts")
                        throw Planted()
                    }
                } catch {
                    failedWrite = error
                }
                _ = try await transaction.write { try $0.upsertPage(page(8..<9), into: "accounts") }
                throw Planted()
            }
        } catch {
            failedRun = error
        }
        #expect(failedWrite is Planted && failedRun is Planted)
        // The failed savepoint's three records are gone; the others were committed.
        let ids = try await store.read { reader in
            try reader.entries(in: "accounts", wherePath: "Id", isIn: (0..<9).map { String(format: "001%012d", $0) })
        }
        #expect(ids.count == 6)
        _ = try await store.write { try $0.upsertPage(page(9..<10), into: "accounts") }
        #expect(try count(store) == 7)
    }

    @Test func anotherProcessSeesTheLastCommitWhileTheTransactionIsOpen() async throws {
        let temporary = try TestFixtures.store()
        defer { temporary.remove() }
        let store = temporary.store
        // What a process killed now would leave: SQLite's own rule, read by another process.
        let observed = try await store.withLongTransaction(cacheBytes: 8 * 1024 * 1024) { transaction in
            _ = try await transaction.write { try $0.upsertPage(page(0..<3), into: "accounts") }
            try await transaction.commit()
            _ = try await transaction.write { try $0.upsertPage(page(3..<9), into: "accounts") }
            return try SystemSQLite.lines(temporary.path, "SELECT count(*) FROM TABLE_1")
        }
        #expect(observed == ["3"])
        #expect(try count(store) == 9)
    }

    /// The statements the store's writer runs, as SQLite traces them.
    private final class Statements: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [String] = []
        func append(_ sql: String) { lock.withLock { list.append(sql) } }
        var all: [String] { lock.withLock { list } }
    }

    @Test func theFirstWriteAfterEachCommitRunsWithoutASavepointAndLaterOnesInOne() async throws {
        let temporary = try TestFixtures.store()
        defer { temporary.remove() }
        let store = temporary.store
        let statements = try await traceWriter(of: store)
        func marker(_ name: String) async throws {
            try await store.pool.writeWithoutTransaction { db in try db.execute(sql: "SELECT '\(name)'") }
        }
        try await store.withLongTransaction(cacheBytes: 8 * 1024 * 1024) { transaction in
            try await marker("first")
            _ = try await transaction.write { try $0.upsertPage(page(0..<5), into: "accounts") }
            try await marker("second")
            _ = try await transaction.write { try $0.upsertPage(page(5..<8), into: "accounts") }
            try await transaction.commit()
            try await marker("third")
            _ = try await transaction.write { try $0.upsertPage(page(8..<9), into: "accounts") }
        }
        try await store.pool.writeWithoutTransaction { db in db.trace(nil) }
        // Each write's statements, from its marker to the next one.
        let all = statements.all
        func between(_ from: String, _ to: String?) -> [String] {
            guard let start = all.firstIndex(of: "SELECT '\(from)'") else { return [] }
            let end = to.flatMap { all.firstIndex(of: "SELECT '\($0)'") } ?? all.endIndex
            return Array(all[start..<end])
        }
        let first = between("first", "second")
        let second = between("second", "third")
        let third = between("third", nil)
        #expect(first.contains { $0.contains("INSERT") })
        #expect(!first.contains { $0.uppercased().contains("SAVEPOINT") })
        #expect(second.contains { $0.uppercased().hasPrefix("SAVEPOINT") })
        #expect(third.contains { $0.contains("INSERT") })
        #expect(!third.contains { $0.uppercased().hasPrefix("SAVEPOINT") })
        #expect(try count(store) == 9)
    }

    @Test func aFailedFirstWriteRollsBackItselfOnlyAndTheTransactionGoesOn() async throws {
        let temporary = try TestFixtures.store()
        defer { temporary.remove() }
        let store = temporary.store
        _ = try await store.write { try $0.upsertPage(page(0..<2), into: "accounts") }
        var failedWrite: (any Error)?
        let seen = try await store.withLongTransaction(cacheBytes: 8 * 1024 * 1024) { transaction in
            do {
                // Nothing is written in the transaction yet: this write runs in it directly.
                try await transaction.write { writer in
                    _ = try writer.upsertPage(page(2..<6), into: "accounts")
                    throw Planted()
                }
            } catch {
                failedWrite = error
            }
            // Still one transaction: invisible to readers until it commits.
            _ = try await transaction.write { try $0.upsertPage(page(6..<7), into: "accounts") }
            let seen = try count(store)
            // The next write fails inside a savepoint; the one before it stays.
            try? await transaction.write { writer in
                _ = try writer.upsertPage(page(7..<8), into: "accounts")
                throw Planted()
            }
            return seen
        }
        #expect(failedWrite is Planted)
        #expect(seen == 2)
        try await expectStored(store, among: 0..<8, 3)
    }

    @Test func writeOrRollBackRunsNoSavepointAndAnErrorUndoesEverythingSinceTheLastCommit() async throws {
        let temporary = try TestFixtures.store()
        defer { temporary.remove() }
        let store = temporary.store
        let statements = try await traceWriter(of: store)
        var failedWrite: (any Error)?
        let holding = try await store.withLongTransaction(cacheBytes: 8 * 1024 * 1024) { transaction in
            var holding = [transaction.holdsWrites]
            _ = try await transaction.writeOrRollBack { try $0.upsertPage(page(0..<3), into: "accounts") }
            holding.append(transaction.holdsWrites)
            try await transaction.commit()
            holding.append(transaction.holdsWrites)
            _ = try await transaction.writeOrRollBack { try $0.upsertPage(page(3..<5), into: "accounts") }
            _ = try await transaction.writeOrRollBack { try $0.upsertPage(page(5..<7), into: "accounts") }
            holding.append(transaction.holdsWrites)
            do {
                try await transaction.writeOrRollBack { writer in
                    _ = try writer.upsertPage(page(7..<9), into: "accounts")
                    throw Planted()
                }
            } catch {
                failedWrite = error
            }
            // Back at the last commit, in the next transaction, which goes on.
            holding.append(transaction.holdsWrites)
            _ = try await transaction.writeOrRollBack { try $0.upsertPage(page(9..<10), into: "accounts") }
            return holding
        }
        try await store.pool.writeWithoutTransaction { db in db.trace(nil) }
        #expect(failedWrite is Planted)
        #expect(holding == [false, true, false, true, false])
        #expect(!statements.all.contains { $0.uppercased().contains("SAVEPOINT") })
        // 0..<3 committed, 3..<9 rolled back with the failed write, 9 committed at the end.
        try await expectStored(store, among: 0..<10, 4)
    }

    /// Records every statement the store's writer runs from now on (SQLite's trace).
    private func traceWriter(of store: SoupStore) async throws -> Statements {
        let statements = Statements()
        try await store.pool.writeWithoutTransaction { db in
            db.trace { statements.append($0.expandedDescription) }
        }
        return statements
    }

    /// `expected` of the accounts numbered `range` are stored, the soup holds as many entries,
    /// and no transaction is left open.
    private func expectStored(_ store: SoupStore, among range: Range<Int>, _ expected: Int) async throws {
        let ids = try await store.read { reader in
            try reader.entries(in: "accounts", wherePath: "Id", isIn: range.map { String(format: "001%012d", $0) })
        }
        #expect(ids.count == expected)
        #expect(try count(store) == expected)
        let inTransaction = try await store.pool.writeWithoutTransaction { db in db.isInsideTransaction }
        #expect(!inTransaction)
    }
}
