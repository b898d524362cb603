import FileSchema
import Foundation
import GRDB

/// The journal of one (source org, target org) migration: the id map (which target record each
/// migrated source record became) and the create intents (a create sent, its answer not yet
/// recorded), in a SQLite file of its own.
///
/// It lives apart from the staging store, in `.syncrun/migrations/SOURCE-TARGET.db` under the
/// config directory (the 15-character org ids, so an org named by its 18-character id finds the same
/// file), and syncrun never deletes it: deleting the staging store, or losing it, loses the source
/// records read so far, never the knowledge of what was written to the target.
///
/// Every write is one transaction (write-ahead log, `synchronous = FULL`): an intent is on disk before its
/// create is sent, and the answer (the new id) is recorded in the transaction that clears the
/// intent, so a kill at any instant leaves either an id map row or an intent, which
/// ``CreateRecovery`` resolves. The file is mode 0600, its folder 0700.
public final class MigrationJournal: Sendable {
    /// The pair the journal belongs to.
    public let pair: MigrationPair
    /// The journal file.
    public let path: String
    let queue: DatabaseQueue

    static let pairTable = "migration_pair"
    static let idMapTable = "id_map"
    static let intentTable = "create_intent"
    static let maskSecretTable = "mask_secret"

    /// Where the journal of `pair` lives for the config directory `configDirectory`.
    public static func defaultPath(configDirectory: String, pair: MigrationPair) -> String {
        URL(fileURLWithPath: configDirectory)
            .appendingPathComponent(".syncrun/migrations/\(fileName(for: pair))").path
    }

    /// `SOURCE-TARGET.db`, from the 15-character org ids.
    static func fileName(for pair: MigrationPair) -> String {
        "\(pair.sourceOrgID.prefix(15))-\(pair.targetOrgID.prefix(15)).db"
    }

    /// Opens (creating when missing) the journal at `path` for `pair`.
    ///
    /// - Throws: ``MigrationError`` (refused) when the file cannot be created or opened, is not a
    ///   journal, or belongs to another pair.
    public init(path: String, pair: MigrationPair, now: Int64 = 0) throws {
        self.pair = pair
        self.path = path
        do {
            let isNew = try Self.prepareFile(path)
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            configuration.prepareDatabase { db in
                // A committed transaction is on disk before the call returns (power loss included);
                // with a write-ahead log, one sync per transaction.
                try db.execute(sql: "PRAGMA journal_mode = WAL")
                try db.execute(sql: "PRAGMA synchronous = FULL")
            }
            queue = try DatabaseQueue(path: path, configuration: configuration)
            _ = try Self.schema.upgrade(queue, path: path, isNewFile: isNew)
            let stored = try queue.write { db -> MigrationPair in
                if let row = try Row.fetchOne(db, sql: "SELECT source_org, target_org FROM \(Self.pairTable)") {
                    return MigrationPair(sourceOrgID: row[0], targetOrgID: row[1])
                }
                try db.execute(
                    sql: "INSERT INTO \(Self.pairTable) (id, source_org, target_org, created_at) VALUES (1, ?, ?, ?)",
                    arguments: [pair.sourceOrgID, pair.targetOrgID, now]
                )
                return pair
            }
            guard stored.sourceOrgID.prefix(15) == pair.sourceOrgID.prefix(15),
                stored.targetOrgID.prefix(15) == pair.targetOrgID.prefix(15)
            else {
                throw MigrationError(
                    .refused,
                    "the migration journal '\(path)' belongs to the migration from org \(stored.sourceOrgID) to "
                        + "org \(stored.targetOrgID), not from \(pair.sourceOrgID) to \(pair.targetOrgID); nothing "
                        + "was written. Put it back under its own name (\(Self.fileName(for: stored)))"
                )
            }
        } catch let error as MigrationError {
            throw error
        } catch let refusal as VersionedDatabase.Refusal {
            throw MigrationError(
                .refused,
                "the migration journal '\(path)' was written by a newer syncrun (steps "
                    + "\(refusal.unknownSteps.joined(separator: ", "))); it was left unchanged and nothing was written. "
                    + "Upgrade syncrun to run this migration"
            )
        } catch let error as DatabaseError {
            throw MigrationError(
                .refused,
                "cannot open the migration journal '\(path)': \(error.message ?? "\(error.resultCode)"); nothing was "
                    + "written. Check the file's permissions and free space (it records what earlier runs wrote to "
                    + "the target: never delete it)"
            )
        }
    }

    /// The journal's tables, created by named, ordered steps (FileSchema): a journal written by a
    /// newer syncrun is refused before anything is written to it.
    static let schema = VersionedDatabase([
        .init("journal-1-pair-id-map-create-intents") { db in
            try db.execute(
                sql: """
                    CREATE TABLE \(pairTable) (id INTEGER PRIMARY KEY CHECK (id = 1), \
                    source_org TEXT NOT NULL, target_org TEXT NOT NULL, created_at INTEGER NOT NULL);
                    CREATE TABLE \(idMapTable) (sobject TEXT NOT NULL, source_id TEXT NOT NULL, \
                    target_id TEXT NOT NULL, run TEXT, PRIMARY KEY (sobject, source_id));
                    CREATE INDEX \(idMapTable)_source ON \(idMapTable) (source_id);
                    CREATE INDEX \(idMapTable)_target ON \(idMapTable) (target_id);
                    CREATE TABLE \(intentTable) (sobject TEXT NOT NULL, source_id TEXT NOT NULL, \
                    body TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (sobject, source_id));
                    """
            )
        },
        .init("journal-2-mask-secret") { db in
            try db.execute(
                sql: """
                    CREATE TABLE \(maskSecretTable) (id INTEGER PRIMARY KEY CHECK (id = 1), \
                    secret BLOB NOT NULL, created_at INTEGER NOT NULL);
                    """
            )
        },
    ])

    /// The secret this pair's masks are keyed with, `nil` before the first masked run.
    public func maskSecret() throws -> Data? {
        try queue.read { db in try Data.fetchOne(db, sql: "SELECT secret FROM \(Self.maskSecretTable)") }
    }

    /// The secret this pair's masks are keyed with, made (32 random bytes) and kept on first use,
    /// so that every later run of the pair masks the same way.
    public func maskSecret(creatingAt now: Int64) throws -> Data {
        try queue.write { db in
            if let secret = try Data.fetchOne(db, sql: "SELECT secret FROM \(Self.maskSecretTable)") { return secret }
            let secret = Self.newMaskSecret()
            try db.execute(
                sql: "INSERT INTO \(Self.maskSecretTable) (id, secret, created_at) VALUES (1, ?, ?)",
                arguments: [secret, now]
            )
            return secret
        }
    }

    /// 32 bytes from the system's random source.
    static func newMaskSecret() -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// Creates the folder (0700) and the file (0600) when missing; tightens them when looser.
    /// Returns whether the file was created.
    private static func prepareFile(_ path: String) throws -> Bool {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        do {
            let created = try PrivateFiles.createFile(atPath: path)
            try PrivateFiles.tighten(directory)
            try PrivateFiles.tighten(path)
            return created
        } catch let failure as PrivateFiles.Failure {
            throw MigrationError(
                .refused,
                "cannot prepare the migration journal: \(failure); nothing was written"
            )
        }
    }

    func read<T>(_ body: (Database) throws -> T) throws -> T { try queue.read(body) }

    func write<T>(_ body: (Database) throws -> T) throws -> T { try queue.write(body) }
}
