import Foundation
import HTTPTypes

/// A response of the local org before it is written to the wire (or into a composite result).
struct OrgHTTPResponse: Sendable {
    /// The status code.
    var status: Int
    /// Headers besides `Content-Type` and `Sforce-Limit-Info`, which the server adds.
    var headers: [(name: String, value: String)]
    /// The body; empty for `204`.
    var body: Data
    /// Whether `body` is JSON (and gets `Content-Type: application/json;charset=UTF-8`).
    var isJSON: Bool

    /// Creates a response.
    init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data(), isJSON: Bool = true) {
        self.status = status
        self.headers = headers
        self.body = body
        self.isJSON = isJSON
    }

    /// A JSON response from encoded bytes.
    static func json(_ status: Int, _ body: Data, headers: [(name: String, value: String)] = []) -> OrgHTTPResponse {
        OrgHTTPResponse(status: status, headers: headers, body: body)
    }

    /// A JSON response from a value.
    static func json(_ status: Int, _ value: OrgJSONValue, headers: [(name: String, value: String)] = [])
        -> OrgHTTPResponse
    {
        OrgHTTPResponse(status: status, headers: headers, body: value.encoded())
    }

    /// `204 No Content`.
    static let noContent = OrgHTTPResponse(status: 204, isJSON: false)

    /// The REST error response for `error`: the JSON error array (or the `300` list of matches).
    static func error(_ error: OrgError, version: APIVersion) -> OrgHTTPResponse {
        OrgHTTPResponse(status: error.status, body: error.responseBody(apiVersion: version.description))
    }

    /// Whether the status is a client or server error.
    var isFailure: Bool { status >= 400 }

    /// The body as a JSON value (for composite results); `null` when empty or not JSON.
    var jsonValue: OrgJSONValue {
        guard !body.isEmpty, isJSON, let value = try? OrgJSONValue.decode(body) else { return .null }
        return value
    }

    /// The first header called `name`, compared case-insensitively.
    func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
