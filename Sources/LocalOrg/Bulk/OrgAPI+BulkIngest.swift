import Foundation
import GRDB

/// Bulk API 2.0 ingest jobs: `/jobs/ingest[/{id}[/batches|/successfulResults|/failedResults|
/// /unprocessedrecords]]` (real-org.md §3.2).
extension OrgAPI {
    /// Routes `/jobs/ingest/{id}/{batches|successfulResults|failedResults|unprocessedrecords}`.
    func ingestJobs(_ request: OrgHTTPRequest, version: APIVersion, path: [String]) throws -> OrgHTTPResponse {
        switch path.count {
        case 2:
            let job = try bulk.job(path[0], kind: .ingest)
            switch path[1] {
            case "batches":
                try Self.require(request, ["PUT"])
                return try upload(job, request)
            case "successfulResults": return try ingestResults(job, request, kind: "success")
            case "failedResults": return try ingestResults(job, request, kind: "failed")
            case "unprocessedrecords": return try ingestResults(job, request, kind: "unprocessed")
            default: throw OrgError.resourceNotFound
            }
        default:
            throw OrgError.resourceNotFound
        }
    }

    func createIngestJob(_ request: OrgHTTPRequest, version: APIVersion) throws -> OrgHTTPResponse {
        let body = try request.jsonObjectBody()
        let operation = body["operation"]?.stringValue ?? ""
        guard BulkIngestRunner.operations.contains(operation) else {
            throw OrgError.invalidJob(
                "The operation must be insert, update, upsert, delete or hardDelete, not '\(operation)'"
            )
        }
        guard let objectName = body["object"]?.stringValue, !objectName.isEmpty else {
            throw OrgError.invalidJob("An ingest job needs an 'object'")
        }
        let object = try database.context.queryObject(objectName)
        let externalID = body["externalIdFieldName"]?.stringValue
        if operation == "upsert" {
            guard let externalID, !externalID.isEmpty else {
                throw OrgError.invalidJob("An upsert job needs an 'externalIdFieldName'")
            }
            guard let field = object.field(named: externalID), field.isIDLookup else {
                throw OrgError.invalidJob(
                    "'\(externalID)' is not an external ID or idLookup field of \(object.name): upsert by one the "
                        + "describe marks idLookup"
                )
            }
        }
        let format = try Self.csvFormat(body)
        let job = try bulk.create(
            kind: .ingest,
            operation: operation,
            object: object.name,
            apiVersion: version.description,
            state: .open,
            columnDelimiter: format.delimiter,
            lineEnding: format.lineEnding,
            externalIDField: operation == "upsert" ? object.field(named: externalID ?? "")?.name : nil,
            creator: database.context
        )
        return .json(200, job.info)
    }

    /// `PUT …/batches`: the job's CSV (one upload per job, while it is `Open`).
    private func upload(_ job: BulkJob, _ request: OrgHTTPRequest) throws -> OrgHTTPResponse {
        guard job.state == .open else {
            throw OrgError.invalidJobState(job.id, state: job.state.rawValue, action: "given data")
        }
        guard !request.body.isEmpty else { throw OrgError.invalidJob("The upload is empty; send CSV data") }
        try bulk.write { db in
            let existing = try Data.fetchOne(
                db,
                sql: "SELECT data FROM _org_bulk_jobs WHERE id = ?",
                arguments: [job.id]
            )
            guard existing == nil else {
                throw OrgError.invalidJob("Job '\(job.id)' already has its data; only one upload per job is allowed")
            }
            try db.execute(sql: "UPDATE _org_bulk_jobs SET data = ? WHERE id = ?", arguments: [request.body, job.id])
        }
        return OrgHTTPResponse(status: 201, isJSON: false)
    }

    /// `PATCH {"state": "UploadComplete" | "Aborted"}` of a job (a query job takes only `Aborted`).
    func changeState(_ job: BulkJob, _ request: OrgHTTPRequest) throws -> OrgHTTPResponse {
        let body = try request.jsonObjectBody()
        guard job.kind == .ingest, body["state"]?.stringValue == BulkJob.State.uploadComplete.rawValue else {
            return try abort(job, request)
        }
        guard job.state == .open else {
            throw OrgError.invalidJobState(job.id, state: job.state.rawValue, action: "closed")
        }
        let closed = try bulk.write { db -> BulkJob in
            try BulkJobTable.setState(job.id, .uploadComplete, now: database.context.nowMilliseconds, db)
            return try BulkJobTable.fetch(job.id, kind: .ingest, db) ?? job
        }
        bulk.startIfIdle(closed)
        return .json(200, closed.info)
    }

    private func ingestResults(_ job: BulkJob, _ request: OrgHTTPRequest, kind: String) throws -> OrgHTTPResponse {
        try Self.require(request, ["GET"])
        guard job.state.isTerminal else { throw OrgError.jobNotComplete(job.id, state: job.state.rawValue) }
        let csv = try bulk.read { db -> Data in
            let data = try Data.fetchOne(db, sql: "SELECT data FROM _org_bulk_jobs WHERE id = ?", arguments: [job.id])
            var header: [String] = []
            if let data {
                let firstLine = data.prefix { byte in byte != 0x0A }
                header = try BulkCSVReader.records(firstLine, delimiter: job.delimiterByte).first ?? []
            }
            if kind == "unprocessed", job.state == .aborted || job.state == .failed, let data {
                // Nothing of an aborted or failed job ran: every record is unprocessed.
                return data
            }
            return try BulkIngestRunner.results(job, kind: kind, header: header, db)
        }
        return OrgHTTPResponse(status: 200, headers: [("Content-Type", "text/csv")], body: csv, isJSON: false)
    }
}
