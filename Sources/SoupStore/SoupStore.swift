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
    let pool: DatabasePool
    let logger: Logger

    /// Opens the store at `path`, creating the file (mode 0600, parent directories 0700) and the
    /// bookkeeping tables when missing, and finishing any alter-soup operation or bulk load an
    /// earlier (killed) run left unfinished.
    ///
    /// - Parameters:
    ///   - path: The SQLite file.
    ///   - logger: Receives debug-level records of schema changes; none when `nil`.
    /// - Throws: `SoupStoreError` (`.encryptedStore`, `.notASmartStore`, `.foreignOperation`,
    ///   `.io`, `.sqlite`).
    public convenience init(path: String, logger: Logger? = nil) throws {
        try self.init(path: path, logger: logger, readOnly: false)
    }

    /// Opens the existing store at `path` for reading only (dry runs): no byte of the file
    /// changes, unfinished alter operations are left as they are, and every write throws.
    ///
    /// - Throws: `SoupStoreError` as ``init(path:logger:)``, and `.io` when the file is missing.
    public static func openReadOnly(path: String, logger: Logger? = nil) throws -> SoupStore {
        try SoupStore(path: path, logger: logger, readOnly: true)
    }

    private init(path: String, logger: Logger?, readOnly: Bool) throws {
        self.path = path
        self.logger = logger ?? Logger(label: "syncrun.store", factory: { _ in SwiftLogNoOpLogHandler() })
        if !readOnly { try StoreFile.prepare(path) }
        var configuration = Configuration()
        configuration.readonly = readOnly
        configuration.busyMode = .timeout(10)
        configuration.label = "syncrun.store"
        configuration.prepareDatabase { db in
            db.add(function: SoupProjection.fanOutFunction)
            // Checkpoint the WAL every 32 MB rather than 4 MB (SQLite's default): a sync down
            // rewrites the same index pages in every page's transaction, and each checkpoint
            // copies them once; the WAL file stays bounded (it restarts after a checkpoint).
            try db.execute(sql: "PRAGMA wal_autocheckpoint = \(Self.walAutocheckpointPages)")
        }
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw SoupStoreError.encryptedStore(path)
        } catch {
            throw SoupStoreError.sqlite(error, path: path)
        }
        if readOnly {
            let kind = try mapErrors { try pool.read { try SoupSchema.kind(of: $0) } }
            if kind == .other { throw SoupStoreError.notASmartStore(path) }
            return
        }
        try prepareSchema()
        try SoupStore.resumeUnfinishedOperations(self)
        try finishAbandonedBulkLoads()
    }

    private func prepareSchema() throws {
        let path = self.path
        try mapErrors {
            try pool.write { db in
                switch try SoupSchema.kind(of: db) {
                case .empty:
                    try SoupSchema.createBookkeeping(db)
                    try db.execute(sql: "PRAGMA user_version = \(SoupSchema.userVersion)")
                case .legacySmartStore:
                    // What iOS does on open for files from before SDK 4.3 (store.md §2.6).
                    try db.execute(sql: "ALTER TABLE soup_names RENAME TO soup_attrs")
                    try SoupSchema.createBookkeeping(db)
                case .smartStore:
                    try SoupSchema.createBookkeeping(db)
                case .other:
                    throw SoupStoreError.notASmartStore(path)
                }
            }
        }
    }

    /// Runs `body` in one write transaction: everything it does commits together or not at all.
    ///
    /// The writer is only valid inside `body`. Errors thrown by `body` roll the transaction back
    /// and are rethrown unchanged.
    ///
    /// - Throws: `SoupStoreError`, or whatever `body` throws.
    public func write<T>(_ body: (SoupWriter) throws -> T) throws -> T {
        let context = StoreContext(path: path, logger: logger)
        return try mapErrors { try pool.write { db in try body(SoupWriter(db: db, context: context)) } }
    }

    /// Runs `body` in one write transaction without blocking the caller's thread.
    ///
    /// - Throws: `SoupStoreError`, or whatever `body` throws.
    public func write<T: Sendable>(_ body: @escaping @Sendable (SoupWriter) throws -> T) async throws -> T {
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
        do {
            return try body()
        } catch let error as DatabaseError {
            throw SoupStoreError.sqlite(error, path: path)
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
