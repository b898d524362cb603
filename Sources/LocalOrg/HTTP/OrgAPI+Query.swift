/// `query` and `queryAll` with `nextRecordsUrl` paging (§2).
extension OrgAPI {
    /// The default, smallest and largest page sizes of the real API (§2.3).
    static let defaultPageSize = 2000
    static let minimumPageSize = 200
    static let maximumPageSize = 2000

    /// `GET /query?q=…`, `GET /queryAll?q=…`, and `GET /query/{locator}` (or `/queryAll/{locator}`).
    func query(
        _ request: OrgHTTPRequest,
        version: APIVersion,
        locator: [String],
        includeDeleted: Bool,
        store: OrgStore
    ) throws -> OrgHTTPResponse {
        try Self.require(request, ["GET"])
        let size = pageSize(for: request)
        let page: OrgQueryPage
        if let next = locator.first {
            guard locator.count == 1 else { throw OrgError.resourceNotFound }
            page = try store.queryMore(locator: next, pageSize: size, apiVersion: version.description)
        } else {
            guard let soql = request.parameter("q"), !soql.isEmpty else { throw OrgError.missingParameter("q") }
            page = try store.query(
                soql,
                includeDeleted: includeDeleted,
                pageSize: size,
                apiVersion: version.description
            )
        }
        return .json(200, page.responseBody(apiVersion: version.description))
    }

    /// The page size: the configured override, else `Sforce-Query-Options: batchSize=N` clamped to
    /// 200…2000, else 2000.
    func pageSize(for request: OrgHTTPRequest) -> Int {
        Self.pageSize(for: request, override: pageSizeOverride)
    }

    /// The page size for `request` given the configured override (see ``pageSize(for:)``).
    static func pageSize(for request: OrgHTTPRequest, override: Int?) -> Int {
        if let override { return override }
        guard let options = request.header("Sforce-Query-Options") else { return Self.defaultPageSize }
        for option in options.split(separator: ",") {
            let pair = option.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].caseInsensitiveCompare("batchSize") == .orderedSame, let size = Int(pair[1]) {
                return min(max(size, Self.minimumPageSize), Self.maximumPageSize)
            }
        }
        return Self.defaultPageSize
    }

    /// `GET /search?q=FIND {term} …`: `{"searchRecords": […]}` (§8.1).
    func search(_ request: OrgHTTPRequest, version: APIVersion, store: OrgStore) throws -> OrgHTTPResponse {
        try Self.require(request, ["GET"])
        guard let sosl = request.parameter("q"), !sosl.isEmpty else { throw OrgError.missingParameter("q") }
        return .json(200, try database.search(sosl, apiVersion: version.description))
    }

    /// `GET /recent[?limit=N]`: recently viewed records, at most 200 (§8.2).
    func recent(_ request: OrgHTTPRequest, version: APIVersion, store: OrgStore) throws -> OrgHTTPResponse {
        try Self.require(request, ["GET"])
        var limit = 200
        if let text = request.parameter("limit") {
            guard let value = Int(text), value > 0 else {
                throw OrgError.invalidBody("The 'limit' parameter must be a positive integer, not '\(text)'")
            }
            limit = min(value, 200)
        }
        return .json(200, try database.recentlyViewed(nil, limit: limit, apiVersion: version.description))
    }
}
