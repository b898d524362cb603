import Foundation
import SOQL

extension RESTOrgClient {
    /// `GET /connect/briefcase/priming-records` (Connect REST API, 54.0+): one page of the ids of
    /// the records in the briefcases assigned to the connected app.
    ///
    /// The first request may carry `changedAfter` (sent as `changedAfterTimestamp`, ISO 8601 UTC
    /// with milliseconds and a `Z` suffix, 55.0+): only records created or modified after that
    /// instant. The next pages carry the previous page's `relayToken` alone: the API takes one
    /// of the two, never both, and the token carries the filter on.
    public func primingRecords(relayToken: String?, changedAfter: Date?) async throws -> PrimingRecordsPage {
        var query: String?
        if let relayToken {
            guard !relayToken.isEmpty else {
                throw OrgClientError.invalidArgument("the relay token is empty; pass nil for the first page")
            }
            query = "relayToken=" + PathComponents.encode(relayToken)
        } else if let changedAfter {
            query = "changedAfterTimestamp=" + PathComponents.encode(Self.primingTimestamp(changedAfter))
        }
        let request = OutgoingRequest(.get, "\(basePath)/connect/briefcase/priming-records", query: query)
        let value = try await sendForJSON(request)
        guard let page = PrimingRecordsPage(value) else {
            throw OrgClientError.unexpectedShape(
                "no 'primingRecords' object of record lists ({\"id\", \"systemModstamp\"})",
                request: request
            )
        }
        return page
    }

    /// `2024-03-05T10:11:12.345Z`: the timestamp format of the priming-records API.
    static func primingTimestamp(_ date: Date) -> String {
        SalesforceDateTime.soqlLiteral(milliseconds: Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
    }
}
