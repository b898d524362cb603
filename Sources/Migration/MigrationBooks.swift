import Foundation
import GRDB
import SoupStore

/// The (source org, target org) pair a staging store belongs to, kept in one row of
/// `syncrun_migration_binding`: a staging store is never reused for another pair.
public struct MigrationPair: Sendable, Hashable {
    /// The source org id (`00D…`).
    public var sourceOrgID: String
    /// The target org id (`00D…`).
    public var targetOrgID: String

    /// Creates a pair.
    public init(sourceOrgID: String, targetOrgID: String) {
        self.sourceOrgID = sourceOrgID
        self.targetOrgID = targetOrgID
    }
}

/// One row of `syncrun_id_map`: a source record and its counterpart in the target.
public struct IDMapRow: Sendable, Hashable {
    public var sobject: String
    public var sourceID: String
    public var targetID: String

    /// Creates a row.
    public init(sobject: String, sourceID: String, targetID: String) {
        self.sobject = sobject
        self.sourceID = sourceID
        self.targetID = targetID
    }
}

/// A create about to be sent, recorded before the request so that a run after a kill can find
/// what the lost request created (`syncrun_migration_intent`).
public struct CreateIntent: Sendable, Hashable {
    public var sobject: String
    public var sourceID: String
    /// The body sent, as JSON text.
    public var body: String
    /// When it was recorded, in ms since the epoch.
    public var at: Int64
}

/// The migration's books in the staging store: the pair binding, the id map and the create
/// intents, in SQLite tables of syncrun's own that SmartStore ignores.
enum MigrationTables {
    static let binding = "syncrun_migration_binding"
    static let idMap = "syncrun_id_map"
    static let intents = "syncrun_migration_intent"

    static func create(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS \(binding) (id INTEGER PRIMARY KEY CHECK (id = 1), \
                source_org TEXT NOT NULL, target_org TEXT NOT NULL, bound_at INTEGER NOT NULL);
                CREATE TABLE IF NOT EXISTS \(idMap) (source_org TEXT NOT NULL, target_org TEXT NOT NULL, \
                sobject TEXT NOT NULL, source_id TEXT NOT NULL, target_id TEXT NOT NULL, run TEXT, \
                UNIQUE (source_org, target_org, sobject, source_id));
                CREATE INDEX IF NOT EXISTS \(idMap)_source ON \(idMap) (source_id);
                CREATE TABLE IF NOT EXISTS \(intents) (source_org TEXT NOT NULL, target_org TEXT NOT NULL, \
                sobject TEXT NOT NULL, source_id TEXT NOT NULL, body TEXT NOT NULL, at INTEGER NOT NULL, \
                PRIMARY KEY (source_org, target_org, sobject, source_id));
                """
        )
    }
}

/// Reads and writes the migration's books for one pair.
public struct MigrationBooks: Sendable {
    public let store: SoupStore
    public let pair: MigrationPair

    /// Creates the books of `pair` in `store`.
    public init(store: SoupStore, pair: MigrationPair) {
        self.store = store
        self.pair = pair
    }

    /// The pair the store is bound to, or `nil` when no migration used it yet.
    public static func boundPair(of store: SoupStore) throws -> MigrationPair? {
        try store.read { reader in
            guard try reader.db.tableExists(MigrationTables.binding) else { return nil }
            guard
                let row = try Row.fetchOne(
                    reader.db,
                    sql: "SELECT source_org, target_org FROM \(MigrationTables.binding)"
                )
            else { return nil }
            return MigrationPair(sourceOrgID: row[0], targetOrgID: row[1])
        }
    }

    /// Binds the store to the pair (creating the tables); call after checking ``boundPair(of:)``.
    public func bind(now: Int64) throws {
        let pair = pair
        try store.write { writer in
            try MigrationTables.create(writer.db)
            try writer.db.execute(
                sql: "INSERT OR IGNORE INTO \(MigrationTables.binding) (id, source_org, target_org, bound_at) "
                    + "VALUES (1, ?, ?, ?)",
                arguments: [pair.sourceOrgID, pair.targetOrgID, now]
            )
        }
    }

    /// The target ids of `sourceIDs` among the records of `sobjects` (any object when empty).
    func targetIDs(of sourceIDs: [String], sobjects: [String]) throws -> [String: String] {
        guard !sourceIDs.isEmpty else { return [:] }
        let pair = pair
        return try store.read { reader in
            guard try reader.db.tableExists(MigrationTables.idMap) else { return [:] }
            var result: [String: String] = [:]
            for slice in sourceIDs.chunked(400) {
                var sql =
                    "SELECT source_id, target_id FROM \(MigrationTables.idMap) WHERE source_org = ? AND target_org = ? "
                    + "AND source_id IN (\(Self.marks(slice.count)))"
                var arguments = [pair.sourceOrgID, pair.targetOrgID] + slice
                if !sobjects.isEmpty {
                    sql += " AND sobject IN (\(Self.marks(sobjects.count)))"
                    arguments += sobjects
                }
                for row in try Row.fetchAll(reader.db, sql: sql, arguments: StatementArguments(arguments)) {
                    result[row[0]] = row[1]
                }
            }
            return result
        }
    }

    /// The id map rows of this pair, in source-id order, `limit` at a time after `afterSourceID`.
    public func idMapPage(after key: (String, String)?, limit: Int) throws -> [IDMapRow] {
        let pair = pair
        return try store.read { reader in
            guard try reader.db.tableExists(MigrationTables.idMap) else { return [] }
            let after = key ?? ("", "")
            return try Row.fetchAll(
                reader.db,
                sql: """
                    SELECT sobject, source_id, target_id FROM \(MigrationTables.idMap) \
                    WHERE source_org = ? AND target_org = ? AND (sobject, source_id) > (?, ?) \
                    ORDER BY sobject, source_id LIMIT ?
                    """,
                arguments: [pair.sourceOrgID, pair.targetOrgID, after.0, after.1, limit]
            ).map { IDMapRow(sobject: $0[0], sourceID: $0[1], targetID: $0[2]) }
        }
    }

    /// Which of `targetIDs` are already the counterpart of some source record.
    func mappedTargets(_ targetIDs: [String]) throws -> Set<String> {
        guard !targetIDs.isEmpty else { return [] }
        let pair = pair
        return try store.read { reader in
            guard try reader.db.tableExists(MigrationTables.idMap) else { return [] }
            var result: Set<String> = []
            for slice in targetIDs.chunked(400) {
                let rows = try String.fetchAll(
                    reader.db,
                    sql: "SELECT target_id FROM \(MigrationTables.idMap) WHERE source_org = ? AND target_org = ? "
                        + "AND target_id IN (\(Self.marks(slice.count)))",
                    arguments: StatementArguments([pair.sourceOrgID, pair.targetOrgID] + slice)
                )
                result.formUnion(rows)
            }
            return result
        }
    }

    /// Whether `sourceID` of `sobject` was created by the run `run` (not matched or found).
    func createdBy(run: String, sobject: String, sourceIDs: [String]) throws -> Set<String> {
        guard !sourceIDs.isEmpty else { return [] }
        let pair = pair
        return try store.read { reader in
            guard try reader.db.tableExists(MigrationTables.idMap) else { return [] }
            return Set(
                try String.fetchAll(
                    reader.db,
                    sql: "SELECT source_id FROM \(MigrationTables.idMap) WHERE source_org = ? AND target_org = ? "
                        + "AND sobject = ? AND run = ? AND source_id IN (\(Self.marks(sourceIDs.count)))",
                    arguments: StatementArguments([pair.sourceOrgID, pair.targetOrgID, sobject, run] + sourceIDs)
                )
            )
        }
    }

    /// Records the outcome of one batch in one transaction: id map rows (created ones tagged with
    /// `run`), removal of the intents of `clearIntents`, removal of stale rows.
    func recordBatch(
        sobject: String,
        mapped: [(sourceID: String, targetID: String)],
        createdRun: String?,
        clearIntents: [String],
        forget: [String] = []
    ) throws {
        let pair = pair
        try store.write { writer in
            try MigrationTables.create(writer.db)
            let db = writer.db
            let forgetStatement = try db.cachedStatement(
                sql: "DELETE FROM \(MigrationTables.idMap) WHERE source_org = ? AND target_org = ? AND sobject = ? "
                    + "AND source_id = ?"
            )
            for sourceID in forget {
                try forgetStatement.execute(arguments: [pair.sourceOrgID, pair.targetOrgID, sobject, sourceID])
            }
            let insert = try db.cachedStatement(
                sql: """
                    INSERT INTO \(MigrationTables.idMap) (source_org, target_org, sobject, source_id, target_id, run) \
                    VALUES (?, ?, ?, ?, ?, ?) \
                    ON CONFLICT (source_org, target_org, sobject, source_id) DO UPDATE SET target_id = excluded.target_id
                    """
            )
            for (sourceID, targetID) in mapped {
                try insert.execute(arguments: [
                    pair.sourceOrgID, pair.targetOrgID, sobject, sourceID, targetID, createdRun,
                ])
            }
            let clear = try db.cachedStatement(
                sql: "DELETE FROM \(MigrationTables.intents) WHERE source_org = ? AND target_org = ? AND sobject = ? "
                    + "AND source_id = ?"
            )
            for sourceID in clearIntents {
                try clear.execute(arguments: [pair.sourceOrgID, pair.targetOrgID, sobject, sourceID])
            }
        }
    }

    /// Records the intents of a create batch, in one transaction, before it is sent.
    func recordIntents(_ intents: [CreateIntent]) throws {
        let pair = pair
        try store.write { writer in
            try MigrationTables.create(writer.db)
            let insert = try writer.db.cachedStatement(
                sql: """
                    INSERT OR REPLACE INTO \(MigrationTables.intents) \
                    (source_org, target_org, sobject, source_id, body, at) VALUES (?, ?, ?, ?, ?, ?)
                    """
            )
            for intent in intents {
                try insert.execute(arguments: [
                    pair.sourceOrgID, pair.targetOrgID, intent.sobject, intent.sourceID, intent.body, intent.at,
                ])
            }
        }
    }

    /// The intents left of `sobject` (a killed run's creates), oldest first.
    func intents(of sobject: String) throws -> [CreateIntent] {
        let pair = pair
        return try store.read { reader in
            guard try reader.db.tableExists(MigrationTables.intents) else { return [] }
            return try Row.fetchAll(
                reader.db,
                sql: """
                    SELECT sobject, source_id, body, at FROM \(MigrationTables.intents) \
                    WHERE source_org = ? AND target_org = ? AND sobject = ? ORDER BY at, source_id
                    """,
                arguments: [pair.sourceOrgID, pair.targetOrgID, sobject]
            ).map { CreateIntent(sobject: $0[0], sourceID: $0[1], body: $0[2], at: $0[3]) }
        }
    }

    private static func marks(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }
}

extension Array {
    /// The elements in consecutive slices of at most `size`.
    func chunked(_ size: Int) -> [[Element]] {
        stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min($0 + size, count)]) }
    }
}

extension SoupStore {
    /// A read on the calling thread (the synchronous overload, also from async code).
    func readNow<T>(_ body: (SoupReader) throws -> T) throws -> T { try read(body) }

    /// A write transaction on the calling thread (the synchronous overload, also from async code).
    func writeNow<T>(_ body: (SoupWriter) throws -> T) throws -> T { try write(body) }
}
