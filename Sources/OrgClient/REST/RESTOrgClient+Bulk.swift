import JSONCore

extension RESTOrgClient: BulkQueryClient {
    /// The endpoint's API version (`59.0`).
    public var apiVersion: String { configuration.endpoint.apiVersion }

    public func createQueryJob(_ soql: String, includesDeleted: Bool) async throws -> BulkJobInfo {
        guard !soql.isEmpty else { throw OrgClientError.invalidArgument("the SOQL query is empty") }
        let body: [String: OrgValue] = [
            "operation": .string(includesDeleted ? "queryAll" : "query"),
            "query": .string(soql),
            "contentType": "CSV",
            "columnDelimiter": "COMMA",
            "lineEnding": "LF",
        ]
        let request = OutgoingRequest(.post, "\(basePath)/jobs/query", body: OrgValue.object(body).jsonText)
        return BulkJobInfo(try await sendForJSON(request))
    }

    public func queryJob(_ id: String) async throws -> BulkJobInfo {
        BulkJobInfo(try await sendForJSON(OutgoingRequest(.get, try jobPath(id))))
    }

    public func queryJobs() async throws -> [BulkJobInfo] {
        let body = try await sendForJSON(OutgoingRequest(.get, "\(basePath)/jobs/query"))
        return (body["records"]?.arrayValue ?? []).map(BulkJobInfo.init)
    }

    public func queryJobResults(_ id: String, locator: String?, maxRecords: Int?) async throws -> BulkResultsPage {
        var parameters: [String] = []
        if let locator { parameters.append("locator=" + PathComponents.encode(locator)) }
        if let maxRecords {
            guard maxRecords > 0 else {
                throw OrgClientError.invalidArgument("maxRecords \(maxRecords) is not positive")
            }
            parameters.append("maxRecords=\(maxRecords)")
        }
        let request = OutgoingRequest(
            .get,
            try jobPath(id) + "/results",
            query: parameters.isEmpty ? nil : parameters.joined(separator: "&")
        )
        return try await resultsPage(request)
    }

    public func queryJobResultPages(_ id: String, next: String?, maxRecords: Int?) async throws
        -> BulkResultPageLinks
    {
        let path = try jobPath(id) + "/resultPages"
        let request: OutgoingRequest
        if let next {
            request = try Self.jobRequest(next, path: path)
        } else {
            if let maxRecords, maxRecords <= 0 {
                throw OrgClientError.invalidArgument("maxRecords \(maxRecords) is not positive")
            }
            request = OutgoingRequest(.get, path, query: maxRecords.map { "maxRecords=\($0)" })
        }
        let body = try await sendForJSON(request)
        guard let pages = body["resultPages"]?.arrayValue else {
            throw OrgClientError.unexpectedShape("no 'resultPages' array", request: request)
        }
        var urls: [String] = []
        for page in pages {
            guard let url = page["resultUrl"]?.stringValue else {
                throw OrgClientError.unexpectedShape("a result page without a 'resultUrl'", request: request)
            }
            urls.append(url)
        }
        let nextURL = (body["nextRecordsUrl"] ?? body["nextRecordUrl"])?.stringValue
        let done = body["done"]?.boolValue ?? (nextURL == nil)
        return BulkResultPageLinks(resultURLs: urls, nextURL: done ? nil : nextURL)
    }

    public func queryJobResults(_ id: String, resultURL: String) async throws -> BulkResultsPage {
        try await resultsPage(try Self.jobRequest(resultURL, path: try jobPath(id) + "/results"))
    }

    /// A `GET` of `url`, which must be `path` (the job's own resource) with at most a query string:
    /// the token is never sent to a path the org's answer chose otherwise.
    private static func jobRequest(_ url: String, path: String) throws -> OutgoingRequest {
        let parts = url.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts[0] == path, !url.contains("#"), !url.contains(where: { $0 == " " || $0.isNewline }) else {
            throw OrgClientError.unsafeJobURL(url, expected: path)
        }
        return OutgoingRequest(.get, path, query: parts.count > 1 ? String(parts[1]) : nil)
    }

    /// Sends `request` for a CSV results page and reads its locator and record count.
    private func resultsPage(_ request: OutgoingRequest) async throws -> BulkResultsPage {
        var request = request
        request.headers.append((name: "Accept", value: "text/csv"))
        let response = try await send(request)
        let next = response.header("Sforce-Locator").flatMap { $0.isEmpty || $0 == "null" ? nil : $0 }
        let count = response.header("Sforce-NumberOfRecords").flatMap { Int($0) } ?? 0
        return BulkResultsPage(csv: response.body, nextLocator: next, numberOfRecords: count)
    }

    public func abortQueryJob(_ id: String) async throws -> BulkJobInfo {
        let request = OutgoingRequest(.patch, try jobPath(id), body: #"{"state":"Aborted"}"#)
        return BulkJobInfo(try await sendForJSON(request))
    }

    public func deleteQueryJob(_ id: String) async throws {
        _ = try await send(OutgoingRequest(.delete, try jobPath(id)))
    }

    private func jobPath(_ id: String) throws -> String {
        guard !id.isEmpty, id.allSatisfy({ $0.isLetter || $0.isNumber }) else {
            throw OrgClientError.invalidArgument("'\(id)' is not a Bulk job ID")
        }
        return "\(basePath)/jobs/query/\(id)"
    }
}

extension RESTOrgClient: BulkIngestClient {
    public func createIngestJob(_ objectType: String, operation: String, externalIDField: String?) async throws
        -> BulkJobInfo
    {
        var body: [String: OrgValue] = [
            "object": .string(objectType),
            "operation": .string(operation),
            "contentType": "CSV",
            "columnDelimiter": "COMMA",
            "lineEnding": "LF",
        ]
        if let externalIDField { body["externalIdFieldName"] = .string(externalIDField) }
        let request = OutgoingRequest(.post, "\(basePath)/jobs/ingest", body: OrgValue.object(body).jsonText)
        return BulkJobInfo(try await sendForJSON(request))
    }

    public func uploadIngestData(_ id: String, csv: String) async throws {
        var request = OutgoingRequest(.put, try ingestPath(id) + "/batches", body: csv, isIdempotent: true)
        request.contentType = "text/csv"
        _ = try await send(request)
    }

    public func closeIngestJob(_ id: String, abort: Bool) async throws -> BulkJobInfo {
        let state = abort ? "Aborted" : "UploadComplete"
        let request = OutgoingRequest(.patch, try ingestPath(id), body: "{\"state\":\"\(state)\"}")
        return BulkJobInfo(try await sendForJSON(request))
    }

    public func ingestJob(_ id: String) async throws -> BulkJobInfo {
        BulkJobInfo(try await sendForJSON(OutgoingRequest(.get, try ingestPath(id))))
    }

    public func ingestResults(_ id: String, _ set: BulkIngestResultSet) async throws -> String {
        var request = OutgoingRequest(.get, try ingestPath(id) + "/" + set.rawValue)
        request.headers.append((name: "Accept", value: "text/csv"))
        return try await send(request).body
    }

    private func ingestPath(_ id: String) throws -> String {
        guard !id.isEmpty, id.allSatisfy({ $0.isLetter || $0.isNumber }) else {
            throw OrgClientError.invalidArgument("'\(id)' is not a Bulk job ID")
        }
        return "\(basePath)/jobs/ingest/\(id)"
    }
}
