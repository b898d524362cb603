/// The HTTP methods the client uses.
enum HTTPVerb: String, Sendable {
    case get = "GET"
    case post = "POST"
    case patch = "PATCH"
    case delete = "DELETE"
    case put = "PUT"
}

/// One request as the client builds it, before the transport turns it into an AsyncHTTPClient
/// request. Kept free of dependency types so retries and tests can work on it.
struct OutgoingRequest: Sendable {
    var method: HTTPVerb
    /// The URL path, starting with `/`, already percent-encoded.
    var path: String
    /// The encoded query string without `?`, when there is one. Never logged.
    var query: String?
    /// Extra headers (`Sforce-Query-Options`, `If-Unmodified-Since`…); the transport adds
    /// `Authorization`, `Accept` and `Content-Type`.
    var headers: [(name: String, value: String)] = []
    /// A JSON or form body.
    var body: String?
    /// `application/json` unless set (the OAuth endpoint posts a form).
    var contentType = "application/json"
    /// Whether sending the request twice has the same effect as once; decides retries after a
    /// lost response.
    var isIdempotent: Bool
    /// Whether to send the bearer token (not on the OAuth token endpoint).
    var isAuthenticated = true

    init(_ method: HTTPVerb, _ path: String, query: String? = nil, body: String? = nil, isIdempotent: Bool? = nil) {
        self.method = method
        self.path = path
        self.query = query
        self.body = body
        self.isIdempotent = isIdempotent ?? (method != .post)
    }

    /// Path and query, as sent in the request line.
    var target: String { query.map { "\(path)?\($0)" } ?? path }
}

/// A response with its whole body read.
struct IncomingResponse: Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: String

    /// The first value of the header `name`, compared case-insensitively.
    func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.name.lowercased() == lowered }?.value
    }
}

/// A failure below HTTP: the connection could not be made, dropped, or timed out.
struct TransportFailure: Error, Sendable {
    enum Kind: Sendable {
        /// The request did not leave the client (connect refused or timed out).
        case connectFailed
        /// The connection dropped after the request may have been sent.
        case connectionDropped
        /// No complete response within the timeout, after the request may have been sent.
        case timedOut
    }

    var kind: Kind
    var underlying: any Error & Sendable
}

/// Sends one request to `baseURL` and reads the whole response. Throws `TransportFailure` for
/// connection-level problems and `CancellationError` when cancelled.
typealias HTTPTransport =
    @Sendable (_ baseURL: String, _ request: OutgoingRequest, _ accessToken: String?) async throws ->
    IncomingResponse
