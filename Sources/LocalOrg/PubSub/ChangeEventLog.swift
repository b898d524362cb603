import Foundation
import GRDB

/// The local org's change events, kept in its SQLite file (`_org_change_events`), with the schemas
/// they were written in (`_org_change_schemas`) and the record changes of committed transactions
/// not yet turned into events (`_org_change_pending`). Created by the named migration step
/// ``migrationName`` of ``OrgMigrator/versions``.
///
/// Replay ids are opaque to clients: 16 bytes, this log's random epoch (drawn when the table is
/// created) then the event's sequence number, both big-endian; a replay id of another org or of a
/// log that was recreated is unknown here.
enum ChangeEventLog {
    static let migrationName = "org-4-change-events"

    /// The migration step: the three tables and the epoch.
    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE _org_change_events (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT, entity TEXT NOT NULL, schemaId TEXT NOT NULL,
                    payload BLOB NOT NULL, committedAt INTEGER NOT NULL
                );
                CREATE INDEX _org_change_events_entity ON _org_change_events (entity, seq);
                CREATE INDEX _org_change_events_committed ON _org_change_events (committedAt);
                CREATE TABLE _org_change_schemas (
                    id TEXT PRIMARY KEY, entity TEXT NOT NULL, json TEXT NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE _org_change_pending (
                    seq INTEGER PRIMARY KEY, entity TEXT NOT NULL, recordId TEXT NOT NULL, rid INTEGER NOT NULL,
                    kind TEXT NOT NULL, changed TEXT NOT NULL
                );
                CREATE TABLE _org_change_log (epoch BLOB NOT NULL);
                INSERT INTO _org_change_log (epoch) VALUES (randomblob(8));
                """
        )
    }

    /// One stored event.
    struct Event: Sendable, Hashable {
        var sequence: Int64
        var entity: String
        var schemaID: String
        var payload: [UInt8]
        var committedAt: Int64
    }

    static func epoch(_ db: Database) throws -> [UInt8] {
        let data = try Data.fetchOne(db, sql: "SELECT epoch FROM _org_change_log LIMIT 1") ?? Data()
        return [UInt8](data)
    }

    static func replayID(epoch: [UInt8], sequence: Int64) -> [UInt8] {
        var bytes = epoch
        withUnsafeBytes(of: sequence.bigEndian) { bytes += $0 }
        return bytes
    }

    /// The sequence number a replay id names, or `nil` when it is not one of this log's.
    static func sequence(ofReplayID replayID: [UInt8], epoch: [UInt8]) -> Int64? {
        guard replayID.count == epoch.count + 8, replayID.prefix(epoch.count).elementsEqual(epoch) else { return nil }
        var value: Int64 = 0
        for byte in replayID.suffix(8) { value = value << 8 | Int64(byte) }
        return value >= 0 ? value : nil
    }

    static func append(
        entity: String,
        schema: ChangeEventSchema,
        payload: [UInt8],
        committedAt: Int64,
        _ db: Database
    ) throws -> Int64 {
        try db.execute(
            sql: "INSERT OR IGNORE INTO _org_change_schemas (id, entity, json) VALUES (?, ?, ?)",
            arguments: [schema.id, entity, schema.jsonText]
        )
        try db.execute(
            sql: "INSERT INTO _org_change_events (entity, schemaId, payload, committedAt) VALUES (?, ?, ?, ?)",
            arguments: [entity, schema.id, Data(payload), committedAt]
        )
        return db.lastInsertedRowID
    }

    /// Deletes the events committed before `cutoff` (milliseconds).
    static func purge(before cutoff: Int64, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM _org_change_events WHERE committedAt < ?", arguments: [cutoff])
    }

    /// The oldest retained and the newest sequence numbers (`nil` when none was ever written).
    static func bounds(_ db: Database) throws -> (oldest: Int64?, newest: Int64?) {
        let oldest = try Int64.fetchOne(db, sql: "SELECT min(seq) FROM _org_change_events")
        let newest =
            try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = '_org_change_events'")
        return (oldest, newest)
    }

    /// Up to `limit` events after `sequence`, of `entity` (all when `nil`), oldest first.
    static func events(after sequence: Int64, entity: String?, limit: Int, _ db: Database) throws -> [Event] {
        let rows: [Row]
        if let entity {
            rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT seq, entity, schemaId, payload, committedAt FROM _org_change_events
                    WHERE entity = ? AND seq > ? ORDER BY seq LIMIT ?
                    """,
                arguments: [entity, sequence, limit]
            )
        } else {
            rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT seq, entity, schemaId, payload, committedAt FROM _org_change_events
                    WHERE seq > ? ORDER BY seq LIMIT ?
                    """,
                arguments: [sequence, limit]
            )
        }
        return rows.map { row in
            Event(
                sequence: row[0],
                entity: row[1],
                schemaID: row[2],
                payload: [UInt8](row[3] as Data),
                committedAt: row[4]
            )
        }
    }

    /// The JSON text of the schema with this id.
    static func schemaJSON(id: String, _ db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT json FROM _org_change_schemas WHERE id = ?", arguments: [id])
    }
}
