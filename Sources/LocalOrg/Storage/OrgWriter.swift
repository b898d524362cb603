import Foundation
import GRDB

/// Record writes inside one ``OrgDatabase/write(_:)`` transaction, with Salesforce's validation and
/// error codes.
///
/// Every method throws ``OrgError``. A failed call leaves the records unchanged; wrap a call in
/// ``savepoint(_:)`` to keep going after it in the same transaction (non-`allOrNone` batches).
///
/// ```swift
/// let results = try org.write { writer in
///     records.map { record in Result { try writer.savepoint { try writer.create("Contact", fields: record) } } }
/// }
/// ```
public final class OrgWriter {
    let db: Database
    let context: OrgContext
    /// Modification stamps taken from the clock ahead of the records that use them
    /// (``reserveStamps(_:)``), handed out in order by ``nextStamp()``.
    private var reservedStamps: Range<Int64> = 0..<0
    /// Record ID counters taken ahead of the records created (``reserveIDCounters(_:)``).
    private var reservedIDCounters: Range<Int64> = 0..<0

    init(db: Database, context: OrgContext) {
        self.db = db
        self.context = context
    }

    /// How much a write may do beyond what the REST API allows.
    enum Mode {
        /// The REST API's rules.
        case api
        /// Seeding: audit fields (`CreatedDate`, `LastModifiedDate`, `SystemModstamp`, `CreatedById`,
        /// `LastModifiedById`) may be set.
        case seed
        /// The org's own bookkeeping: any field of any object.
        case system
    }

    static let auditFields: Set<String> = [
        "createddate", "lastmodifieddate", "systemmodstamp", "createdbyid", "lastmodifiedbyid",
    ]

    // MARK: Public API

    /// Creates a record and returns its 18-character ID.
    ///
    /// A body may carry `attributes` (ignored). Omitted fields get their defaults (`OwnerId` = the
    /// org's user, Booleans `false`).
    /// - Throws: ``OrgError`` `NOT_FOUND` (unknown object), `INVALID_FIELD`, `INVALID_FIELD_FOR_INSERT_UPDATE`,
    ///   `REQUIRED_FIELD_MISSING`, `JSON_PARSER_ERROR`, `STRING_TOO_LONG`, `INVALID_EMAIL_ADDRESS`,
    ///   `MALFORMED_ID`, `INVALID_CROSS_REFERENCE_KEY`, `DUPLICATE_VALUE` (400).
    @discardableResult
    public func create(_ object: String, fields: OrgJSONObject) throws -> String {
        try insert(object, fields: fields, mode: .api)
    }

    /// Updates the given fields of a record (`null` clears a field) and stamps it.
    ///
    /// An `Id` member equal to `id` is ignored (collection updates carry it).
    /// - Throws: ``OrgError`` `NOT_FOUND` / `ENTITY_IS_DELETED` (404), `PRECONDITION_FAILED` (412), and the
    ///   validation errors of ``create(_:fields:)``.
    public func update(
        _ object: String,
        id: String,
        fields: OrgJSONObject,
        preconditions: [OrgPrecondition] = []
    ) throws {
        let type = try context.recordObject(object)
        let row = try liveRow(type, id: id)
        try check(preconditions, against: row)
        try applyUpdate(type, row: row, fields: fields, mode: .api)
    }

    /// Moves a record to the Recycle Bin (`IsDeleted = true`); it stays visible to `queryAll`.
    ///
    /// The records that cascade from it go too (details of a master, an Account's Contacts and
    /// Opportunities, activities); a record something restricts (an Account with Cases) is refused
    /// and nothing is deleted.
    /// - Throws: ``OrgError`` `NOT_FOUND` or `ENTITY_IS_DELETED` (404), `DELETE_FAILED` (400).
    public func delete(_ object: String, id: String) throws {
        let type = try context.recordObject(object)
        let row = try liveRow(type, id: id)
        try context.requireWritable(type, .delete)
        try deleteCascading(type, row: row)
    }

    /// Deletes the record with this ID, whatever its object (sObject Collections delete).
    /// - Returns: The object's API name.
    /// - Throws: ``OrgError`` `MALFORMED_ID` (400), `NOT_FOUND` / `ENTITY_IS_DELETED` (404).
    @discardableResult
    public func delete(id: String) throws -> String {
        guard let normalized = OrgRecordID.normalize(id) else { throw OrgError.malformedID(id) }
        guard let object = context.schema.object(forID: normalized) else { throw OrgError.notFound() }
        try delete(object.name, id: normalized)
        return object.name
    }

    /// Creates or updates the record whose `externalIDField` equals `value` (§4.2). With `Id` as the
    /// field, an empty value creates and an ID updates. The key may be any field the describe marks
    /// `idLookup` (``OrgField/isIDLookup``), not only external IDs.
    /// - Throws: ``OrgError`` `NOT_FOUND` (404) for an unknown field, `INVALID_FIELD` (400) for a field that
    ///   is not `idLookup`, 300 with ``OrgError/matchingRecords`` when several records match, and the
    ///   errors of ``create(_:fields:)`` / ``update(_:id:fields:preconditions:)``.
    public func upsert(_ object: String, externalIDField: String, value: String, fields: OrgJSONObject) throws
        -> OrgUpsertResult
    {
        let type = try context.recordObject(object)
        guard let keyField = type.field(named: externalIDField) else { throw OrgError.notFound() }
        var body = fields
        body.removeValue(forCaseInsensitiveKey: "attributes")
        if keyField.type == .id {
            body.removeValue(forCaseInsensitiveKey: "Id")
            if value.isEmpty {
                return OrgUpsertResult(id: try insert(type.name, fields: body, mode: .api), created: true)
            }
            let row = try liveRow(type, id: value)
            try applyUpdate(type, row: row, fields: body, mode: .api)
            return OrgUpsertResult(id: row.id, created: false)
        }
        guard keyField.isIDLookup else { throw OrgError.notExternalID(field: keyField.name, object: type.name) }
        let key = try OrgValueCoercion.databaseValue(.string(value), for: keyField)
        if let given = body.value(forCaseInsensitiveKey: keyField.name) {
            guard
                try OrgValueCoercion.databaseValue(given, for: keyField) == key
                    || (keyField.type.isText && given.stringValue?.lowercased() == value.lowercased())
            else { throw OrgError.externalIDMismatch(field: keyField.name) }
            body.removeValue(forCaseInsensitiveKey: keyField.name)
        }
        let matches = try String.fetchAll(
            db,
            sql: """
                SELECT "Id" FROM \(OrgSQL.identifier(type.name))
                WHERE \(OrgSQL.identifier(keyField.name)) = ? AND "IsDeleted" = 0 ORDER BY rowid LIMIT 200
                """,
            arguments: [key]
        )
        switch matches.count {
        case 0:
            body[keyField.name] = .string(value)
            return OrgUpsertResult(id: try insert(type.name, fields: body, mode: .api), created: true)
        case 1:
            let row = try liveRow(type, id: matches[0])
            try applyUpdate(type, row: row, fields: body, mode: .api)
            return OrgUpsertResult(id: row.id, created: false)
        default:
            throw OrgError.multipleMatches(object: type.name, ids: matches)
        }
    }

    /// ``upsert(_:externalIDField:value:fields:)`` as the batch APIs answer it (sObject Collections,
    /// Bulk API 1.0 and 2.0): several matching records are that record's `DUPLICATE_EXTERNAL_ID`
    /// error, not the REST resource's `300 Multiple Choices`.
    public func upsertInBatch(_ object: String, externalIDField: String, value: String, fields: OrgJSONObject)
        throws -> OrgUpsertResult
    {
        do {
            return try upsert(object, externalIDField: externalIDField, value: value, fields: fields)
        } catch let error as OrgError where error.code == .multipleChoices {
            throw OrgError.duplicateExternalID(field: externalIDField, ids: error.matchingRecords?.ids ?? [])
        }
    }

    /// Runs `body` in a savepoint: when it throws, only its own writes are rolled back and the error
    /// is rethrown; the enclosing transaction goes on.
    public func savepoint<T>(_ body: () throws -> T) throws -> T {
        if db.isInsideTransaction {
            // Every record of a collections call runs in one: the statements are prepared once,
            // where GRDB's `inSavepoint` compiles three for each record.
            try db.cachedStatement(sql: "SAVEPOINT org_write").execute()
            do {
                let value = try body()
                try db.cachedStatement(sql: "RELEASE SAVEPOINT org_write").execute()
                return value
            } catch {
                // The body's error is the one to report; a failed rollback (the transaction itself
                // gone, as after SQLITE_FULL) leaves nothing to undo here.
                try? db.cachedStatement(sql: "ROLLBACK TRANSACTION TO SAVEPOINT org_write").execute()
                try? db.cachedStatement(sql: "RELEASE SAVEPOINT org_write").execute()
                throw error
            }
        }
        var result: Result<T, any Error>?
        try db.inSavepoint {
            do {
                result = .success(try body())
                return .commit
            } catch {
                result = .failure(error)
                return .rollback
            }
        }
        guard let result else { throw OrgError.storage("A savepoint", OrgError.notAvailable("savepoint result")) }
        return try result.get()
    }

    /// Takes the clock's next `count` modification stamps in one write, for the records a
    /// collections call is about to write: each record's stamp then costs no statement (it was
    /// one `UPDATE … RETURNING` per record, 12% of the org's time for a collections update). The
    /// stamps are the ones `count` single writes would get; a record that fails leaves its stamp
    /// unused (stamps only need to increase). Moving the clock (``advanceClock(to:)``) drops the rest.
    func reserveStamps(_ count: Int) throws {
        reservedStamps = try OrgMeta.reserveStamps(count, now: context.nowMilliseconds, db)
    }

    /// Takes the next `count` record ID counters in one write, for the records a collections
    /// create call is about to insert (one `UPDATE … RETURNING` per record before). The records
    /// created get them in order; a refused record takes none, and the ones left are not used.
    func reserveIDCounters(_ count: Int) throws {
        reservedIDCounters = try OrgMeta.reserveIDCounters(count, db)
    }

    /// The next record ID counter: a reserved one while any is left, else the counter's next.
    func nextIDCounter() throws -> Int64 {
        if let counter = reservedIDCounters.first {
            reservedIDCounters = reservedIDCounters.dropFirst()
            return counter
        }
        return try OrgMeta.nextIDCounter(db)
    }

    /// Drops the stamps and ID counters reserved and not used (the clock and the counter stay
    /// past them).
    func dropReservations() {
        reservedStamps = 0..<0
        reservedIDCounters = 0..<0
    }

    /// The next modification stamp: a reserved one while any is left, else the clock's next.
    func nextStamp() throws -> Int64 {
        if let stamp = reservedStamps.first {
            reservedStamps = reservedStamps.dropFirst()
            return stamp
        }
        return try OrgMeta.nextStamp(now: context.nowMilliseconds, db)
    }

    /// Moves the clock forward to at least `stamp`; the stamps reserved and not used yet are
    /// dropped (they may lie below it).
    func advanceClock(to stamp: Int64) throws {
        reservedStamps = 0..<0
        try OrgMeta.advanceClock(to: stamp, db)
    }

    /// Runs a SOQL query inside the transaction (composite requests), returning its first page.
    public func query(_ soql: String, includeDeleted: Bool = false, pageSize: Int = 2000, apiVersion: String) throws
        -> OrgQueryPage
    {
        try OrgQueryRunner(db: db, context: context).query(
            soql,
            includeDeleted: includeDeleted,
            pageSize: pageSize,
            apiVersion: apiVersion
        )
    }

    /// The API name of the object an ID belongs to (by key prefix), if any.
    public func objectName(forID id: String) -> String? {
        context.schema.object(forID: id)?.name
    }
}

@available(*, unavailable)
extension OrgWriter: Sendable {}
