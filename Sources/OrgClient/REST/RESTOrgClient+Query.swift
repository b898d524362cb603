extension RESTOrgClient {
    /// Runs `GET /query?q=…` (or `/queryAll`) and scans the first page.
    ///
    /// With ``QueryOptions/batchSize`` set, sends `Sforce-Query-Options: batchSize=N`.
    public func queryFirstPage(_ soql: String, options: QueryOptions) async throws -> QueryPage {
        guard !soql.isEmpty else { throw OrgClientError.invalidArgument("the SOQL query is empty") }
        let resource = options.includesDeleted ? "queryAll" : "query"
        var request = OutgoingRequest(.get, "\(basePath)/\(resource)", query: "q=" + PathComponents.encode(soql))
        try addBatchSize(options, to: &request)
        return try await fetchPage(request)
    }

    /// Runs `GET {nextRecordsUrl}` and scans the page.
    ///
    /// The URL must be a host-relative path under `/services/data/`, as Salesforce sends it; any
    /// other value is refused so the token is never sent elsewhere.
    public func queryMore(_ nextRecordsURL: String, options: QueryOptions) async throws -> QueryPage {
        guard nextRecordsURL.hasPrefix("/services/data/"), !nextRecordsURL.contains("/../"),
            !nextRecordsURL.contains("#"), !nextRecordsURL.contains(where: { $0 == " " || $0.isNewline })
        else {
            throw OrgClientError.unsafeNextRecordsURL(nextRecordsURL)
        }
        let parts = nextRecordsURL.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var request = OutgoingRequest(.get, String(parts[0]), query: parts.count > 1 ? String(parts[1]) : nil)
        try addBatchSize(options, to: &request)
        return try await fetchPage(request)
    }

    private func addBatchSize(_ options: QueryOptions, to request: inout OutgoingRequest) throws {
        guard let batchSize = options.batchSize else { return }
        guard batchSize > 0 else {
            throw OrgClientError.invalidArgument("the query batch size \(batchSize) is not positive; use 200 to 2000")
        }
        request.headers.append((name: "Sforce-Query-Options", value: "batchSize=\(batchSize)"))
    }

    private func fetchPage(_ request: OutgoingRequest) async throws -> QueryPage {
        let response = try await send(request)
        do {
            return try QueryPage(scanning: RawJSON(response.body))
        } catch var error as OrgClientError {
            error.method = request.method.rawValue
            error.path = request.path
            error.httpStatus = response.status
            throw error
        }
    }
}
