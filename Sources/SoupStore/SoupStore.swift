import FileSchema
import Foundation
import GRDB
import Logging

/// A SmartStore-compatible store of soups in one SQLite file.
///
/// The file has the layout the Salesforce Mobile SDK writes (bookkeeping tables, `TABLE_N` per
/// soup, FTS5 tables, `syncs_soup`), so an unencrypted SmartStore file opens here and a file
/// written here opens in an app. It runs in WAL mode: one writer at a time, any number of
/// concurrent readers. A new file is created with mode 0600.
///
/// ```swift
/// let store = try SoupStore(path: ".syncrun/store.db")
/// try store.write { writer in
///     try writer.registerSoup(SoupSpec(name: "accounts", indexes: [IndexSpec(path: "Id", type: .string)]))
///     _ = try writer.upsert(#"{"Id": "001", "Name": "Acme"}"#, into: "accounts", byExternalIDPath: "Id")
/// }
/// try store.read { reader in
///     try reader.forEachEntry(in: "accounts") { entry in print(entry.json) }
/// }
/// ```
public final class SoupStore: Sendable {
    /// The store file's path.
    public let path: String
    /// A `DatabasePool` (WAL: one writer, concurrent readers), or for a read-only open of a store on
    /// a read-only medium, an immutable `DatabaseQueue`.
    let pool: any DatabaseWriter
    let logger: Logger

    /// What opening this store did to its schema: the steps applied (none for a read-only open).
    public let upgrade: VersionedDatabase.Upgrade
    /// Files of the store (itself, its `-wal`, `-shm`) this open made private because others could
    /// read them, for the caller to tell the user.
    public let tightenedFiles: [String]

    /// Opens the store at `path`, creating the file (mode 0600, parent directories 0700) and the
    /// SmartStore's tables when missing, applying the schema steps of `migrations` the file lacks
    /// (the tables of the layer that opens it), and finishing any alter-soup operation an earlier
    /// (killed) run left unfinished. An existing file readable by others is made private (0600), with a
    /// notice in the log.
    ///
    /// - Parameters:
    ///   - path: The SQLite file.
    ///   - logger: Receives debug-level records of schema changes; none when `nil`.
    ///   - migrations: The schema steps of the layer that opens the store (the sync ledger passes
    ///     its tables' steps; the store has none of its own beside SmartStore's format).
    /// - Throws: `SoupStoreError` (`.encryptedStore`, `.notASmartStore`, `.newerStore`,
    ///   `.foreignOperation`, `.io`, `.sqlite`).
    public convenience init(path: String, logger: Logger? = nil, migrations: VersionedDatabase = VersionedDatabase([]))
        throws
    {
        try self.init(path: path, logger: logger, readOnly: false, migrations: migrations)
    }

    /// Opens the existing store at `path` for reading only (dry runs, `status`, `store query`): no
    /// byte of the file changes, unfinished alter operations are left as they are, a file written
    /// by an older syncrun is read without being upgraded, and every write throws.
    ///
    /// - Throws: `SoupStoreError` as ``init(path:logger:migrations:)``, and `.io` when the file is
    ///   missing.
    public static func openReadOnly(
        path: String,
        logger: Logger? = nil,
        migrations: VersionedDatabase = VersionedDatabase([])
    ) throws -> SoupStore {
        try SoupStore(path: path, logger: logger, readOnly: true, migrations: migrations)
    }

    private init(path: String, logger: Logger?, readOnly: Bool, migrations: VersionedDatabase) throws {
        self.path = path
        self.logger = logger ?? Logger(label: "syncrun.store", factory: { _ in SwiftLogNoOpLogHandler() })
        if readOnly {
            guard FileManager.default.fileExists(atPath: path) else {
                throw SoupStoreError.io("no store file here; run a sync first (or check --store)", path: path)
            }
            tightenedFiles = []
        } else {
            tightenedFiles = try StoreFile.prepare(path, logger: self.logger)
        }
        let versions = migrations
        var configuration = Configuration()
        configuration.readonly = readOnly
        configuration.busyMode = .timeout(10)
        configuration.label = "syncrun.store"
        // `withLongTransaction` keeps the writer's transaction open between accesses (and ends
        // it on every path itself).
        configuration.allowsUnsafeTransactions = !readOnly
        configuration.prepareDatabase { db in
            // A newer syncrun's file is refused by the writer as it opens, before GRDB's pool first
            // writes to the file (it makes sure the WAL exists with a write right after this): no
            // connection of its own for the check. A read-only store checks through its reader below.
            if !readOnly && !db.configuration.readonly { try versions.refuseNewer(db, path: path) }
            db.add(function: SoupProjection.fanOutFunction)
            // Checkpoint the WAL every 32 MB rather than 4 MB (SQLite's default): a sync down
            // rewrites the same index pages in every page's transaction, and each checkpoint
            // copies them once; the WAL file stays bounded (it restarts after a checkpoint).
            if !readOnly { try db.execute(sql: "PRAGMA wal_autocheckpoint = \(Self.walAutocheckpointPages)") }
        }
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw SoupStoreError.encryptedStore(path)
        } catch let error as DatabaseError where readOnly && Self.isReadOnlyMediumError(error) {
            pool = try Self.openImmutable(path: path, configuration: configuration)
        } catch let refusal as VersionedDatabase.Refusal {
            throw SoupStoreError.newerStore(refusal.path, unknownSteps: refusal.unknownSteps)
        } catch {
            throw SoupStoreError.sqlite(error, path: path)
        }
        let pool = self.pool
        if readOnly {
            let kind = try Self.mapErrors(path: path) {
                try pool.read { db in
                    try versions.refuseNewer(db, path: path)
                    return try SoupSchema.kind(of: db)
                }
            }
            if kind == .other { throw SoupStoreError.notASmartStore(path) }
            upgrade = .none
            return
        }
        let isNewFile = try Self.prepareSchema(pool, path: path)
        let upgrade = try Self.mapErrors(path: path) { try versions.upgrade(pool, path: path, isNewFile: isNewFile) }
        self.upgrade = upgrade
        if upgrade.isUpgrade {
            self.logger.notice(
                "upgraded the store's schema",
                metadata: ["path": "\(path)", "steps": "\(upgrade.appliedSteps.joined(separator: ", "))"]
            )
        }
        try SoupStore.resumeUnfinishedOperations(self)
    }

    /// Opens a store on a read-only medium, where SQLite cannot create the `-shm` file WAL readers
    /// need: as immutable (no locks, no `-shm`), which is exact only when no `-wal` file holds
    /// commits not yet in the main file; otherwise the store cannot be read there.
    private static func openImmutable(path: String, configuration: Configuration) throws -> DatabaseQueue {
        var info = stat()
        if stat(path + "-wal", &info) == 0, info.st_size > 0 { throw SoupStoreError.readOnlyMedium(path) }
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        let escaped = absolute.addingPercentEncoding(withAllowedCharacters: allowed) ?? absolute
        do {
            return try DatabaseQueue(path: "file:\(escaped)?immutable=1", configuration: configuration)
        } catch {
            throw SoupStoreError.readOnlyMedium(path)
        }
    }

    /// Whether `error` is SQLite failing to open a WAL file it may not write beside (a read-only
    /// medium or folder: the `-shm` file cannot be created).
    private static func isReadOnlyMediumError(_ error: DatabaseError) -> Bool {
        [.SQLITE_CANTOPEN, .SQLITE_READONLY].contains(error.resultCode)
    }

    /// Creates or completes SmartStore's bookkeeping tables; returns whether the file was new.
    private static func prepareSchema(_ pool: any DatabaseWriter, path: String) throws -> Bool {
        try mapErrors(path: path) {
            try pool.write { db in
                switch try SoupSchema.kind(of: db) {
                case .empty:
                    try SoupSchema.createBookkeeping(db)
                    try db.execute(sql: "PRAGMA user_version = \(SoupSchema.userVersion)")
                    return true
                case .legacySmartStore:
                    // What iOS does on open for files from before SDK 4.3 (store.md §2.6).
                    try db.execute(sql: "ALTER TABLE soup_names RENAME TO soup_attrs")
                    try SoupSchema.createBookkeeping(db)
                    return false
                case .smartStore:
                    try SoupSchema.createBookkeeping(db)
                    return false
                case .other:
                    throw SoupStoreError.notASmartStore(path)
                }
            }
        }
    }

    /// Runs `body` in one write transaction: everything it does commits together or not at all.
    /// Inside ``withLongTransaction(cacheBytes:_:)``, a savepoint of that transaction instead.
    ///
    /// The writer is only valid inside `body`. Errors thrown by `body` roll the transaction back
    /// and are rethrown unchanged.
    ///
    /// - Throws: `SoupStoreError`, or whatever `body` throws.
    public func write<T>(_ body: (SoupWriter) throws -> T) throws -> T {
        if let open = LongTransaction.current, open.isOpen(on: self) { return try open.writeNow(body) }
        let context = StoreContext(path: path, logger: logger)
        return try mapErrors { try pool.write { db in try body(SoupWriter(db: db, context: context)) } }
    }

    /// Runs `body` in one write transaction without blocking the caller's thread.
    ///
    /// - Throws: `SoupStoreError`, or whatever `body` throws.
    public func write<T: Sendable>(_ body: @escaping @Sendable (SoupWriter) throws -> T) async throws -> T {
        if let open = LongTransaction.current, open.isOpen(on: self) { return try await open.write(body) }
        let context = StoreContext(path: path, logger: logger)
        return try await mapErrors {
            try await pool.write { db in try body(SoupWriter(db: db, context: context)) }
        }
    }

    /// Runs `body` on a snapshot of the store, concurrently with the writer and other readers.
    ///
    /// - Throws: `SoupStoreError`, or whatever `body` throws.
    public func read<T>(_ body: (SoupReader) throws -> T) throws -> T {
        let context = StoreContext(path: path, logger: logger)
        return try mapErrors { try pool.read { db in try body(SoupReader(db: db, context: context)) } }
    }

    /// Runs `body` on a snapshot of the store without blocking the caller's thread.
    ///
    /// - Throws: `SoupStoreError`, or whatever `body` throws.
    public func read<T: Sendable>(_ body: @escaping @Sendable (SoupReader) throws -> T) async throws -> T {
        let context = StoreContext(path: path, logger: logger)
        return try await mapErrors {
            try await pool.read { db in try body(SoupReader(db: db, context: context)) }
        }
    }

    /// Writes the WAL into the main file, so the store is one self-contained file (to ship it in
    /// an app, or copy it).
    ///
    /// - Throws: `SoupStoreError` with code `.sqlite`.
    public func checkpoint() throws {
        try mapErrors { try pool.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) } }
    }

    /// WAL frames (4 KiB pages) after which a commit checkpoints.
    static let walAutocheckpointPages = 8192

    func mapErrors<T>(_ body: () throws -> T) throws -> T {
        try Self.mapErrors(path: path, body)
    }

    private static func mapErrors<T>(path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw SoupStoreError.sqlite(error, path: path)
        } catch let refusal as VersionedDatabase.Refusal {
            throw SoupStoreError.newerStore(refusal.path, unknownSteps: refusal.unknownSteps)
        } catch let failure as PrivateFiles.Failure {
            throw SoupStoreError.io(failure.reason, path: failure.path)
        }
    }

    func mapErrors<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as DatabaseError {
            throw SoupStoreError.sqlite(error, path: path)
        }
    }
}

/// What readers and writers need to know about their store.
package struct StoreContext: Sendable {
    package var path: String
    package var logger: Logger
}
