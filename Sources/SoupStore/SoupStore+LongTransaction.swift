import Foundation
import GRDB
import GRDBSQLite

/// A write transaction kept open across several writes with asynchronous work between them (a sync
/// down fetching its next pages), committed every few hundred thousand records instead of every
/// few pages: see ``SoupStore/withLongTransaction(cacheBytes:_:)``.
public struct LongTransaction: Sendable {
    /// The transaction open in this task (and its child tasks), if any: ``SoupStore/write(_:)``
    /// of the same store joins it as a savepoint (a sync down's Bulk job journal, written while
    /// the fetcher fetches).
    @TaskLocal static var current: LongTransaction?

    /// What the transaction's writes and its users share, behind one lock.
    private final class State: @unchecked Sendable {
        private let lock = NSLock()
        private var isEnded = false
        private var changes: Int?
        private var work: (@Sendable (SoupWriter) throws -> Void)?

        /// Set by ``end()``: later writes are ordinary transactions.
        var ended: Bool { lock.withLock { isEnded } }
        func end() { lock.withLock { isEnded = true } }

        /// SQLite's count of changed rows when the open transaction last began (at `BEGIN` or a
        /// commit) while nothing was written since; `nil` once a write went in.
        var changesWhenEmpty: Int? { lock.withLock { changes } }
        func began(changes: Int) { lock.withLock { self.changes = changes } }
        func wrote() { lock.withLock { changes = nil } }

        /// Work the caller puts before every commit (``setBeforeCommit(_:)``).
        var beforeCommit: (@Sendable (SoupWriter) throws -> Void)? {
            get { lock.withLock { work } }
            set { lock.withLock { work = newValue } }
        }
    }

    let store: SoupStore
    private let state = State()

    /// - Parameter changes: `db.totalChangesCount` right after the transaction began.
    init(store: SoupStore, changes: Int) {
        self.store = store
        state.began(changes: changes)
    }

    /// Whether this transaction is open on `other`'s writer.
    func isOpen(on other: SoupStore) -> Bool {
        !state.ended && ObjectIdentifier(store.pool) == ObjectIdentifier(other.pool)
    }

    /// Sets work that runs in the transaction just before each of its commits (the one when the
    /// scope ends included), or none: what a write set aside for the length of one transaction is
    /// put back there (``SoupWriter/restoreIndexes(of:)``), so that every commit, and so every
    /// state a kill can leave, is whole. When it throws, nothing since the last commit is kept.
    public func setBeforeCommit(_ body: (@Sendable (SoupWriter) throws -> Void)?) {
        state.beforeCommit = body
    }

    /// Commits, sets the writer's page cache back, and makes every later write of the scope an
    /// ordinary transaction (for work that a long transaction does not help).
    ///
    /// - Throws: `SoupStoreError` (the commit failed).
    public func end() async throws {
        guard !state.ended else { return }
        state.end()
        try await store.mapErrors {
            try await store.pool.writeWithoutTransaction { db in
                defer { Self.restoreCache(db) }
                if db.isInsideTransaction { try commitNow(db) }
            }
        }
    }

    /// Sets the writer's page cache to `bytes` (at least SQLite's default) for the rest of the
    /// transaction; ``end()``, or the end of the scope, sets the default back. Dirty pages above
    /// the new size are written out as later writes need room, clean ones are freed.
    ///
    /// - Throws: `SoupStoreError` (`.sqlite`).
    public func setCacheBytes(_ bytes: Int) async throws {
        guard !state.ended else { return }
        try await store.mapErrors {
            try await store.pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA cache_size = -\(max(bytes / 1024, SoupStore.defaultCacheKibibytes))")
            }
        }
    }

    /// Runs the work set by ``setBeforeCommit(_:)``, then commits.
    func commitNow(_ db: Database) throws {
        if let body = state.beforeCommit {
            try body(SoupWriter(db: db, context: StoreContext(path: store.path, logger: store.logger)))
        }
        try db.commit()
    }

    /// As ``write(_:)``, synchronously.
    func writeNow<T>(_ body: (SoupWriter) throws -> T) throws -> T {
        try store.mapErrors { try store.pool.writeWithoutTransaction { db in try inSavepoint(db, body) } }
    }

    /// Runs `body` in the open transaction (in a savepoint of it once it holds earlier writes):
    /// everything it does is kept together or not at all (an error rolls back `body`'s writes
    /// only, and is rethrown); it is durable once the transaction commits.
    ///
    /// - Throws: `SoupStoreError`, or whatever `body` throws.
    public func write<T: Sendable>(_ body: @escaping @Sendable (SoupWriter) throws -> T) async throws -> T {
        if state.ended { return try await store.write(body) }
        return try await store.mapErrors {
            try await store.pool.writeWithoutTransaction { db in try inSavepoint(db, body) }
        }
    }

    /// Runs `body` in the open transaction itself, with no savepoint: an error rolls back
    /// everything written since the last commit (`body`'s writes and the earlier ones), opens the
    /// next transaction and is rethrown. For a caller that can go back to the last commit (a
    /// sync down, whose progress is saved with its pages) this saves what a savepoint costs in
    /// a filled soup: SQLite copies every page a savepoint's writes touch into its statement
    /// journal first, a temporary file past 64 KiB; 100,000 new records into 900,000 wrote
    /// 519 MB there, 64% of the run's bytes (issue 33 item 4, session 16).
    /// ``holdsWrites`` tells whether anything is left to lose.
    ///
    /// - Throws: `SoupStoreError`, or whatever `body` throws: nothing since the last commit is kept.
    public func writeOrRollBack<T: Sendable>(_ body: @escaping @Sendable (SoupWriter) throws -> T) async throws -> T {
        if state.ended { return try await store.write(body) }
        return try await store.mapErrors {
            try await store.pool.writeWithoutTransaction { db in
                if !db.isInsideTransaction {
                    try db.beginTransaction(.immediate)
                    state.began(changes: db.totalChangesCount)
                }
                return try rollingBack(db, body)
            }
        }
    }

    /// Whether the open transaction holds writes since its last commit (which an error of
    /// ``writeOrRollBack(_:)`` or a kill would undo); `false` once the transaction ended.
    public var holdsWrites: Bool { !state.ended && state.changesWhenEmpty == nil }

    /// `body` on `db` in the open transaction; an error rolls it back and opens the next one.
    private func rollingBack<T>(_ db: Database, _ body: (SoupWriter) throws -> T) throws -> T {
        let result: T
        do {
            result = try body(SoupWriter(db: db, context: StoreContext(path: store.path, logger: store.logger)))
        } catch {
            try? db.rollback()
            if (try? db.beginTransaction(.immediate)) != nil { state.began(changes: db.totalChangesCount) }
            throw error
        }
        state.wrote()
        return result
    }

    /// `body` on `db` in a savepoint of the open transaction, or in the transaction itself while
    /// nothing is written in it yet: then an error rolls the whole transaction back (which held
    /// nothing else) and opens the next one. Either way an error undoes `body`'s writes and no
    /// others. The difference is the cost: SQLite copies every page a savepoint's writes touch
    /// into its statement journal first (a temporary file past 64 KiB), which for a resync's
    /// one group of 1,000 updates scattered in 100,000 records was 2,256 pages, 9.3 MB in 4,512
    /// `pwrite` calls besides the WAL's 4,605 (`strace -f -y`, release build of 4c8a650).
    private func inSavepoint<T>(_ db: Database, _ body: (SoupWriter) throws -> T) throws -> T {
        if let changes = state.changesWhenEmpty, db.isInsideTransaction, db.totalChangesCount == changes {
            return try rollingBack(db, body)
        }
        let context = StoreContext(path: store.path, logger: store.logger)
        state.wrote()
        var result: T?
        try db.inSavepoint {
            result = try body(SoupWriter(db: db, context: context))
            return .commit
        }
        guard let result else { throw SoupStoreError.io("a savepoint returned nothing", path: store.path) }
        return result
    }

    /// Commits when the writer's page cache had to write dirty pages out before the commit (a
    /// spill: what the transaction dirtied no longer fits in the cache, and a page spilled then
    /// dirtied again is written twice); returns whether it committed. Called after each write,
    /// this commits about once per cache-full of dirtied pages, each written once.
    ///
    /// - Throws: `SoupStoreError` (the commit failed: nothing since the last commit is kept).
    public func commitIfSpilling() async throws -> Bool {
        guard !state.ended else { return false }
        return try await store.mapErrors {
            try await store.pool.writeWithoutTransaction { db in
                guard Self.takeSpillCount(db) > 0 else { return false }
                try recommit(db)
                return true
            }
        }
    }

    /// Commits what was written so far and opens the next transaction.
    ///
    /// - Throws: `SoupStoreError` (the commit failed: nothing since the last commit is kept).
    public func commit() async throws {
        guard !state.ended else { return }
        try await store.mapErrors {
            try await store.pool.writeWithoutTransaction { db in try recommit(db) }
        }
    }

    /// Commits the open transaction and opens the next one.
    private func recommit(_ db: Database) throws {
        try commitNow(db)
        try db.beginTransaction(.immediate)
        state.began(changes: db.totalChangesCount)
    }

    /// The dirty pages the writer's cache wrote out to make room (a spill) since the last call,
    /// which resets the count (`SQLITE_DBSTATUS_CACHE_SPILL`).
    @discardableResult
    static func takeSpillCount(_ db: Database) -> Int32 {
        guard let connection = db.sqliteConnection else { return 0 }
        var spilled: Int32 = 0
        var highest: Int32 = 0
        sqlite3_db_status(connection, SQLITE_DBSTATUS_CACHE_SPILL, &spilled, &highest, 1)
        return spilled
    }

    /// Sets the writer's page cache back to SQLite's default (freeing the pages above it).
    static func restoreCache(_ db: Database) {
        try? db.execute(sql: "PRAGMA cache_size = -\(SoupStore.defaultCacheKibibytes)")
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
        let changes = try await mapErrors {
            try await pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA cache_size = -\(kibibytes)")
                LongTransaction.takeSpillCount(db)  // counts from here
                try db.beginTransaction(.immediate)
                return db.totalChangesCount
            }
        }
        let transaction = LongTransaction(store: self, changes: changes)
        // Synchronous, so that a cancelled task still ends the transaction.
        let finish: (Bool) throws -> Void = { [pool] commit in
            try pool.writeWithoutTransaction { db in
                defer { LongTransaction.restoreCache(db) }
                guard db.isInsideTransaction else { return }
                if commit {
                    try transaction.commitNow(db)
                } else {
                    try db.rollback()
                }
            }
        }
        let outcome: Result<T, any Error>
        do {
            outcome = .success(
                try await LongTransaction.$current.withValue(transaction) { try await body(transaction) }
            )
        } catch {
            outcome = .failure(error)
        }
        // After an error too: what was written before it is kept, as a run of separate
        // transactions would keep it. A failed commit rolls back; `body`'s own error wins.
        do {
            try mapErrors { try finish(true) }
        } catch {
            try? finish(false)
            if case .success = outcome { throw error }
        }
        return try outcome.get()
    }

    /// SQLite's default page cache, in KiB (`PRAGMA cache_size = -2000`).
    static let defaultCacheKibibytes = 2000
}
