import AsyncHTTPClient
import Logging

/// The boundary to AsyncHTTPClient: turns an ``OutgoingRequest`` into an `HTTPClientRequest`,
/// reads the response into an ``IncomingResponse`` and sorts connection errors into the
/// ``TransportFailure`` kinds the retry logic needs. No AsyncHTTPClient or NIO type leaves here.
struct AsyncHTTPTransport: Sendable {
    let httpClient: HTTPClient
    /// The proxies' clients, and which one a URL takes (``ProxySettings/server(for:)``).
    var proxied: [ProxySettings.Server: HTTPClient] = [:]
    var proxy: ProxySettings?
    let requestTimeout: Duration
    let maxResponseBytes: Int
    let logger: Logger

    func callAsFunction(baseURL: String, request: OutgoingRequest, accessToken: String?) async throws
        -> IncomingResponse
    {
        var outgoing = HTTPClientRequest(url: baseURL + request.target)
        switch request.method {
        case .get: outgoing.method = .GET
        case .post: outgoing.method = .POST
        case .patch: outgoing.method = .PATCH
        case .delete: outgoing.method = .DELETE
        case .put: outgoing.method = .PUT
        }
        outgoing.headers.add(name: "Accept", value: "application/json")
        outgoing.headers.add(name: "User-Agent", value: "syncrun")
        if let accessToken {
            outgoing.headers.add(name: "Authorization", value: "Bearer \(accessToken)")
        }
        for header in request.headers {
            outgoing.headers.add(name: header.name, value: header.value)
        }
        if let body = request.body {
            outgoing.headers.add(name: "Content-Type", value: request.contentType)
            outgoing.body = .bytes(Array(body.utf8))
        }
        let timeoutNanoseconds =
            requestTimeout.components.seconds * 1_000_000_000
            + requestTimeout.components.attoseconds / 1_000_000_000
        let server = proxy?.server(for: baseURL)
        let client = server.flatMap { proxied[$0] } ?? httpClient
        do {
            let response = try await client.execute(
                outgoing,
                timeout: .nanoseconds(timeoutNanoseconds),
                logger: Self.clientLogger(logger)
            )
            let buffer = try await response.body.collect(upTo: maxResponseBytes)
            let body = String(decoding: buffer.readableBytesView, as: UTF8.self)
            return IncomingResponse(
                status: Int(response.status.code),
                headers: response.headers.map { (name: $0.name, value: $0.value) },
                body: body
            )
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as HTTPClientError {
            if let server, error == .proxyAuthenticationRequired || error == .invalidProxyResponse {
                throw OrgClientError.proxyRefused(server, authenticationRequired: error == .proxyAuthenticationRequired)
            }
            throw try Self.classify(error)
        } catch {
            throw Self.classify(other: error)
        }
    }

    /// The logger handed to AsyncHTTPClient: never below `debug`. At `trace` AsyncHTTPClient logs
    /// every HTTP part it reads and writes (`ahc-http-part`: headers, the bearer token among them,
    /// and body bytes, record values among them); no level of syncrun prints a body, a field value
    /// or a token, so its trace lines are dropped. The client's own lines (method, path without
    /// query, status) come from `RESTOrgClient.send`.
    static func clientLogger(_ logger: Logger) -> Logger {
        guard logger.logLevel < .debug else { return logger }
        var capped = logger
        capped.logLevel = .debug
        return capped
    }

    private static func classify(_ error: HTTPClientError) throws -> any Error {
        switch error {
        case .cancelled:
            return CancellationError()
        case .connectTimeout, .getConnectionFromPoolTimeout, .tlsHandshakeTimeout, .socksHandshakeTimeout,
            .httpProxyHandshakeTimeout:
            return TransportFailure(kind: .connectFailed, underlying: error)
        case .readTimeout, .deadlineExceeded, .writeTimeout:
            return TransportFailure(kind: .timedOut, underlying: error)
        case .remoteConnectionClosed:
            return TransportFailure(kind: .connectionDropped, underlying: error)
        default:
            // Protocol violations and similar: the response cannot be trusted; treat like a
            // dropped connection so idempotent requests get another try.
            return TransportFailure(kind: .connectionDropped, underlying: error)
        }
    }

    private static func classify(other error: any Error) -> any Error {
        // NIO's error types are not part of this module's dependencies, so they are told apart by
        // name: a failed connect (refused, unreachable) never sent the request.
        let typeName = String(reflecting: type(of: error))
        let text = String(describing: error).lowercased()
        if typeName.hasSuffix("NIOConnectionError") || text.contains("connection refused")
            || text.contains("connect(descriptor:") || typeName.hasSuffix("ConnectError")
        {
            return TransportFailure(kind: .connectFailed, underlying: error)
        }
        if typeName.hasSuffix("NIOTooManyBytesError") {
            return OrgClientError.responseTooLarge(underlying: error)
        }
        return TransportFailure(kind: .connectionDropped, underlying: error)
    }
}
