import Foundation
import GRDB

/// Inserts and updates: body validation, defaults, audit fields and integrity checks.
extension OrgWriter {
    /// The identity and version of a stored row.
    struct StoredRow {
        var rowID: Int64
        var id: String
        var isDeleted: Bool
        var lastModified: Int64
        var systemModstamp: Int64

        var etag: String { OrgWriter.etag(id: id, systemModstamp: systemModstamp) }
    }

    /// The row for `id` of `object`, deleted or not; `nil` when unknown. Malformed IDs and IDs of
    /// another object are unknown (404), as on the REST resources.
    func storedRow(_ object: OrgObject, id: String) throws -> StoredRow? {
        guard let normalized = OrgRecordID.normalize(id), normalized.hasPrefix(object.keyPrefix) else { return nil }
        // Looked up for every record a collections call updates: prepared once per object.
        let statement = try db.cachedStatement(
            sql: """
                SELECT rowid, "Id", "IsDeleted", "LastModifiedDate", "SystemModstamp"
                FROM \(OrgSQL.identifier(object.name)) WHERE "Id" = ?
                """
        )
        // Read from the statement's own row, not a copy of it: one row at most, by the unique Id.
        // The row is valid while its cursor lives.
        let cursor = try Row.fetchCursor(statement, arguments: [normalized])
        return try withExtendedLifetime(cursor) {
            guard let row = try cursor.next() else { return nil }
            return StoredRow(
                rowID: row[0],
                id: row[1],
                isDeleted: (row[2] as Int64? ?? 0) != 0,
                lastModified: row[3] ?? 0,
                systemModstamp: row[4] ?? 0
            )
        }
    }

    /// The live row for `id`. - Throws: `NOT_FOUND` or `ENTITY_IS_DELETED` (404).
    func liveRow(_ object: OrgObject, id: String) throws -> StoredRow {
        guard let row = try storedRow(object, id: id) else { throw OrgError.notFound() }
        if row.isDeleted { throw OrgError.entityIsDeleted() }
        return row
    }

    static func etag(id: String, systemModstamp: Int64) -> String {
        // A stable digest of ID and stamp (FNV-1a, 64 bits), base-36: changes on every write.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(id):\(systemModstamp)".utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return String(hash, radix: 36) + "-" + String(systemModstamp, radix: 36)
    }

    func check(_ preconditions: [OrgPrecondition], against row: StoredRow) throws {
        for precondition in preconditions {
            switch precondition {
            case .ifUnmodifiedSince(let date):
                // HTTP dates have whole seconds: compare the record's stamp truncated to its second.
                let limit = OrgDateTime.milliseconds(date)
                if OrgDateTime.floorDivide(row.lastModified, 1000) * 1000 > limit {
                    throw OrgError.preconditionFailed(
                        "The record \(row.id) was modified at \(OrgDateTime.format(milliseconds: row.lastModified)), after the If-Unmodified-Since time \(OrgDateTime.format(milliseconds: limit))"
                    )
                }
            case .ifMatch(let tags):
                if !tags.contains("*"), !tags.contains(row.etag) {
                    throw OrgError.preconditionFailed("The ETag of record \(row.id) does not match If-Match")
                }
            case .ifNoneMatch(let tags):
                if tags.contains("*") || tags.contains(row.etag) {
                    throw OrgError.preconditionFailed("The ETag of record \(row.id) matches If-None-Match")
                }
            }
        }
    }

    /// Validates a body and returns the stored values in body order.
    private func values(
        of fields: OrgJSONObject,
        for object: OrgObject,
        creating: Bool,
        mode: Mode,
        ownID: String?
    ) throws -> [(OrgField, DatabaseValue)] {
        var resolved: [(OrgField, OrgJSONValue)] = []
        var notWritable: [String] = []
        for (key, value) in fields {
            if key.lowercased() == "attributes" { continue }
            guard let field = object.field(named: key) else { throw OrgError.unknownField(key, object: object.name) }
            if field.type == .id {
                if !creating, let ownID, let given = value.stringValue, OrgRecordID.normalize(given) == ownID {
                    continue
                }
                notWritable.append(field.name)
                continue
            }
            let allowed: Bool
            switch mode {
            case .system: allowed = true
            case .seed:
                allowed =
                    (creating ? field.isCreateable : field.isUpdateable) || Self.auditFields.contains(key.lowercased())
            case .api: allowed = creating ? field.isCreateable : field.isUpdateable
            }
            if !allowed {
                notWritable.append(field.name)
                continue
            }
            resolved.append((field, value))
        }
        if !notWritable.isEmpty { throw OrgError.notWritable(notWritable) }
        var result: [(OrgField, DatabaseValue)] = []
        for (field, value) in resolved {
            var stored = try OrgValueCoercion.databaseValue(value, for: field)
            if field.type == .boolean, stored.isNull { stored = 0.databaseValue }
            result.append((field, stored))
        }
        return result
    }

    /// Checks lookups, required fields and uniqueness of the final values.
    private func checkIntegrity(
        _ values: [(OrgField, DatabaseValue)],
        object: OrgObject,
        ownID: String?,
        creating: Bool,
        rowID: Int64? = nil
    )
        throws
    {
        try checkActivityLinks(values, object: object, rowID: rowID)
        let missing = values.filter { $0.1.isNull && !$0.0.isNillable && $0.0.type != .boolean }.map(\.0.name)
        if !missing.isEmpty { throw OrgError.requiredFieldsMissing(missing) }
        for (field, value) in values where field.type == .reference {
            if case .string(let id) = value.storage { try checkReference(field, id: id, object: object) }
        }
        for (field, value) in values where field.isUnique && !value.isNull {
            let clash = try String.fetchOne(
                db,
                sql: """
                    SELECT "Id" FROM \(OrgSQL.identifier(object.name))
                    WHERE \(OrgSQL.identifier(field.name)) = ? AND "IsDeleted" = 0 AND "Id" IS NOT ? LIMIT 1
                    """,
                arguments: [value, ownID]
            )
            if let clash { throw OrgError.duplicateValue(field: field.name, existingID: clash) }
        }
    }

    /// Checks a lookup value: a record of a type the field points to, alive (`ENTITY_IS_DELETED` when
    /// it is in the Recycle Bin, `INVALID_CROSS_REFERENCE_KEY` when it never existed); a
    /// `RecordTypeId` must name an active record type of `object`.
    private func checkReference(_ field: OrgField, id: String, object: OrgObject) throws {
        if field.referenceTo.count == 1, field.referenceTo[0] == "RecordType", field.name == "RecordTypeId" {
            return try checkRecordType(field, id: id, object: object)
        }
        guard let target = context.schema.object(forID: id) else {
            throw OrgError.invalidCrossReference(field: field.name, id: id)
        }
        guard field.referenceTo.contains(where: { $0.lowercased() == target.name.lowercased() }) else {
            throw OrgError.wrongReferenceType(field: field.name, label: field.label, id: id)
        }
        let statement = try db.cachedStatement(
            sql: "SELECT \"IsDeleted\" FROM \(OrgSQL.identifier(target.name)) WHERE \"Id\" = ?"
        )
        guard let isDeleted = try Int64.fetchOne(statement, arguments: [id]) else {
            throw OrgError.invalidCrossReference(field: field.name, id: id)
        }
        if isDeleted != 0 { throw OrgError.referenceIsDeleted(field: field.name, id: id) }
    }

    /// Inserts a record after validation; returns the new ID.
    func insert(_ objectName: String, fields: OrgJSONObject, mode: Mode) throws -> String {
        let object = try context.recordObject(objectName)
        if mode == .api { try context.requireWritable(object, .create) }
        var values = try self.values(of: fields, for: object, creating: true, mode: mode, ownID: nil)
        let given = Set(values.map { $0.0.name })
        // Defaults fill the fields the acting user cannot see too, as on a real org.
        let allFields = context.storageSchema.object(named: object.name)?.fields ?? object.fields
        for field in allFields where !given.contains(field.name) && field.type != .id {
            if let value = field.defaultValue {
                values.append((field, try OrgValueCoercion.databaseValue(value, for: field)))
            } else if field.name == "OwnerId", !context.userID.isEmpty {
                values.append((field, context.userID.databaseValue))
            } else if field.name == "RecordTypeId", let recordTypeID = try defaultRecordTypeID(object) {
                values.append((field, recordTypeID.databaseValue))
            } else if field.type == .boolean, field.name != "IsDeleted" {
                values.append((field, 0.databaseValue))
            } else if field.isRequiredOnCreate {
                values.append((field, .null))
            }
        }
        try checkIntegrity(values, object: object, ownID: nil, creating: true)
        let id = context.idSpace.id(prefix: object.keyPrefix, counter: try nextIDCounter())
        let audit = try auditValues(given: values, creating: true)
        values.removeAll { Self.auditFields.contains($0.0.name.lowercased()) }
        var columns = ["Id", "IsDeleted"] + audit.map { $0.0 }
        var arguments: [DatabaseValue] = [id.databaseValue, 0.databaseValue] + audit.map { $0.1 }
        for (field, value) in values {
            columns.append(field.name)
            arguments.append(value)
        }
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        // Bodies of one shape repeat (seeding, collections): reuse the prepared statement.
        let statement = try db.cachedStatement(
            sql:
                "INSERT INTO \(OrgSQL.identifier(object.name)) (\(columns.map(OrgSQL.identifier).joined(separator: ", "))) VALUES (\(placeholders))"
        )
        try statement.execute(arguments: OrgSQL.arguments(arguments))
        try maintainComputedFields(object, rowID: db.lastInsertedRowID)
        if mode != .seed { try markRecent(object, id: id) }
        return id
    }

    /// Applies an update body to a live row.
    func applyUpdate(_ object: OrgObject, row: StoredRow, fields: OrgJSONObject, mode: Mode) throws {
        if mode == .api { try context.requireWritable(object, .edit) }
        var values = try self.values(of: fields, for: object, creating: false, mode: mode, ownID: row.id)
        try checkIntegrity(values, object: object, ownID: row.id, creating: false, rowID: row.rowID)
        let audit = try auditValues(given: values, creating: false)
        values.removeAll { Self.auditFields.contains($0.0.name.lowercased()) }
        let assignments = (audit.map { $0.0 } + values.map { $0.0.name }).map { "\(OrgSQL.identifier($0)) = ?" }
        var arguments = audit.map { $0.1 } + values.map { $0.1 }
        arguments.append(row.rowID.databaseValue)
        // Prepared once per shape: compiling an UPDATE also compiles the table's change-capture
        // trigger, which cost more than the write itself.
        try db.cachedStatement(
            sql: "UPDATE \(OrgSQL.identifier(object.name)) SET \(assignments.joined(separator: ", ")) WHERE rowid = ?"
        ).execute(arguments: OrgSQL.arguments(arguments))
        try maintainComputedFields(object, rowID: row.rowID)
        try markRecent(object, id: row.id)
    }

    /// The audit columns of a write: the monotonic stamp, or (when seeding) the given dates, with the
    /// clock moved past them so later writes still stamp strictly later.
    private func auditValues(given values: [(OrgField, DatabaseValue)], creating: Bool) throws -> [(
        String, DatabaseValue
    )] {
        func given(_ name: String) -> DatabaseValue? {
            values.first { $0.0.name == name && !$0.1.isNull }?.1
        }
        var created = given("CreatedDate").flatMap { Int64.fromDatabaseValue($0) }
        var modified = given("LastModifiedDate").flatMap { Int64.fromDatabaseValue($0) }
        var modstamp = given("SystemModstamp").flatMap { Int64.fromDatabaseValue($0) }
        if created == nil, modified == nil, modstamp == nil {
            let stamp = try nextStamp()
            modified = stamp
            modstamp = stamp
            if creating { created = stamp }
        } else {
            modified = modified ?? modstamp ?? created
            modstamp = modstamp ?? modified
            if creating { created = created ?? min(modified ?? 0, modstamp ?? 0) }
            try advanceClock(to: max(created ?? 0, modified ?? 0, modstamp ?? 0))
        }
        let user = context.userID.isEmpty ? DatabaseValue.null : context.userID.databaseValue
        var result: [(String, DatabaseValue)] = [
            ("LastModifiedDate", modified.databaseValue), ("SystemModstamp", modstamp.databaseValue),
            ("LastModifiedById", given("LastModifiedById") ?? user),
        ]
        if creating {
            result.append(("CreatedDate", created.databaseValue))
            result.append(("CreatedById", given("CreatedById") ?? user))
        }
        return result
    }

    /// Server-maintained values: the compound `Name` of people and `CaseNumber`.
    private func maintainComputedFields(_ object: OrgObject, rowID: Int64) throws {
        let table = OrgSQL.identifier(object.name)
        if object.field(named: "FirstName") != nil, let name = object.field(named: "Name"), !name.isCreateable {
            try db.cachedStatement(
                sql: """
                    UPDATE \(table) SET "Name" = trim(coalesce("FirstName" || ' ', '') || coalesce("LastName", ''))
                    WHERE rowid = ?
                    """
            ).execute(arguments: [rowID])
        }
        if object.field(named: "StageName") != nil, let won = object.field(named: "IsWon"), !won.isCreateable,
            let closed = object.field(named: "IsClosed"), !closed.isCreateable
        {
            // The stage decides, as a real org's OpportunityStage records do.
            try db.cachedStatement(
                sql: """
                    UPDATE \(table) SET "IsWon" = ("StageName" = ?),
                    "IsClosed" = ("StageName" IN (SELECT value FROM json_each(?))) WHERE rowid = ?
                    """
            ).execute(arguments: [OrgSchema.closedStages[0], Self.jsonList(OrgSchema.closedStages), rowID])
        }
        if let number = object.field(named: "CaseNumber"), !number.isCreateable {
            try db.cachedStatement(
                sql:
                    "UPDATE \(table) SET \"CaseNumber\" = printf('%08d', rowid) WHERE rowid = ? AND \"CaseNumber\" IS NULL"
            ).execute(arguments: [rowID])
        }
    }

    /// Records a view or change for the recent-items lists.
    func markRecent(_ object: OrgObject, id: String) throws {
        guard object.name != "Organization", object.name != "RecordType" else { return }
        try db.cachedStatement(
            sql:
                "INSERT OR REPLACE INTO _org_recent (id, object, at) VALUES (?, ?, (SELECT coalesce(max(at), 0) + 1 FROM _org_recent))"
        ).execute(arguments: [id, object.name])
    }
}
