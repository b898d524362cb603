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
        var columns: [OrgField?] = []
        for name in header {
            if name.contains(".") {
                columns.append(nil)  // relationship column, resolved per record
                continue
            }
            guard let field = object.field(named: name) else {
                throw OrgError.invalidJob("InvalidBatch : Field name not found : \(name)")
            }
            columns.append(field)
        }
        let idIndex = header.firstIndex { $0.lowercased() == "id" }
        var successes: [(id: String, created: Bool, fields: [String])] = []
        var failures: [(id: String?, error: String, fields: [String])] = []
        for record in records.dropFirst() where !(record.count == 1 && record[0].isEmpty) {
            var values = Array(record.prefix(header.count))
            values += Array(repeating: "", count: header.count - values.count)
            do {
                let outcome = try writer.savepoint {
                    try apply(job, object: object, header: header, columns: columns, values: values, idIndex: idIndex)
                }
                successes.append((outcome.id, outcome.created, values))
            } catch let error as OrgError {
                let id = idIndex.map { values[$0] }.flatMap { $0.isEmpty ? nil : $0 }
                let fields = error.fields.isEmpty ? "" : error.fields.joined(separator: ",")
                failures.append((id, "\(error.code):\(error.message):\(fields)", values))
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

    private func apply(
        _ job: BulkJob,
        object: OrgObject,
        header: [String],
        columns: [OrgField?],
        values: [String],
        idIndex: Int?
    ) throws -> (id: String, created: Bool) {
        var fields: OrgJSONObject = [:]
        for (index, name) in header.enumerated() where index != idIndex {
            let text = values[index]
            guard !text.isEmpty else { continue }  // Bulk: an empty value leaves the field alone
            if columns[index] == nil {
                fields[try relationshipField(object, name)] = .string(try parentID(object, name, text))
                continue
            }
            fields[name] = text == "#N/A" ? .null : .string(text)
        }
        let id = idIndex.map { values[$0] } ?? ""
        switch job.operation {
        case "insert":
            return (try writer.create(object.name, fields: fields), true)
        case "update":
            guard !id.isEmpty else { throw OrgError.missingID }
            try writer.update(object.name, id: id, fields: fields)
            return (OrgRecordID.normalize(id) ?? id, false)
        case "upsert":
            let key = job.externalIDField ?? "Id"
            if key.lowercased() == "id" {
                let result = try writer.upsert(object.name, externalIDField: "Id", value: id, fields: fields)
                return (result.id, result.created)
            }
            guard let keyValue = fields.value(forCaseInsensitiveKey: key)?.stringValue, !keyValue.isEmpty else {
                throw OrgError.missingExternalID(key)
            }
            let result = try writer.upsert(object.name, externalIDField: key, value: keyValue, fields: fields)
            return (result.id, result.created)
        default:  // delete, hardDelete
            guard !id.isEmpty else { throw OrgError.missingID }
            try writer.delete(object.name, id: id)
            return (OrgRecordID.normalize(id) ?? id, false)
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
