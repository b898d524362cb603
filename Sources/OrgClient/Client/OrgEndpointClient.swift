/// One request to a JSON endpoint of the org (an Apex REST service, a Connect API resource): the
/// method, a path of the org already percent-encoded, an encoded query string and a JSON body.
///
/// The path never carries a host: the client sends it to its own instance URL with its own
/// token, retries and limits reporting.
public struct EndpointCall: Sendable, Hashable {
    /// `GET`, `POST`, `PUT`, `PATCH` or `DELETE`.
    public var method: String
    /// The percent-encoded path, starting with a single `/`.
    public var path: String
    /// The encoded query string without `?`, when there is one.
    public var query: String?
    /// The JSON body, when there is one.
    public var body: String?

    /// Creates a call.
    public init(method: String, path: String, query: String? = nil, body: String? = nil) {
        self.method = method
        self.path = path
        self.query = query
        self.body = body
    }

    /// The path and query as sent in the request line.
    public var target: String { query.map { "\(path)?\($0)" } ?? path }
}

/// What the org sends for an ``EndpointCall``.
public struct EndpointReply: Sendable, Hashable {
    /// The HTTP status (2xx; failures throw).
    public var status: Int
    /// The response text (empty for 204).
    public var body: String

    /// Creates a reply.
    public init(status: Int, body: String) {
        self.status = status
        self.body = body
    }
}

/// An org client that can also call arbitrary JSON endpoints of its org (the `endpoint` targets).
public protocol OrgEndpointClient: OrgClient {
    /// Sends `call` to the org (same token, retries and limits reporting as the REST API).
    ///
    /// - Throws: ``OrgClientError`` for a failing status (with the server's message) or transport
    ///   failure, `.invalidArgument` for a path that is not a path of the org.
    func send(_ call: EndpointCall) async throws -> EndpointReply

    /// The call that fetches a next-page URL a response returned: a path of the org, or an absolute
    /// URL on the org's own scheme, host and port; `nil` for anything else (another host).
    func call(forNextURL url: String) -> EndpointCall?

    /// The versioned data path of the org's REST API (`/services/data/v62.0`), for resources
    /// below it such as the UI API.
    var dataPath: String { get }
}
