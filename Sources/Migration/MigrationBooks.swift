import FileSchema
import Foundation
import GRDB
import SoupStore
import SyncLedger

/// The (source org, target org) pair of a migration: its journal (``MigrationJournal``) and its
/// staging store (bound in one row of `syncrun_migration_binding`, never reused for another pair).
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

/// One row of the journal's id map: a source record and its counterpart in the target.
public struct IDMapRow: Sendable, Hashable {
    public var sobject: String
    public var sourceID: String
    public var targetID: String
}

/// A create about to be sent, recorded in the journal before the request so that a run after a
/// kill can find what the lost request created.
public struct CreateIntent: Sendable, Hashable {
    public var sobject: String
    public var sourceID: String
    /// The body sent, as JSON text.
    public var body: String
    /// When it was recorded, in ms since the epoch.
    public var at: Int64
}

/// The staging store's binding to one pair (`syncrun_migration_binding`, a table of syncrun's own
/// that SmartStore ignores), and the tables in which syncrun before the journal kept the id map and
/// the intents (read once into the journal, then emptied).
enum StagingTables {
    static let binding = "syncrun_migration_binding"
    static let legacyIDMap = "syncrun_id_map"
    static let legacyIntents = "syncrun_migration_intent"

    /// The staging store's own step, after the store's and the ledger's.
    static let steps = VersionedDatabase([
        .init("migration-1-staging-binding") { db in
            // `IF NOT EXISTS`: staging stores of syncrun up to commit a4b5152 created it on first use.
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS \(binding) (id INTEGER PRIMARY KEY CHECK (id = 1), \
                    source_org TEXT NOT NULL, target_org TEXT NOT NULL, bound_at INTEGER NOT NULL)
                    """
            )
        }
    ])
}

extension SoupStore {
    /// Opens (creating when missing) a migration's staging store: the ledger's tables and the
    /// staging binding, upgraded as every store is.
    ///
    /// - Throws: `SoupStoreError` as ``SoupStore/init(path:logger:migrations:)``.
    public static func migrationStaging(path: String) throws -> SoupStore {
        try SoupStore(path: path, migrations: LedgerSchema.migrations.followed(by: StagingTables.steps))
    }
}

/// Reads and writes the migration's books for one pair: its journal (``MigrationJournal``).
public struct MigrationBooks: Sendable {
    public let journal: MigrationJournal
    public var pair: MigrationPair { journal.pair }

    /// Creates the books kept in `journal`.
    public init(journal: MigrationJournal) {
        self.journal = journal
    }

    /// The pair the staging store is bound to, or `nil` when no migration used it yet.
    public static func boundPair(of store: SoupStore) throws -> MigrationPair? {
        try store.read { reader in
            guard try reader.db.tableExists(StagingTables.binding) else { return nil }
            guard
                let row = try Row.fetchOne(
                    reader.db,
                    sql: "SELECT source_org, target_org FROM \(StagingTables.binding)"
                )
            else { return nil }
            return MigrationPair(sourceOrgID: row[0], targetOrgID: row[1])
        }
    }

    /// Binds the staging store to the pair; call after checking ``boundPair(of:)``.
    public static func bind(_ store: SoupStore, to pair: MigrationPair, now: Int64) throws {
        try store.write { writer in
            try writer.db.execute(
                sql: "INSERT OR IGNORE INTO \(StagingTables.binding) (id, source_org, target_org, bound_at) "
                    + "VALUES (1, ?, ?, ?)",
                arguments: [pair.sourceOrgID, pair.targetOrgID, now]
            )
        }
    }

    /// Moves the id map rows and intents an older syncrun kept in the staging store into the
    /// journal (the journal's rows win), then empties those tables; returns the rows moved.
    @discardableResult
    public func importStagingBooks(from store: SoupStore) throws -> Int {
        let pair = pair
        let (rows, intents) = try store.read { reader -> ([Row], [Row]) in
            let db = reader.db
            /// The pair's rows of a legacy table, none when the store never had the table.
            func legacyRows(_ columns: String, of table: String) throws -> [Row] {
                guard try db.tableExists(table) else { return [] }
                return try Row.fetchAll(
                    db,
                    sql: "SELECT \(columns) FROM \(table) WHERE source_org = ? AND target_org = ?",
                    arguments: [pair.sourceOrgID, pair.targetOrgID]
                )
            }
            return (
                try legacyRows("sobject, source_id, target_id, run", of: StagingTables.legacyIDMap),
                try legacyRows("sobject, source_id, body, at", of: StagingTables.legacyIntents)
            )
        }
        guard !rows.isEmpty || !intents.isEmpty else { return 0 }
        try journal.write { db in
            let insert = try db.cachedStatement(
                sql: "INSERT OR IGNORE INTO \(MigrationJournal.idMapTable) (sobject, source_id, target_id, run) "
                    + "VALUES (?, ?, ?, ?)"
            )
            for row in rows {
                try insert.execute(arguments: [row[0] as String, row[1] as String, row[2] as String, row[3] as String?])
            }
            let intent = try db.cachedStatement(
                sql: "INSERT OR IGNORE INTO \(MigrationJournal.intentTable) (sobject, source_id, body, at) "
                    + "VALUES (?, ?, ?, ?)"
            )
            for row in intents {
                try intent.execute(arguments: [row[0] as String, row[1] as String, row[2] as String, row[3] as Int64])
            }
        }
        // Only once the journal holds them (a kill in between imports them again, harmlessly).
        try store.write { writer in
            for table in [StagingTables.legacyIDMap, StagingTables.legacyIntents] {
                try writer.db.execute(
                    sql: "DELETE FROM \(table) WHERE source_org = ? AND target_org = ?",
                    arguments: [pair.sourceOrgID, pair.targetOrgID]
                )
            }
        }
        return rows.count + intents.count
    }

    /// The target ids of `sourceIDs` among the records of `sobjects` (any object when empty).
    func targetIDs(of sourceIDs: [String], sobjects: [String]) throws -> [String: String] {
        guard !sourceIDs.isEmpty else { return [:] }
        return try journal.read { db in
            var result: [String: String] = [:]
            for slice in sourceIDs.chunked(400) {
                var sql =
                    "SELECT source_id, target_id FROM \(MigrationJournal.idMapTable) "
                    + "WHERE source_id IN (\(Self.marks(slice.count)))"
                var arguments = slice
                if !sobjects.isEmpty {
                    sql += " AND sobject IN (\(Self.marks(sobjects.count)))"
                    arguments += sobjects
                }
                for row in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)) {
                    result[row[0]] = row[1]
                }
            }
            return result
        }
    }

    /// The id map rows of this pair, in (sObject, source id) order, `limit` at a time after `key`.
    public func idMapPage(after key: (String, String)?, limit: Int) throws -> [IDMapRow] {
        try journal.read { db in
            let after = key ?? ("", "")
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT sobject, source_id, target_id FROM \(MigrationJournal.idMapTable) \
                    WHERE (sobject, source_id) > (?, ?) ORDER BY sobject, source_id LIMIT ?
                    """,
                arguments: [after.0, after.1, limit]
            ).map { IDMapRow(sobject: $0[0], sourceID: $0[1], targetID: $0[2]) }
        }
    }

    /// The id map rows of `sobject`, in source id order, `limit` at a time after `sourceID`.
    func idMapRows(of sobject: String, after sourceID: String?, limit: Int) throws -> [IDMapRow] {
        try journal.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT sobject, source_id, target_id FROM \(MigrationJournal.idMapTable) \
                    WHERE sobject = ? AND source_id > ? ORDER BY source_id LIMIT ?
                    """,
                arguments: [sobject, sourceID ?? "", limit]
            ).map { IDMapRow(sobject: $0[0], sourceID: $0[1], targetID: $0[2]) }
        }
    }

    /// Which of `targetIDs` are already the counterpart of some source record.
    func mappedTargets(_ targetIDs: [String]) throws -> Set<String> {
        guard !targetIDs.isEmpty else { return [] }
        return try journal.read { db in
            var result: Set<String> = []
            for slice in targetIDs.chunked(400) {
                let rows = try String.fetchAll(
                    db,
                    sql: "SELECT target_id FROM \(MigrationJournal.idMapTable) "
                        + "WHERE target_id IN (\(Self.marks(slice.count)))",
                    arguments: StatementArguments(slice)
                )
                result.formUnion(rows)
            }
            return result
        }
    }

    /// Which of `sourceIDs` of `sobject` were created by the run `run` (not matched or found).
    func createdBy(run: String, sobject: String, sourceIDs: [String]) throws -> Set<String> {
        guard !sourceIDs.isEmpty else { return [] }
        return try journal.read { db in
            var result: Set<String> = []
            for slice in sourceIDs.chunked(400) {
                result.formUnion(
                    try String.fetchAll(
                        db,
                        sql: "SELECT source_id FROM \(MigrationJournal.idMapTable) WHERE sobject = ? AND run = ? "
                            + "AND source_id IN (\(Self.marks(slice.count)))",
                        arguments: StatementArguments([sobject, run] + slice)
                    )
                )
            }
            return result
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
        try journal.write { db in
            let forgetStatement = try db.cachedStatement(
                sql: "DELETE FROM \(MigrationJournal.idMapTable) WHERE sobject = ? AND source_id = ?"
            )
            for sourceID in forget {
                try forgetStatement.execute(arguments: [sobject, sourceID])
            }
            let insert = try db.cachedStatement(
                sql: """
                    INSERT INTO \(MigrationJournal.idMapTable) (sobject, source_id, target_id, run) \
                    VALUES (?, ?, ?, ?) ON CONFLICT (sobject, source_id) DO UPDATE SET target_id = excluded.target_id
                    """
            )
            for (sourceID, targetID) in mapped {
                try insert.execute(arguments: [sobject, sourceID, targetID, createdRun])
            }
            let clear = try db.cachedStatement(
                sql: "DELETE FROM \(MigrationJournal.intentTable) WHERE sobject = ? AND source_id = ?"
            )
            for sourceID in clearIntents {
                try clear.execute(arguments: [sobject, sourceID])
            }
        }
    }

    /// Records the intents of a create batch, in one durable transaction, before it is sent.
    func recordIntents(_ intents: [CreateIntent]) throws {
        try journal.write { db in
            let insert = try db.cachedStatement(
                sql: """
                    INSERT OR REPLACE INTO \(MigrationJournal.intentTable) (sobject, source_id, body, at) \
                    VALUES (?, ?, ?, ?)
                    """
            )
            for intent in intents {
                try insert.execute(arguments: [intent.sobject, intent.sourceID, intent.body, intent.at])
            }
        }
    }

    /// The intents left of `sobject` (a killed run's creates), oldest first.
    func intents(of sobject: String) throws -> [CreateIntent] {
        try journal.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT sobject, source_id, body, at FROM \(MigrationJournal.intentTable) \
                    WHERE sobject = ? ORDER BY at, source_id
                    """,
                arguments: [sobject]
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
