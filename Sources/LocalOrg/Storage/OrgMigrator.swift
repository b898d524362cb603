import FileSchema
import Foundation
import GRDB

/// Creates and upgrades the SQLite layout of a local org: bookkeeping tables, one table per object,
/// the persisted schema, and the org's own `Organization` and `User` records.
enum OrgMigrator {
    struct Opened {
        var schema: OrgSchema
        var organizationID: String
        var userID: String
        var idSpace: OrgIDSpace
    }

    static func open(_ pool: DatabasePool, schema requested: OrgSchema?, configuration: OrgDatabase.Configuration)
        throws -> Opened
    {
        do {
            return try pool.write { db in
                let stored = try storedSchema(db)
                let schema = requested ?? stored ?? .standard
                if let stored { try checkCompatible(schema, with: stored) }
                for object in schema.objects { try createTable(for: object, db) }
                if requested != nil || stored == nil {
                    let text = OrgSchemaCoding.encode(schema).jsonText
                    if try OrgMeta.text(for: .schema, db) != text {
                        try OrgMeta.setText(text, for: .schema, db)
                        try OrgMeta.setText("", for: .schemaModified, db)
                    }
                }
                if try OrgMeta.text(for: .schemaModified, db).flatMap(Int64.init) == nil {
                    // When the describes last changed (their `Last-Modified`, for `If-Modified-Since`).
                    let now = OrgDateTime.milliseconds(configuration.now())
                    try OrgMeta.setText(String(now), for: .schemaModified, db)
                }
                let idSpace = try ensureIDSpace(db, seed: configuration.idSeed)
                let context = OrgContext(
                    schema: schema,
                    configuration: configuration,
                    organizationID: "",
                    userID: "",
                    idSpace: idSpace
                )
                let (organizationID, userID) = try ensureOrgRecords(db, context: context)
                let orgContext = OrgContext(
                    schema: schema,
                    configuration: configuration,
                    organizationID: organizationID,
                    userID: userID,
                    idSpace: idSpace
                )
                try OrgWriter(db: db, context: orgContext).syncRecordTypes()
                return Opened(schema: schema, organizationID: organizationID, userID: userID, idSpace: idSpace)
            }
        } catch let error as OrgError {
            throw error
        } catch {
            throw OrgError.storage("Preparing the local org database", error)
        }
    }

    /// The local org's own tables (bookkeeping, query cursors, recent items, Bulk jobs and their
    /// results), created and upgraded by named steps. The object tables follow the org's schema and
    /// are created or extended by ``createTable(for:_:)`` on every open.
    ///
    /// `org-1` adopts data directories written before syncrun versioned its files (up to commit
    /// a4b5152), which created these tables on first use: it creates each one only when missing.
    static let versions = VersionedDatabase([
        .init("org-1-bookkeeping-cursors-recent-bulk") { db in
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS _org_meta (key TEXT PRIMARY KEY, value) WITHOUT ROWID;
                    INSERT OR IGNORE INTO _org_meta (key, value) VALUES ('clock', 0), ('ids', 0);
                    CREATE TABLE IF NOT EXISTS _org_cursor (
                        id TEXT PRIMARY KEY, soql TEXT NOT NULL, includeDeleted INTEGER NOT NULL,
                        totalSize INTEGER NOT NULL, firstSeq INTEGER NOT NULL, createdAt INTEGER NOT NULL
                    ) WITHOUT ROWID;
                    CREATE TABLE IF NOT EXISTS _org_cursor_rows (seq INTEGER PRIMARY KEY, rid INTEGER NOT NULL);
                    CREATE TABLE IF NOT EXISTS _org_recent (
                        id TEXT PRIMARY KEY, object TEXT NOT NULL, at INTEGER NOT NULL
                    ) WITHOUT ROWID;
                    CREATE INDEX IF NOT EXISTS _org_recent_at ON _org_recent (at);
                    """
            )
            try BulkJobTable.create(db)
            try BulkIngestRunner.createResultsTable(db)
        },
        .init("org-2-bulk-v1-batches") { db in
            try BulkBatchTable.migrate(db)
        },
        .init("org-3-bulk-job-user") { db in
            try BulkJobTable.addUsername(db)
        },
        .init(ChangeEventLog.migrationName) { db in
            try ChangeEventLog.migrate(db)
        },
    ])

    /// Throws ``OrgError`` when the database at `path` was written by a newer syncrun, reading it
    /// through a read-only connection (nothing is written).
    static func refuseNewer(path: String) throws {
        do {
            try versions.refuseNewer(fileAt: path)
        } catch let refusal as VersionedDatabase.Refusal {
            throw OrgError.invalidInput(
                "the local org '\(path)' was written by a newer syncrun (its schema has "
                    + "\(refusal.unknownSteps.joined(separator: ", "))); it was left unchanged. Upgrade syncrun "
                    + "to serve it, or use another data directory"
            )
        }
    }

    /// Applies the missing steps (a copy of an existing database is kept until they commit).
    static func upgrade(_ pool: DatabasePool, path: String, isNewFile: Bool) throws -> VersionedDatabase.Upgrade {
        do {
            return try versions.upgrade(pool, path: path, isNewFile: isNewFile)
        } catch {
            throw OrgError.storage("Upgrading the local org database", error)
        }
    }

    private static func storedSchema(_ db: Database) throws -> OrgSchema? {
        guard let text = try OrgMeta.text(for: .schema, db) else { return nil }
        return try OrgSchemaCoding.decode(
            OrgJSONValue.decode(Data(text.utf8)),
            base: OrgSchema(objects: []),
            source: "stored schema"
        )
    }

    private static func checkCompatible(_ schema: OrgSchema, with stored: OrgSchema) throws {
        for object in schema.objects {
            guard let old = stored.object(named: object.name) else { continue }
            for field in object.fields {
                if let oldField = old.field(named: field.name),
                    oldField.type.columnDeclaration != field.type.columnDeclaration
                {
                    throw OrgError.invalidInput(
                        "field '\(object.name).\(field.name)' is stored as \(oldField.type.rawValue) but the schema declares \(field.type.rawValue); use a new data directory to change a field's type"
                    )
                }
            }
            if old.keyPrefix != object.keyPrefix {
                throw OrgError.invalidInput(
                    "object '\(object.name)' is stored with key prefix '\(old.keyPrefix)' but the schema declares '\(object.keyPrefix)'"
                )
            }
        }
    }

    static func createTable(for object: OrgObject, _ db: Database) throws {
        let table = OrgSQL.identifier(object.name)
        if try db.tableExists(object.name) {
            let existing = Set(try db.columns(in: object.name).map { $0.name.lowercased() })
            for field in object.fields where !existing.contains(field.name.lowercased()) {
                try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN \(columnDefinition(field))")
            }
        } else {
            let columns = object.fields.map(columnDefinition).joined(separator: ", ")
            try db.execute(sql: "CREATE TABLE \(table) (\(columns))")
        }
        try db.execute(sql: "CREATE UNIQUE INDEX IF NOT EXISTS \(indexName(object, "Id")) ON \(table) (\"Id\")")
        for field in object.fields where needsIndex(field) {
            try db.execute(
                sql:
                    "CREATE INDEX IF NOT EXISTS \(indexName(object, field.name)) ON \(table) (\(OrgSQL.identifier(field.name)))"
            )
        }
    }

    private static func needsIndex(_ field: OrgField) -> Bool {
        ["LastModifiedDate", "SystemModstamp"].contains(field.name) || field.type == .reference || field.isExternalID
            || field.isUnique
    }

    private static func indexName(_ object: OrgObject, _ field: String) -> String {
        OrgSQL.identifier("_org_idx_\(object.name)_\(field)")
    }

    private static func columnDefinition(_ field: OrgField) -> String {
        OrgSQL.identifier(field.name) + " " + field.type.columnDeclaration
    }

    /// The stored ID space; a new org draws one (from `seed` when given), an org created before ID
    /// spaces existed keeps the `Lo` counter IDs it already handed out.
    private static func ensureIDSpace(_ db: Database, seed: UInt64?) throws -> OrgIDSpace {
        if let text = try OrgMeta.text(for: .idSpace, db) {
            guard let space = OrgIDSpace(stored: text) else {
                throw OrgError.invalidInput(
                    "the local org database holds an unreadable ID space '\(text)'; use a new data directory"
                )
            }
            return space
        }
        let space: OrgIDSpace
        if try OrgMeta.text(for: .organizationID, db) != nil {
            space = .legacy
        } else if let seed {
            var generator = SeededRandomNumberGenerator(seed: seed)
            space = .random(using: &generator)
        } else {
            var generator = SystemRandomNumberGenerator()
            space = .random(using: &generator)
        }
        try OrgMeta.setText(space.stored, for: .idSpace, db)
        return space
    }

    private static func ensureOrgRecords(_ db: Database, context: OrgContext) throws -> (String, String) {
        if let organizationID = try OrgMeta.text(for: .organizationID, db),
            let userID = try OrgMeta.text(for: .userID, db)
        {
            return (organizationID, userID)
        }
        let writer = OrgWriter(db: db, context: context)
        let userID = try writer.insert(
            "User",
            fields: [
                "Username": "admin@localorg.invalid", "FirstName": "Local", "LastName": "Admin",
                "Email": "admin@localorg.invalid", "Alias": "ladmin",
            ],
            mode: .system
        )
        let organizationID = try writer.insert(
            "Organization",
            fields: [
                "Name": "Local Org", "IsSandbox": false, "OrganizationType": "Developer Edition",
                "InstanceName": "LOCAL",
            ],
            mode: .system
        )
        // The user created itself: point its audit lookups at its own ID.
        try db.execute(
            sql: "UPDATE \"User\" SET \"CreatedById\" = ?, \"LastModifiedById\" = ? WHERE \"Id\" = ?",
            arguments: [userID, userID, userID]
        )
        try db.execute(
            sql: "UPDATE \"Organization\" SET \"CreatedById\" = ?, \"LastModifiedById\" = ? WHERE \"Id\" = ?",
            arguments: [userID, userID, organizationID]
        )
        try OrgMeta.setText(organizationID, for: .organizationID, db)
        try OrgMeta.setText(userID, for: .userID, db)
        return (organizationID, userID)
    }
}

/// The `_org_meta` key-value table: persisted schema, org IDs, the monotonic clock and the ID counter.
enum OrgMeta {
    enum Key: String {
        case schema, organizationID, userID, clock, ids, idSpace
        /// When the stored schema last changed, in milliseconds.
        case schemaModified
    }

    static func text(for key: Key, _ db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT value FROM _org_meta WHERE key = ?", arguments: [key.rawValue])
    }

    static func setText(_ value: String, for key: Key, _ db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO _org_meta (key, value) VALUES (?, ?)",
            arguments: [key.rawValue, value]
        )
    }

    /// The next modification stamp: `max(now, last + 1)` milliseconds, so stamps strictly increase.
    static func nextStamp(now: Int64, _ db: Database) throws -> Int64 {
        let statement = try db.cachedStatement(
            sql: "UPDATE _org_meta SET value = max(value + 1, ?) WHERE key = 'clock' RETURNING value"
        )
        return try Int64.fetchOne(statement, arguments: [now]) ?? now
    }

    /// The next `count` modification stamps at once, as `count` calls of ``nextStamp(now:_:)`` with
    /// the same `now` would give them (`max(now, last + 1)` and each one more), in one statement.
    static func reserveStamps(_ count: Int, now: Int64, _ db: Database) throws -> Range<Int64> {
        guard count > 0 else { return now..<now }
        let statement = try db.cachedStatement(
            sql: "UPDATE _org_meta SET value = max(value + ?, ? + ? - 1) WHERE key = 'clock' RETURNING value"
        )
        let size = Int64(count)
        let last = try Int64.fetchOne(statement, arguments: [size, now, size]) ?? now + size - 1
        return (last - size + 1)..<(last + 1)
    }

    /// Moves the clock forward to at least `stamp` (after seeding explicit audit dates).
    static func advanceClock(to stamp: Int64, _ db: Database) throws {
        try db.cachedStatement(sql: "UPDATE _org_meta SET value = max(value, ?) WHERE key = 'clock'")
            .execute(arguments: [stamp])
    }

    /// The next `count` values of the record ID counter at once, as `count` calls of
    /// ``nextIDCounter(_:)`` would give them, in one statement.
    static func reserveIDCounters(_ count: Int, _ db: Database) throws -> Range<Int64> {
        guard count > 0 else { return 0..<0 }
        let statement = try db.cachedStatement(
            sql: "UPDATE _org_meta SET value = value + ? WHERE key = 'ids' RETURNING value"
        )
        let size = Int64(count)
        let last = try Int64.fetchOne(statement, arguments: [size]) ?? size
        return (last - size + 1)..<(last + 1)
    }

    /// The next value of the record ID counter.
    static func nextIDCounter(_ db: Database) throws -> Int64 {
        let statement = try db.cachedStatement(
            sql: "UPDATE _org_meta SET value = value + 1 WHERE key = 'ids' RETURNING value"
        )
        return try Int64.fetchOne(statement) ?? 1
    }
}
