import Foundation
import GRDB

/// Bulk API 2.0 query jobs: `/jobs/query[/{id}[/results]]` (real-org.md §3.1).
extension OrgAPI {
    /// The default number of records in a results page when the request sets no `maxRecords`.
    static let defaultBulkPageSize = 50_000

    /// Routes `/jobs/{query|ingest}[/{id}]`: the job list and creation, and a job's info, state
    /// change and deletion, alike for both kinds; a job's sub-resources go to ``queryJobs`` and
    /// ``ingestJobs``.
    func jobs(_ request: OrgHTTPRequest, version: APIVersion, path: [String]) throws -> OrgHTTPResponse {
        guard let kind = path.first.flatMap({ BulkJob.Kind(rawValue: $0.lowercased()) }), kind != .classic else {
            throw OrgError.resourceNotFound
        }
        let rest = Array(path.dropFirst())
        switch rest.count {
        case 0:
            try Self.require(request, ["GET", "POST"])
            if request.method == "GET" { return try listJobs(kind) }
            if kind == .query { return try createQueryJob(request, version: version) }
            return try createIngestJob(request, version: version)
        case 1:
            try Self.require(request, ["GET", "PATCH", "DELETE"])
            let job = try bulk.job(rest[0], kind: kind)
            switch request.method {
            case "GET": return .json(200, job.info)
            case "PATCH": return try changeState(job, request)
            default: return try delete(job)
            }
        default:
            if kind == .query { return try queryJobs(request, version: version, path: rest) }
            return try ingestJobs(request, version: version, path: rest)
        }
    }

    /// Routes `/jobs/query/{id}/{results|resultPages}`.
    private func queryJobs(_ request: OrgHTTPRequest, version: APIVersion, path: [String]) throws -> OrgHTTPResponse {
        switch path.count {
        case 2 where path[1] == "results":
            try Self.require(request, ["GET"])
            return try queryResults(request, version: version, job: try bulk.job(path[0], kind: .query))
        case 2 where path[1] == "resultPages" && version >= Self.resultPagesVersion:
            try Self.require(request, ["GET"])
            return try resultPages(request, version: version, job: try bulk.job(path[0], kind: .query))
        default:
            throw OrgError.resourceNotFound
        }
    }

    func createQueryJob(_ request: OrgHTTPRequest, version: APIVersion) throws -> OrgHTTPResponse {
        let body = try request.jsonObjectBody()
        let operation = body["operation"]?.stringValue ?? ""
        guard operation == "query" || operation == "queryAll" else {
            throw OrgError.invalidJob("The operation must be 'query' or 'queryAll', not '\(operation)'")
        }
        guard let soql = body["query"]?.stringValue, !soql.isEmpty else {
            throw OrgError.invalidJob("A query job needs a 'query'")
        }
        let format = try Self.csvFormat(body)
        let query = try BulkQueryRunner.parseForBulk(soql)
        let object = try database.context.queryObject(query.object)
        // Fields and relationships are checked now, as Salesforce does, so a bad query never becomes a job.
        _ = try OrgQueryCompiler(context: database.context, apiVersion: version.description, includeDeleted: false)
            .compile(query)
        let job = try bulk.create(
            kind: .query,
            operation: operation,
            object: object.name,
            query: soql,
            apiVersion: version.description,
            state: .uploadComplete,
            columnDelimiter: format.delimiter,
            lineEnding: format.lineEnding,
            creator: database.context
        )
        bulk.startIfIdle(job)
        return .json(200, job.info)
    }

    /// Reads and checks `contentType`, `columnDelimiter` and `lineEnding` of a job body.
    static func csvFormat(_ body: OrgJSONObject) throws -> (delimiter: String, lineEnding: String) {
        if let contentType = body["contentType"]?.stringValue, contentType != "CSV" {
            throw OrgError.invalidJob("The content type must be CSV, not '\(contentType)'")
        }
        let delimiter = body["columnDelimiter"]?.stringValue ?? "COMMA"
        guard BulkJob.delimiters[delimiter] != nil else {
            throw OrgError.invalidJob("Unknown columnDelimiter '\(delimiter)'")
        }
        let lineEnding = body["lineEnding"]?.stringValue ?? "LF"
        guard lineEnding == "LF" || lineEnding == "CRLF" else {
            throw OrgError.invalidJob("The lineEnding must be LF or CRLF, not '\(lineEnding)'")
        }
        return (delimiter, lineEnding)
    }

    func listJobs(_ kind: BulkJob.Kind) throws -> OrgHTTPResponse {
        let jobs = try bulk.read { try BulkJobTable.fetchAll(kind: kind, $0) }
        return .json(200, ["done": true, "nextRecordsUrl": .null, "records": .array(jobs.map(\.info))])
    }

    /// `PATCH {"state":"Aborted"}` (and, for ingest jobs, `UploadComplete`, handled by ``changeState``).
    func abort(_ job: BulkJob, _ request: OrgHTTPRequest) throws -> OrgHTTPResponse {
        let body = try request.jsonObjectBody()
        guard body["state"]?.stringValue == BulkJob.State.aborted.rawValue else {
            throw OrgError.invalidJob(
                "A job's state can be set to Aborted here, not '\(body["state"]?.stringValue ?? "")'"
            )
        }
        guard !job.state.isTerminal else {
            throw OrgError.invalidJobState(job.id, state: job.state.rawValue, action: "aborted")
        }
        bulk.cancel(job.id)
        let aborted = try bulk.write { db -> BulkJob in
            try BulkJobTable.setState(job.id, .aborted, now: database.context.nowMilliseconds, db)
            return try BulkJobTable.fetch(job.id, kind: job.kind, db) ?? job
        }
        return .json(200, aborted.info)
    }

    /// `DELETE`: the job and its results are gone; only finished jobs can be deleted.
    func delete(_ job: BulkJob) throws -> OrgHTTPResponse {
        guard job.state.isTerminal || job.state == .open else {
            throw OrgError.invalidJobState(job.id, state: job.state.rawValue, action: "deleted")
        }
        bulk.cancel(job.id)
        try bulk.write { db in
            try BulkJobs.dropResults(job, db)
            try BulkJobs.dropIngestResults(job, db)
            try BulkJobTable.delete(job.id, db)
        }
        return .noContent
    }

    /// The first API version with `GET /jobs/query/{id}/resultPages`; before it the path is 404, as
    /// on a real org.
    static let resultPagesVersion = APIVersion(major: 58)
    /// The result URLs in one `resultPages` answer (Salesforce: "up to five").
    static let resultPagesPerAnswer = 5

    /// What reading a job's results needs: the job created with this version and complete, the
    /// `maxRecords` asked for, and the offset of the `locator` (0 without one).
    private func resultsRequest(_ request: OrgHTTPRequest, version: APIVersion, job: BulkJob) throws -> (
        maxRecords: Int, offset: Int
    ) {
        guard job.apiVersion == version.description else {
            throw OrgError.bulkVersionMismatch(job.id, created: job.apiVersion, asked: version.description)
        }
        guard job.state == .jobComplete else {
            throw OrgError.jobNotComplete(job.id, state: job.state.rawValue)
        }
        var maxRecords = Self.defaultBulkPageSize
        if let text = request.parameter("maxRecords") {
            guard let value = Int(text), value > 0 else {
                throw OrgError.invalidParameter("maxRecords must be a positive integer, not '\(text)'")
            }
            maxRecords = value
        }
        var offset = 0
        if let locator = request.parameter("locator"), !locator.isEmpty, locator != "null" {
            // `resultPages` names the first page too (offset 0); `Sforce-Locator` never does.
            guard let decoded = Data(base64Encoded: locator).flatMap({ Int(String(decoding: $0, as: UTF8.self)) }),
                decoded >= 0, decoded < job.totalSize || decoded == 0
            else { throw OrgError.invalidBulkLocator(locator) }
            offset = decoded
        }
        return (maxRecords, offset)
    }

    /// A results locator: the offset of a page's first record.
    private static func locator(_ offset: Int) -> String {
        Data(String(offset).utf8).base64EncodedString()
    }

    /// `GET /jobs/query/{id}/resultPages[?locator=…][&maxRecords=…]` (API 58.0+): the result URLs of
    /// up to five pages of `maxRecords` records, from the page at `locator`, each the same page
    /// `GET …/results?locator=…&maxRecords=…` serves; `nextRecordsUrl` lists the next five, `done` is
    /// `true` with the last. An empty result has one page (the CSV header).
    private func resultPages(_ request: OrgHTTPRequest, version: APIVersion, job: BulkJob) throws -> OrgHTTPResponse {
        let (maxRecords, offset) = try resultsRequest(request, version: version, job: job)
        let base = "/services/data/v\(version.description)/jobs/query/\(job.id)"
        var pages: [OrgJSONValue] = []
        var start = offset
        repeat {
            pages.append([
                "resultUrl": .string("\(base)/results?locator=\(Self.locator(start))&maxRecords=\(maxRecords)")
            ])
            start += maxRecords
        } while start < job.totalSize && pages.count < Self.resultPagesPerAnswer
        let done = start >= job.totalSize
        let next: OrgJSONValue =
            done ? .null : .string("\(base)/resultPages?locator=\(Self.locator(start))&maxRecords=\(maxRecords)")
        return .json(200, ["resultPages": .array(pages), "nextRecordsUrl": next, "done": .bool(done)])
    }

    private func queryResults(_ request: OrgHTTPRequest, version: APIVersion, job: BulkJob) throws -> OrgHTTPResponse {
        let (maxRecords, offset) = try resultsRequest(request, version: version, job: job)
        let page = try bulk.read { db in
            // The snapshot lives as long as REST locators do; once it is gone the results are too.
            let createdAt = try Int64.fetchOne(
                db,
                sql: "SELECT createdAt FROM _org_cursor WHERE id = ?",
                arguments: [job.cursorID ?? ""]
            )
            let lifetime = Int64(database.configuration.locatorLifetime * 1000)
            guard job.totalSize == 0 || createdAt.map({ database.context.nowMilliseconds - $0 <= lifetime }) == true
            else { throw OrgError.bulkResultsExpired(job.id) }
            return try BulkQueryRunner(db: db, context: database.context)
                .page(job, offset: offset, maxRecords: maxRecords)
        }
        let locator = page.next.map(Self.locator) ?? "null"
        return OrgHTTPResponse(
            status: 200,
            headers: [
                ("Content-Type", "text/csv"), ("Sforce-Locator", locator),
                ("Sforce-NumberOfRecords", String(page.count)),
            ],
            body: page.csv,
            isJSON: false
        )
    }
}
