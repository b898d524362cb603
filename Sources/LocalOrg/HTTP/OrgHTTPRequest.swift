import Foundation
import HTTPTypes

/// A request as the local org's handlers see it: top-level HTTP requests and composite subrequests
/// are both turned into this, so both run through the same code.
struct OrgHTTPRequest: Sendable {
    /// The upper-case method (`GET`, `PATCH`…).
    var method: String
    /// The path, still percent-encoded, without the query string.
    var path: String
    /// The raw query string (after `?`), if any.
    var query: String?
    /// The request headers.
    var headers: HTTPFields
    /// The request body (empty when there is none).
    var body: Data

    /// Creates a request from a path that may carry a query string.
    init(method: String, target: String, headers: HTTPFields = [:], body: Data = Data()) {
        self.method = method.uppercased()
        if let mark = target.firstIndex(of: "?") {
            path = String(target[..<mark])
            query = String(target[target.index(after: mark)...])
        } else {
            path = target
            query = nil
        }
        self.headers = headers
        self.body = body
    }

    /// The path and query as sent, for the request log.
    var target: String {
        query.map { "\(path)?\($0)" } ?? path
    }

    /// The decoded query parameters in order.
    var parameters: [(name: String, value: String)] {
        query.map(FormDecoding.pairs) ?? []
    }

    /// The first query parameter called `name` (case-sensitive, as Salesforce's are).
    func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }

    /// The value of a header, by case-insensitive name.
    func header(_ name: String) -> String? {
        HTTPField.Name(name).flatMap { headers[$0] }
    }

    /// The body parsed as JSON.
    ///
    /// - Throws: `OrgError` `JSON_PARSER_ERROR` when the body is empty or not JSON.
    func jsonBody() throws -> OrgJSONValue {
        guard !body.isEmpty else { throw OrgError.invalidBody("The request body is empty; a JSON body is required") }
        return try OrgJSONValue.decode(body)
    }

    /// The body parsed as a JSON object.
    ///
    /// - Throws: `OrgError` `JSON_PARSER_ERROR` when the body is not a JSON object.
    func jsonObjectBody() throws -> OrgJSONObject {
        guard case .object(let object) = try jsonBody() else {
            throw OrgError.invalidBody("The request body must be a JSON object")
        }
        return object
    }
}
