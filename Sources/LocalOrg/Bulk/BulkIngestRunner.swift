import Foundation
import GRDB

/// Processes the CSV of a Bulk API 2.0 ingest job (real-org.md §3.2) record by record, each in its
/// own savepoint, and stores the three result sets in `_org_bulk_results`.
///
/// Values follow Bulk's CSV rules: an empty field leaves the value as it is, `#N/A` clears it.
/// Successful results are stored in reverse order of the upload, as Salesforce promises no order.
struct BulkIngestRunner {
    let writer: OrgWriter
    let db: Database
    let context: OrgContext

    /// The operations an ingest job may run.
    static let operations: Set<String> = ["insert", "update", "upsert", "delete", "hardDelete"]

    /// Creates the results table (step `org-1` of ``OrgMigrator/versions``).
    static func createResultsTable(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS _org_bulk_results (
                    jobId TEXT NOT NULL, kind TEXT NOT NULL, seq INTEGER NOT NULL, sfId TEXT, created INTEGER,
                    error TEXT, fields TEXT NOT NULL, PRIMARY KEY (jobId, kind, seq)
                )
                """
        )
    }

    /// Runs every record of `job`; returns processed and failed counts.
    /// - Throws: ``OrgError`` when the whole job fails (no data, a header naming unknown fields).
    func run(_ job: BulkJob, data: Data) throws -> (processed: Int, failed: Int) {
        let records = try BulkCSVReader.records(data, delimiter: job.delimiterByte)
        guard let header = records.first, !header.isEmpty else {
            throw OrgError.invalidJob("InvalidBatch : The job has no data; upload CSV before closing it")
        }
        let object = try context.queryObject(job.object)
        try Self.checkHeader(header, object: object)
        var successes: [(id: String, created: Bool, fields: [String])] = []
        var failures: [(id: String?, error: String, fields: [String])] = []
        for record in records.dropFirst() where !(record.count == 1 && record[0].isEmpty) {
            var values = Array(record.prefix(header.count))
            values += Array(repeating: "", count: header.count - values.count)
            let cells = Self.csvCells(header: header, values: values)
            do {
                let outcome = try write(cells, operation: job.operation, object: object, key: job.externalIDField)
                successes.append((outcome.id, outcome.created, values))
            } catch let error as OrgError {
                let id = cells.first { $0.name.lowercased() == "id" }?.value.flatMap { $0.isEmpty ? nil : $0 }
                failures.append((id, Self.csvError(error), values))
            }
        }
        var seq = 0
        for success in successes.reversed() {
            seq += 1
            try insertResult(
                job.id,
                "success",
                seq,
                id: success.id,
                created: success.created,
                error: nil,
                success.fields
            )
        }
        for failure in failures {
            seq += 1
            try insertResult(job.id, "failed", seq, id: failure.id, created: nil, error: failure.error, failure.fields)
        }
        return (successes.count + failures.count, failures.count)
    }

    /// Refuses a CSV header naming a field the object does not have (the whole job or batch fails).
    static func checkHeader(_ header: [String], object: OrgObject) throws {
        for name in header where !name.contains(".") && object.field(named: name) == nil {
            throw OrgError.invalidJob("InvalidBatch : Field name not found : \(name)")
        }
    }

    /// The cells of a CSV record with Bulk's CSV rules: an empty value is left out (the field is left
    /// as it is), `#N/A` is `nil` (the field is cleared).
    static func csvCells(header: [String], values: [String]) -> [(name: String, value: String?)] {
        zip(header, values).compactMap { name, text in
            if text.isEmpty { return nil }
            return (name, text == "#N/A" ? nil : text)
        }
    }

    /// The `sf__Error` / Bulk 1.0 `Error` text of a failed record: `CODE:message:fields`.
    static func csvError(_ error: OrgError) -> String {
        "\(error.code):\(error.message):\(error.fields.joined(separator: ","))"
    }

    /// Writes one record of an ingest job or batch, in its own savepoint: the one record-write path
    /// of Bulk API 1.0 (CSV, JSON and XML batches) and 2.0 (CSV jobs).
    ///
    /// - Parameters:
    ///   - cells: the record's columns in order; `nil` clears a field; a column `Parent.Field`
    ///     sets the lookup to the parent whose `Field` equals the value; `Id` names the record for
    ///     update, upsert by Id, delete and hardDelete.
    ///   - operation: `insert`, `update`, `upsert`, `delete` or `hardDelete`.
    ///   - key: the upsert key (any `idLookup` field), `nil` for the other operations.
    /// - Returns: the record's ID and whether it was created.
    /// - Throws: ``OrgError``; the savepoint is rolled back and the job goes on with the next record.
    func write(_ cells: [(name: String, value: String?)], operation: String, object: OrgObject, key: String?)
        throws -> (id: String, created: Bool)
    {
        try writer.savepoint {
            var fields: OrgJSONObject = [:]
            var id = ""
            for (name, value) in cells {
                if name.lowercased() == "id" {
                    id = value ?? ""
                } else if name.contains(".") {
                    fields[try relationshipField(object, name)] =
                        try value.map { .string(try parentID(object, name, $0)) } ?? .null
                } else {
                    fields[name] = value.map { .string($0) } ?? .null
                }
            }
            switch operation {
            case "insert":
                return (try writer.create(object.name, fields: fields), true)
            case "update":
                guard !id.isEmpty else { throw OrgError.missingID }
                try writer.update(object.name, id: id, fields: fields)
                return (OrgRecordID.normalize(id) ?? id, false)
            case "upsert":
                let key = key ?? "Id"
                if key.lowercased() == "id" {
                    let result = try writer.upsertInBatch(object.name, externalIDField: "Id", value: id, fields: fields)
                    return (result.id, result.created)
                }
                guard let keyValue = fields.value(forCaseInsensitiveKey: key)?.stringValue, !keyValue.isEmpty else {
                    throw OrgError.missingExternalID(key)
                }
                let result = try writer.upsertInBatch(
                    object.name,
                    externalIDField: key,
                    value: keyValue,
                    fields: fields
                )
                return (result.id, result.created)
            default:  // delete, hardDelete
                guard !id.isEmpty else { throw OrgError.missingID }
                if operation == "hardDelete" {
                    try writer.hardDelete(object.name, id: id)
                } else {
                    try writer.delete(object.name, id: id)
                }
                return (OrgRecordID.normalize(id) ?? id, false)
            }
        }
    }

    /// `Account.External_Id__c` → the lookup field `AccountId`.
    private func relationshipField(_ object: OrgObject, _ column: String) throws -> String {
        let parts = column.split(separator: ".").map(String.init)
        guard parts.count == 2, let lookup = object.field(forRelationship: parts[0]) else {
            throw OrgError.noSuchRelationship(parts.first ?? column, object: object.name)
        }
        return lookup.name
    }

    /// The Id of the parent whose indexed field (`parts[1]`) equals `value`.
    private func parentID(_ object: OrgObject, _ column: String, _ value: String) throws -> String {
        let parts = column.split(separator: ".").map(String.init)
        guard parts.count == 2, let lookup = object.field(forRelationship: parts[0]),
            lookup.referenceTo.count == 1, let parent = context.schema.object(named: lookup.referenceTo[0]),
            let key = parent.field(named: parts[1])
        else { throw OrgError.noSuchRelationship(parts.first ?? column, object: object.name) }
        let ids = try String.fetchAll(
            db,
            sql: """
                SELECT "Id" FROM \(OrgSQL.identifier(parent.name))
                WHERE \(OrgSQL.identifier(key.name)) = ? AND "IsDeleted" = 0 LIMIT 2
                """,
            arguments: [try OrgValueCoercion.databaseValue(.string(value), for: key)]
        )
        guard ids.count == 1 else { throw OrgError.parentNotFound(column: column, value: value, count: ids.count) }
        return ids[0]
    }

    private func insertResult(
        _ jobID: String,
        _ kind: String,
        _ seq: Int,
        id: String?,
        created: Bool?,
        error: String?,
        _ fields: [String]
    ) throws {
        var writer = BulkCSVWriter(delimiter: UInt8(ascii: ","), lineEnding: [])
        writer.appendRow(fields)
        try db.execute(
            sql:
                "INSERT INTO _org_bulk_results (jobId, kind, seq, sfId, created, error, fields) VALUES (?, ?, ?, ?, ?, ?, ?)",
            // As bytes (a BLOB): SQLite text passes through C strings and would end at a NUL.
            arguments: [jobID, kind, seq, id, created, error.map { Data($0.utf8) }, writer.data]
        )
    }

    /// The CSV of one result set of `job` (`successfulResults`, `failedResults`, `unprocessedrecords`).
    static func results(_ job: BulkJob, kind: String, header: [String], _ db: Database) throws -> Data {
        var csv = BulkCSVWriter(delimiter: UInt8(ascii: ","), lineEnding: job.lineEndingBytes)
        let prefix: [String] =
            switch kind {
            case "success": ["sf__Id", "sf__Created"]
            case "failed": ["sf__Id", "sf__Error"]
            default: []
            }
        csv.appendRow(prefix + header)
        var data = csv.data
        let rows = try Row.fetchCursor(
            db,
            sql: "SELECT sfId, created, error, fields FROM _org_bulk_results WHERE jobId = ? AND kind = ? ORDER BY seq",
            arguments: [job.id, kind]
        )
        while let row = try rows.next() {
            var line = BulkCSVWriter(delimiter: UInt8(ascii: ","), lineEnding: [])
            switch kind {
            case "success":
                let created: Bool = row["created"] ?? false
                line.appendRow([row["sfId"] as String? ?? "", created ? "true" : "false"])
            case "failed":
                let error = (row["error"] as Data?).map { String(decoding: $0, as: UTF8.self) } ?? ""
                line.appendRow([row["sfId"] as String? ?? "", error])
            default: break
            }
            data.append(line.data)
            if kind != "unprocessed", !header.isEmpty { data.append(UInt8(ascii: ",")) }
            data.append(row["fields"] as Data)
            data.append(contentsOf: job.lineEndingBytes)
        }
        return data
    }
}

extension OrgError {
    static let missingID = OrgError(
        status: 400,
        code: Code("MISSING_ARGUMENT"),
        message: "Id not specified in an update call"
    )

    static func missingExternalID(_ field: String) -> OrgError {
        OrgError(
            status: 400,
            code: Code("MISSING_ARGUMENT"),
            message: "\(field) not specified",
            fields: [field]
        )
    }

    static func parentNotFound(column: String, value: String, count: Int) -> OrgError {
        OrgError(
            status: 400,
            code: .invalidCrossReferenceKey,
            message: count == 0
                ? "Foreign key external ID: \(value) not found for field \(column)"
                : "Foreign key external ID: \(value) matches more than one record for field \(column)",
            fields: [column]
        )
    }
}
