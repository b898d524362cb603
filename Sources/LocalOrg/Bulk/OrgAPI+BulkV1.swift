import Foundation
import GRDB

/// Bulk API 1.0: `/services/async/{version}/job[/{id}[/batch[/{bid}[/request|/result[/{rid}]]]]]`.
///
/// Wire shapes from Salesforce's "Bulk API Developer Guide" (api_asynch: JobInfo, BatchInfo,
/// "Get Batch Results", "Errors") and the clients that speak it (simple-salesforce `bulk.py`,
/// salesforce-bulk as CumulusCI 4.10 drives it). The session is the `X-SFDC-Session` header (the
/// local org's access tokens). A request with a body is answered in its own format (JSON when its
/// `Content-Type` names JSON, XML otherwise); a request without one in its job's format (JSON for
/// JSON jobs, XML for the rest). Errors are `<error><exceptionCode>…</exceptionCode>
/// <exceptionMessage>…</exceptionMessage></error>` (or its JSON twin) with status 400.
extension OrgAPI {
    /// The Bulk API 1.0 namespace's error codes this server answers with.
    static let bulkV1Codes: Set<String> = [
        "InvalidJob", "InvalidBatch", "InvalidSessionId", "InvalidJobState", "InvalidUrl", "InvalidVersion",
        "InvalidOperation", "ClientInputError", "InvalidEntity", "FeatureNotEnabled", "ExceededQuota",
    ]

    /// Answers a request below `/services/async/` (`segments` are the decoded path segments after
    /// `services`, `async`).
    func bulkV1(_ request: OrgHTTPRequest, segments: [String]) -> OrgHTTPResponse {
        let asJSON = Self.bodyIsJSON(request)
        guard let versionText = segments.first, let version = APIVersion(Substring(versionText)) else {
            return Self.bulkV1Error(
                .bulkV1("InvalidVersion", "Invalid API version: \(segments.first ?? "")"),
                json: asJSON
            )
        }
        let token =
            request.header("X-SFDC-Session")
            ?? request.header("Authorization")?.replacingOccurrences(of: "Bearer ", with: "")
        guard let token, let session = sessions.session("Bearer \(token)") else {
            return Self.bulkV1Error(.bulkV1("InvalidSessionId", "Invalid session id"), json: asJSON)
        }
        do {
            try usage.consume()
            return try acting(as: session.username)
                .bulkV1Route(request, version: version, path: Array(segments.dropFirst()))
        } catch let error as OrgError {
            return Self.bulkV1Error(error, json: asJSON ?? Self.jobIsJSON(segments, bulk: bulk))
        } catch {
            return Self.bulkV1Error(.storage("Serving '\(request.path)'", error), json: asJSON)
        }
    }

    private func bulkV1Route(_ request: OrgHTTPRequest, version: APIVersion, path: [String]) throws -> OrgHTTPResponse {
        guard path.first == "job" else { throw OrgError.bulkV1("InvalidUrl", "Unknown resource '\(request.path)'") }
        switch path.count {
        case 1:
            try Self.requireV1(request, ["POST"])
            return try createV1Job(request, version: version)
        case 2:
            try Self.requireV1(request, ["GET", "POST"])
            let job = try v1Job(path[1])
            if request.method == "GET" {
                return try v1JobInfo(job, json: Self.bodyIsJSON(request) ?? (job.contentType == "JSON"))
            }
            return try changeV1JobState(job, request)
        case 3 where path[2] == "batch":
            try Self.requireV1(request, ["GET", "POST"])
            let job = try v1Job(path[1])
            if request.method == "POST" { return try addBatch(job, request) }
            let batches = try bulk.batches(jobID: job.id)
            return Self.format(
                BulkV1Shapes.batchList(batches, job: job),
                json: Self.bodyIsJSON(request) ?? (job.contentType == "JSON")
            )
        case 4 where path[2] == "batch":
            try Self.requireV1(request, ["GET"])
            let job = try v1Job(path[1])
            let batch = try bulk.batch(path[3], jobID: job.id)
            return Self.format(BulkV1Shapes.batchInfo(batch, job: job), json: job.contentType == "JSON")
        case 5 where path[2] == "batch" && path[4] == "request":
            try Self.requireV1(request, ["GET"])
            let job = try v1Job(path[1])
            let batch = try bulk.batch(path[3], jobID: job.id)
            let data = try bulk.read { try BulkBatchTable.data(batch.id, $0) }
            let isQuery = job.operation.hasPrefix("query")
            return OrgHTTPResponse(
                status: 200,
                headers: [("Content-Type", isQuery ? "text/plain" : BulkV1Shapes.mediaType(job.contentType))],
                body: data,
                isJSON: false
            )
        case 5 where path[2] == "batch" && path[4] == "result":
            try Self.requireV1(request, ["GET"])
            let job = try v1Job(path[1])
            let batch = try bulk.batch(path[3], jobID: job.id)
            return try v1Results(job, batch)
        case 6 where path[2] == "batch" && path[4] == "result":
            try Self.requireV1(request, ["GET"])
            let job = try v1Job(path[1])
            let batch = try bulk.batch(path[3], jobID: job.id)
            guard job.operation.hasPrefix("query"), batch.state == .completed, path[5] == batch.resultID else {
                throw OrgError.bulkV1("InvalidBatch", "Unable to find result for id: \(path[5]) of batch \(batch.id)")
            }
            let format = request.parameter("format")?.uppercased() ?? job.contentType
            return try v1QueryResult(job, batch, format: format)
        default:
            throw OrgError.bulkV1("InvalidUrl", "Unknown resource '\(request.path)'")
        }
    }

    // MARK: Jobs

    private func createV1Job(_ request: OrgHTTPRequest, version: APIVersion) throws -> OrgHTTPResponse {
        let json = Self.bodyIsJSON(request) ?? false
        let info = try BulkV1Shapes.readJobInfo(request.body, json: json)
        let operation = info["operation"] ?? ""
        guard BulkIngestRunner.operations.contains(operation) || operation == "query" || operation == "queryAll" else {
            throw OrgError.bulkV1(
                "InvalidJob",
                "Invalid operation '\(operation)': use insert, update, upsert, delete, hardDelete, query or queryAll"
            )
        }
        guard let objectName = info["object"], !objectName.isEmpty,
            let object = database.schema.object(named: objectName), object.isQueryable
        else {
            throw OrgError.bulkV1("InvalidJob", "Unable to find object: \(info["object"] ?? "")")
        }
        let contentType = info["contentType"] ?? "XML"
        guard ["CSV", "JSON", "XML"].contains(contentType) else {
            throw OrgError.bulkV1("InvalidJob", "Unsupported content type '\(contentType)': use CSV, JSON or XML")
        }
        var externalID: String?
        if operation == "upsert" {
            guard let name = info["externalIdFieldName"], !name.isEmpty else {
                throw OrgError.bulkV1(
                    "InvalidJob",
                    "External ID was blank for \(object.name): send externalIdFieldName"
                )
            }
            guard let field = object.field(named: name), field.isIDLookup else {
                throw OrgError.bulkV1(
                    "InvalidJob",
                    "Field name provided, \(name) is not an External ID or indexed field for \(object.name)"
                )
            }
            externalID = field.name
        }
        let concurrency =
            info["concurrencyMode"].flatMap { ["1", "Serial"].contains($0) ? "Serial" : nil } ?? "Parallel"
        let job = try bulk.create(
            kind: .classic,
            operation: operation,
            object: object.name,
            apiVersion: version.description,
            state: .open,
            columnDelimiter: "COMMA",
            lineEnding: "LF",
            externalIDField: externalID,
            contentType: contentType,
            concurrencyMode: concurrency,
            creator: database.context
        )
        var response = try v1JobInfo(job, json: json)
        response.status = 201
        return response
    }

    private func v1Job(_ id: String) throws -> BulkJob {
        guard let job = try bulk.read({ try BulkJobTable.fetch(id, kind: .classic, $0) }) else {
            throw OrgError.bulkV1("InvalidJob", "Unable to find job for id: \(id)")
        }
        return job
    }

    private func v1JobInfo(_ job: BulkJob, json: Bool) throws -> OrgHTTPResponse {
        let batches = try bulk.batches(jobID: job.id)
        return Self.format(BulkV1Shapes.jobInfo(job, batches: batches), json: json)
    }

    /// `POST job/{id}` with `state` `Closed` or `Aborted`.
    private func changeV1JobState(_ job: BulkJob, _ request: OrgHTTPRequest) throws -> OrgHTTPResponse {
        let json = Self.bodyIsJSON(request) ?? false
        let info = try BulkV1Shapes.readJobInfo(request.body, json: json)
        let wanted = info["state"] ?? ""
        guard wanted == "Closed" || wanted == "Aborted" else {
            throw OrgError.bulkV1("InvalidJob", "A job's state can be set to Closed or Aborted, not '\(wanted)'")
        }
        guard job.state == .open || (wanted == "Aborted" && job.state == .closed) else {
            throw OrgError.bulkV1(
                "InvalidJobState",
                "Job \(job.id) is \(job.state.rawValue) and cannot be \(wanted == "Closed" ? "closed" : "aborted")"
            )
        }
        let changed = try bulk.write { db -> BulkJob in
            let now = database.context.nowMilliseconds
            if wanted == "Aborted" {
                for batch in try BulkBatchTable.fetchAll(jobID: job.id, db) where !batch.state.isTerminal {
                    bulk.cancel(batch.id)
                }
                try BulkBatchTable.markUnprocessed(jobID: job.id, now: now, db)
            }
            try BulkJobTable.setState(job.id, wanted == "Aborted" ? .aborted : .closed, now: now, db)
            return try BulkJobTable.fetch(job.id, kind: .classic, db) ?? job
        }
        return try v1JobInfo(changed, json: json)
    }

    // MARK: Batches

    private func addBatch(_ job: BulkJob, _ request: OrgHTTPRequest) throws -> OrgHTTPResponse {
        guard job.state == .open else {
            throw OrgError.bulkV1(
                "InvalidJobState",
                "Job \(job.id) is \(job.state.rawValue): batches can be added while it is Open"
            )
        }
        guard !request.body.isEmpty else {
            throw OrgError.bulkV1("InvalidBatch", "The batch is empty: send \(job.contentType) records or a SOQL query")
        }
        if job.operation.hasPrefix("query") {
            let soql = String(decoding: request.body, as: UTF8.self)
            let query = try BulkQueryRunner.parseForBulk(soql)
            _ = try OrgQueryCompiler(context: database.context, apiVersion: job.apiVersion, includeDeleted: false)
                .compile(query)
        }
        let batch = try bulk.write { db -> BulkBatch in
            let now = database.context.nowMilliseconds
            let batch = BulkBatch(
                id: OrgRecordID.make(prefix: BulkBatch.idPrefix, counter: try OrgMeta.nextIDCounter(db)),
                jobID: job.id,
                state: .queued,
                stateMessage: nil,
                work: BulkWork(createdAt: now)
            )
            try BulkBatchTable.insert(batch, data: request.body, db)
            return batch
        }
        bulk.startBatchIfIdle(batch)
        var response = Self.format(
            BulkV1Shapes.batchInfo(batch, job: job),
            json: Self.bodyIsJSON(request) ?? (job.contentType == "JSON")
        )
        response.status = 201
        return response
    }

    /// `GET …/result`: per-record results of an ingest batch, or the result IDs of a query batch.
    private func v1Results(_ job: BulkJob, _ batch: BulkBatch) throws -> OrgHTTPResponse {
        guard batch.state == .completed else {
            throw OrgError.bulkV1("InvalidBatch", "Batch not completed: batch \(batch.id) is \(batch.state.rawValue)")
        }
        if job.operation.hasPrefix("query") {
            if job.contentType == "JSON" {
                return Self.typed(OrgJSONValue.array([.string(batch.resultID)]).encoded(), "JSON")
            }
            return Self.typed(BulkXMLWriter.document(BulkV1Shapes.resultList([batch.resultID])), "XML")
        }
        let rows = try bulk.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT sfId, created, error FROM _org_bulk_results WHERE jobId = ? AND kind = 'v1' ORDER BY seq",
                arguments: [batch.id]
            )
        }
        let results: [BulkV1Shapes.RecordResult] = rows.map { row in
            let error = (row["error"] as Data?).flatMap { try? OrgJSONValue.decode($0).objectValue }
            return BulkV1Shapes.RecordResult(
                id: row["sfId"],
                created: row["created"] ?? false,
                statusCode: error?["statusCode"]?.stringValue,
                message: error?["message"]?.stringValue,
                fields: error?["fields"]?.arrayValue?.compactMap(\.stringValue) ?? []
            )
        }
        switch job.contentType {
        case "JSON": return Self.typed(BulkV1Shapes.ingestResultsJSON(results).encoded(), "JSON")
        case "XML": return Self.typed(BulkXMLWriter.document(BulkV1Shapes.ingestResultsXML(results)), "XML")
        default: return Self.typed(BulkV1Shapes.ingestResultsCSV(results), "CSV")
        }
    }

    /// `GET …/result/{rid}`: the records of a query batch.
    private func v1QueryResult(_ job: BulkJob, _ batch: BulkBatch, format: String) throws -> OrgHTTPResponse {
        var queryJob = job
        queryJob.query = try bulk.read { db in String(decoding: try BulkBatchTable.data(batch.id, db), as: UTF8.self) }
        queryJob.firstSeq = batch.firstSeq
        queryJob.totalSize = batch.totalSize
        queryJob.cursorID = batch.cursorID
        if format == "CSV" {
            let page = try bulk.read { db in
                try BulkQueryRunner(db: db, context: database.context)
                    .page(queryJob, offset: 0, maxRecords: max(batch.totalSize, 1))
            }
            return Self.typed(page.csv, "CSV")
        }
        let rows = try bulk.read { db in
            try BulkQueryRunner(db: db, context: database.context).rows(queryJob, offset: 0, end: batch.totalSize)
        }
        let apiVersion = job.apiVersion
        if format == "JSON" {
            return Self.typed(
                BulkV1Shapes.queryResultJSON(rows, object: job.object, apiVersion: apiVersion).encoded(),
                "JSON"
            )
        }
        return Self.typed(BulkXMLWriter.document(BulkV1Shapes.queryResultXML(rows, object: job.object)), "XML")
    }

    // MARK: Formats

    /// `true` for a JSON body, `false` for another body, `nil` without a body.
    static func bodyIsJSON(_ request: OrgHTTPRequest) -> Bool? {
        guard !request.body.isEmpty else { return nil }
        return request.header("Content-Type")?.lowercased().contains("json") == true
    }

    /// Whether the job named in `segments` (`{version}`, `job`, `{id}`, …) is a JSON job.
    private static func jobIsJSON(_ segments: [String], bulk: BulkJobs) -> Bool {
        guard segments.count >= 3, segments[1] == "job",
            let job = try? bulk.read({ try BulkJobTable.fetch(segments[2], kind: .classic, $0) })
        else { return false }
        return job.contentType == "JSON"
    }

    private static func requireV1(_ request: OrgHTTPRequest, _ allowed: [String]) throws {
        guard allowed.contains(request.method) else {
            throw OrgError.bulkV1(
                "InvalidUrl",
                "\(request.method) is not allowed here; use \(allowed.joined(separator: " or "))"
            )
        }
    }

    /// A Bulk 1.0 body as JSON or XML, status 200.
    static func format(_ element: BulkXMLElement, json: Bool) -> OrgHTTPResponse {
        if json { return typed(BulkV1Shapes.json(element).encoded(), "JSON") }
        return typed(BulkXMLWriter.document(element), "XML")
    }

    /// A 200 response with the exact media type clients compare (`application/json`, `application/xml`,
    /// `text/csv`).
    static func typed(_ body: Data, _ contentType: String) -> OrgHTTPResponse {
        OrgHTTPResponse(
            status: 200,
            headers: [("Content-Type", BulkV1Shapes.mediaType(contentType))],
            body: body,
            isJSON: false
        )
    }

    /// The Bulk 1.0 error body for `error`, status 400.
    static func bulkV1Error(_ error: OrgError, json: Bool?) -> OrgHTTPResponse {
        let code = bulkV1Codes.contains(error.code.rawValue) ? error.code.rawValue : "InvalidBatch"
        let message = bulkV1Codes.contains(error.code.rawValue) ? error.message : "\(error.code): \(error.message)"
        let element = BulkXMLElement(
            name: "error",
            children: [.leaf("exceptionCode", code), .leaf("exceptionMessage", message)]
        )
        var response = format(element, json: json ?? false)
        response.status = 400
        return response
    }
}

extension OrgError {
    /// A Bulk API 1.0 error (`exceptionCode` `code`), status 400.
    static func bulkV1(_ code: String, _ message: String) -> OrgError {
        OrgError(status: 400, code: Code(code), message: message)
    }
}
