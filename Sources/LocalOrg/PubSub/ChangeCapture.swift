import Avro
import Foundation
import GRDB

/// Turns every committed record write of the local org into change events, whatever wrote it
/// (REST, composite, collections, tree, Bulk 1.0 and 2.0 jobs, cascades): nothing in the write
/// paths calls it.
///
/// Temporary triggers on the writer connection (in SQLite's `temp` schema, never in the org file)
/// note each inserted, updated or (soft-)deleted row of a CDC-enabled object in
/// `_org_change_pending`, inside the writing transaction, so a rolled-back savepoint or
/// transaction leaves nothing behind. When the transaction commits, this observer turns the
/// pending rows into events in a follow-up transaction on the same (serial) writer: one event per
/// transaction, object and change type, with all the record ids. Pending rows left by a process
/// killed between the two are turned into events when the org next opens.
final class ChangeCapture: TransactionObserver {
    private let context: OrgContext
    private let schemas: [String: ChangeEventSchema]
    private let signal: ChangeEventFeed.AppendSignal
    private var isDirty = false
    private var isFlushing = false

    init(context: OrgContext, schemas: [String: ChangeEventSchema], signal: ChangeEventFeed.AppendSignal) {
        self.context = context
        self.schemas = schemas
        self.signal = signal
    }

    /// Creates the triggers on the writer connection, registers the observer for the database's
    /// lifetime and flushes what a killed process left pending.
    static func install(
        on pool: DatabasePool,
        context: OrgContext,
        schemas: [String: ChangeEventSchema],
        feed: ChangeEventFeed
    ) throws {
        try pool.writeWithoutTransaction { db in
            for object in context.schema.objects where schemas[object.name] != nil {
                try createTriggers(for: object, db)
            }
            let capture = ChangeCapture(context: context, schemas: schemas, signal: feed.signal)
            db.add(transactionObserver: capture, extent: .databaseLifetime)
            try capture.flush(db)
        }
    }

    private static func createTriggers(for object: OrgObject, _ db: Database) throws {
        let table = OrgSQL.identifier(object.name)
        let entity = OrgSQL.literal(object.name)
        let hasIsDeleted = object.field(named: "IsDeleted") != nil
        let changed: String =
            object.fields.filter { $0.name != "Id" }.map { (field: OrgField) -> String in
                let column = OrgSQL.identifier(field.name)
                return
                    "(CASE WHEN OLD.\(column) IS NOT NEW.\(column) THEN \(OrgSQL.literal(field.name + ",")) ELSE '' END)"
            }.joined(separator: " || ")
        let kind: String =
            hasIsDeleted
            ? "CASE WHEN NEW.\"IsDeleted\" = 1 THEN 'D' WHEN OLD.\"IsDeleted\" = 1 THEN 'R' ELSE 'U' END" : "'U'"
        let skipDeadRows: String = hasIsDeleted ? "WHEN NOT (OLD.\"IsDeleted\" = 1 AND NEW.\"IsDeleted\" = 1)" : ""
        let name = { (suffix: String) in OrgSQL.identifier("_org_cdc_\(object.name)_\(suffix)") }
        try db.execute(
            sql: """
                CREATE TEMP TRIGGER IF NOT EXISTS \(name("i")) AFTER INSERT ON main.\(table) BEGIN
                  INSERT INTO _org_change_pending (entity, recordId, rid, kind, changed)
                  VALUES (\(entity), NEW."Id", NEW.rowid, 'C', '');
                END;
                CREATE TEMP TRIGGER IF NOT EXISTS \(name("u")) AFTER UPDATE ON main.\(table) \(skipDeadRows) BEGIN
                  INSERT INTO _org_change_pending (entity, recordId, rid, kind, changed)
                  VALUES (\(entity), NEW."Id", NEW.rowid, \(kind), \(changed.isEmpty ? "''" : changed));
                END;
                CREATE TEMP TRIGGER IF NOT EXISTS \(name("d")) AFTER DELETE ON main.\(table) BEGIN
                  INSERT INTO _org_change_pending (entity, recordId, rid, kind, changed)
                  VALUES (\(entity), OLD."Id", OLD.rowid, 'D', '');
                END;
                """
        )
    }

    // MARK: TransactionObserver

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        eventKind.tableName == "_org_change_pending"
    }

    func databaseDidChange(with event: DatabaseEvent) {
        isDirty = true
        stopObservingDatabaseChangesUntilNextTransaction()
    }

    func databaseDidCommit(_ db: Database) {
        guard isDirty, !isFlushing else { return }
        isDirty = false
        // A failure here leaves the rows pending; the next commit or open tries again.
        try? flush(db)
    }

    func databaseDidRollback(_ db: Database) {
        isDirty = false
    }

    // MARK: Flushing

    private struct Pending {
        var recordID: String
        var rowID: Int64
        var changed: [String]
    }

    /// The records of one object and change type in a transaction, in the order they came.
    private struct Group {
        var entity: String
        var kind: String
        var records: [Pending] = []
    }

    /// Turns the pending rows into events, in one transaction.
    func flush(_ db: Database) throws {
        isFlushing = true
        defer { isFlushing = false }
        var newest: Int64?
        try db.inTransaction {
            let rows = try Row.fetchAll(
                db,
                sql: "SELECT entity, recordId, rid, kind, changed FROM _org_change_pending ORDER BY seq"
            )
            guard !rows.isEmpty else { return .commit }
            // Group by object and change type, in the order they first appear.
            // Linear in the rows: a transaction may write hundreds of thousands (a Bulk job, a seed).
            var groups: [Group] = []
            var groupIndex: [String: Int] = [:]
            var recordIndex: [String: Int] = [:]  // group key + record id → index in its group
            var created: Set<String> = []
            for row in rows {
                let entity: String = row[0]
                let recordID: String = row[1]
                var kind: String = row[3]
                if kind == "C" { created.insert(recordID) }
                // A record created in this transaction and then updated is one CREATE.
                if kind == "U", created.contains(recordID) { continue }
                if kind == "R" { kind = "UNDELETE" }
                let key = entity + "\u{0}" + kind
                let changed = (row[4] as String).split(separator: ",").map(String.init)
                let group: Int
                if let existing = groupIndex[key] {
                    group = existing
                } else {
                    group = groups.count
                    groupIndex[key] = group
                    groups.append(Group(entity: entity, kind: kind))
                }
                let recordKey = key + "\u{0}" + recordID
                if let index = recordIndex[recordKey] {
                    groups[group].records[index].changed += changed
                } else {
                    recordIndex[recordKey] = groups[group].records.count
                    groups[group].records.append(Pending(recordID: recordID, rowID: row[2], changed: changed))
                }
            }
            let now = context.nowMilliseconds
            let transactionKey = UUID().uuidString.lowercased()
            for (index, group) in groups.enumerated() {
                guard let schema = schemas[group.entity] else { continue }
                let payload = try ChangeEventPayload(
                    schema: schema,
                    changeType: Self.changeType(group.kind),
                    records: group.records.map {
                        ChangeEventPayload.Record(id: $0.recordID, rowID: $0.rowID, changedFields: $0.changed)
                    },
                    transactionKey: transactionKey,
                    sequenceNumber: index + 1,
                    commitTimestamp: now,
                    commitUser: context.userID
                ).encoded(db)
                newest = try ChangeEventLog.append(
                    entity: group.entity,
                    schema: schema,
                    payload: payload,
                    committedAt: now,
                    db
                )
            }
            try db.execute(sql: "DELETE FROM _org_change_pending")
            let retention = Int64(context.configuration.changeEventRetention * 1000)
            try ChangeEventLog.purge(before: now - retention, db)
            return .commit
        }
        isDirty = false
        if let newest { signal.didAppend(newest) }
    }

    private static func changeType(_ kind: String) -> String {
        switch kind {
        case "C": "CREATE"
        case "D": "DELETE"
        case "UNDELETE": "UNDELETE"
        default: "UPDATE"
        }
    }
}
