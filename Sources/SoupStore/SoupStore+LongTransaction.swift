import Foundation
import GRDB
import GRDBSQLite

/// A write transaction kept open across several writes with asynchronous work between them (a sync
/// down fetching its next pages), committed every few hundred thousand records instead of every
/// few pages: see ``SoupStore/withLongTransaction(cacheBytes:_:)``.
public struct LongTransaction: Sendable {
    /// Set by ``end()``: later writes are ordinary transactions.
    private final class Ended: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        var isSet: Bool { lock.withLock { value } }
        func set() { lock.withLock { value = true } }
    }

    /// The transaction open in this task (and its child tasks), if any: ``SoupStore/write(_:)``
    /// of the same store joins it as a savepoint (a sync down's Bulk job journal, written while
    /// the fetcher fetches).
    @TaskLocal static var current: LongTransaction?

    let store: SoupStore
    private let ended = Ended()

    init(store: SoupStore) {
        self.store = store
    }

    /// Whether this transaction is open on `other`'s writer.
    func isOpen(on other: SoupStore) -> Bool {
        !ended.isSet && ObjectIdentifier(store.pool) == ObjectIdentifier(other.pool)
    }

    /// Commits, sets the writer's page cache back, and makes every later write of the scope an
    /// ordinary transaction (for work that a long transaction does not help).
    ///
    /// - Throws: `SoupStoreError` (the commit failed).
    public func end() async throws {
        guard !ended.isSet else { return }
        ended.set()
        try await store.mapErrors {
            try await store.pool.writeWithoutTransaction { db in
                defer { try? db.execute(sql: "PRAGMA cache_size = -\(SoupStore.defaultCacheKibibytes)") }
                if db.isInsideTransaction { try db.commit() }
            }
        }
    }

    /// As ``write(_:)``, synchronously.
    func writeNow<T>(_ body: (SoupWriter) throws -> T) throws -> T {
        let context = StoreContext(path: store.path, logger: store.logger)
        return try store.mapErrors {
            try store.pool.writeWithoutTransaction { db in
                var result: T?
                try db.inSavepoint {
                    result = try body(SoupWriter(db: db, context: context))
                    return .commit
                }
                guard let result else { throw SoupStoreError.io("a savepoint returned nothing", path: store.path) }
                return result
            }
        }
    }

    /// Runs `body` in a savepoint of the open transaction: everything it does is kept together or
    /// not at all (an error rolls back `body`'s writes only, and is rethrown); it is durable once
    /// the transaction commits.
    ///
    /// - Throws: `SoupStoreError`, or whatever `body` throws.
    public func write<T: Sendable>(_ body: @escaping @Sendable (SoupWriter) throws -> T) async throws -> T {
        if ended.isSet { return try await store.write(body) }
        let context = StoreContext(path: store.path, logger: store.logger)
        return try await store.mapErrors {
            try await store.pool.writeWithoutTransaction { db in
                var result: T?
                try db.inSavepoint {
                    result = try body(SoupWriter(db: db, context: context))
                    return .commit
                }
                guard let result else { throw SoupStoreError.io("a savepoint returned nothing", path: store.path) }
                return result
            }
        }
    }

    /// Commits when the writer's page cache had to write dirty pages out before the commit (a
    /// spill: what the transaction dirtied no longer fits in the cache, and a page spilled then
    /// dirtied again is written twice); returns whether it committed. Called after each write,
    /// this commits about once per cache-full of dirtied pages, each written once.
    ///
    /// - Throws: `SoupStoreError` (the commit failed: nothing since the last commit is kept).
    public func commitIfSpilling() async throws -> Bool {
        guard !ended.isSet else { return false }
        return try await store.mapErrors {
            try await store.pool.writeWithoutTransaction { db in
                guard let connection = db.sqliteConnection else { return false }
                var spilled: Int32 = 0
                var highest: Int32 = 0
                sqlite3_db_status(connection, SQLITE_DBSTATUS_CACHE_SPILL, &spilled, &highest, 1)
                guard spilled > 0 else { return false }
                try db.commit()
                try db.beginTransaction(.immediate)
                return true
            }
        }
    }

    /// Commits what was written so far and opens the next transaction.
    ///
    /// - Throws: `SoupStoreError` (the commit failed: nothing since the last commit is kept).
    public func commit() async throws {
        guard !ended.isSet else { return }
        try await store.mapErrors {
            try await store.pool.writeWithoutTransaction { db in
                try db.commit()
                try db.beginTransaction(.immediate)
            }
        }
    }
}

extension SoupStore {
    /// Runs `body` with one write transaction open across its writes, and commits it when `body`
    /// returns (or throws: what `body` wrote before is kept; call ``LongTransaction/commit()`` to make
    /// it durable earlier, for example every few hundred thousand records).
    ///
    /// For writes into a soup that already holds records: each write dirties index pages scattered
    /// over the whole soup (random `Id`s and `Name`s), and a transaction writes each page it
    /// dirtied once, to the WAL, then once more at the checkpoint. One transaction for many pages
    /// writes each page once instead of once per page of records, provided the page cache holds
    /// what it dirtied: the writer's cache is raised to `cacheBytes` for the duration, then set
    /// back (the pages are freed). Readers see the store as of the last commit meanwhile. A
    /// ``SoupStore/write(_:)`` of this store made by `body` (or a task it starts) joins the
    /// transaction as a savepoint; one made by an unrelated task meanwhile fails (SQLite refuses
    /// a transaction within a transaction): run one such writer at a time, as plans do.
    ///
    /// A process killed meanwhile loses what the open transaction wrote, and nothing else: the
    /// store is as of the last commit.
    ///
    /// - Throws: `SoupStoreError`, or whatever `body` throws (after committing what it wrote).
    public func withLongTransaction<T: Sendable>(
        cacheBytes: Int,
        _ body: (LongTransaction) async throws -> T
    ) async throws -> T {
        let kibibytes = max(cacheBytes / 1024, 2000)
        try await mapErrors {
            try await pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA cache_size = -\(kibibytes)")
                if let connection = db.sqliteConnection {
                    var current: Int32 = 0
                    var highest: Int32 = 0
                    sqlite3_db_status(connection, SQLITE_DBSTATUS_CACHE_SPILL, &current, &highest, 1)
                }
                try db.beginTransaction(.immediate)
            }
        }
        // Synchronous, so that a cancelled task still ends the transaction.
        let finish: (Bool) throws -> Void = { [pool] commit in
            try pool.writeWithoutTransaction { db in
                defer { try? db.execute(sql: "PRAGMA cache_size = -\(Self.defaultCacheKibibytes)") }
                guard db.isInsideTransaction else { return }
                if commit {
                    try db.commit()
                } else {
                    try db.rollback()
                }
            }
        }
        let result: T
        do {
            let transaction = LongTransaction(store: self)
            result = try await LongTransaction.$current.withValue(transaction) { try await body(transaction) }
        } catch {
            // Keep what was written before the error, as a run of separate transactions would.
            do {
                try mapErrors { try finish(true) }
            } catch {
                try? finish(false)
            }
            throw error
        }
        do {
            try mapErrors { try finish(true) }
        } catch {
            try? finish(false)
            throw error
        }
        return result
    }

    /// SQLite's default page cache, in KiB (`PRAGMA cache_size = -2000`).
    static let defaultCacheKibibytes = 2000
}
