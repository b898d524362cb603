import AsyncHTTPClient
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOSSL

/// The ``OrgClient`` that speaks the Salesforce REST API over HTTP(S), to a real org or to the
/// local org.
///
/// Create one with ``withRESTOrgClient(configuration:logger:_:)``, which owns the HTTP client and
/// shuts it down when the scope ends:
///
/// ```swift
/// let endpoint = try OrgEndpoint(baseURL: "https://mydomain.my.salesforce.com", accessToken: token)
/// try await withRESTOrgClient(configuration: .init(endpoint: endpoint), logger: logger) { org in
///     var page = try await org.queryFirstPage("SELECT Id, Name FROM Account", options: .init(batchSize: 500))
///     while let next = page.nextRecordsURL {
///         try store.insert(page.body)
///         page = try await org.queryMore(next, options: .init(batchSize: 500))
///     }
///     try store.insert(page.body)
///     print(org.statistics())
/// }
/// ```
///
/// Every request is retried according to ``RetryPolicy``; each retry is logged at debug level
/// with `sf.request.method`, `sf.request.path`, `sf.retry.attempt` and `sf.retry.delay`. The
/// access token is never logged. The client is a value; copies share the same counters.
public struct RESTOrgClient: OrgClient {
    struct SharedState: Sendable {
        var accessToken: String
        var statistics = OrgClientStatistics()
        /// The token renewal in flight, shared by every request that got a 401 meanwhile.
        var renewal: Task<String, any Error>?
    }

    /// The settings the client was made with.
    public let configuration: Configuration
    let transport: HTTPTransport
    let logger: Logger
    let state: NIOLockedValueBox<SharedState>

    /// Creates a client on an HTTP client the caller owns and shuts down (for example one set up
    /// to trust the local org's self-signed certificate).
    package init(
        httpClient: HTTPClient,
        proxied: [ProxySettings.Server: HTTPClient] = [:],
        configuration: Configuration,
        logger: Logger
    ) {
        let transport = AsyncHTTPTransport(
            httpClient: httpClient,
            proxied: proxied,
            proxy: configuration.proxy,
            requestTimeout: configuration.requestTimeout,
            maxResponseBytes: configuration.maxResponseBytes,
            logger: logger
        )
        self.init(configuration: configuration, logger: logger) { baseURL, request, token in
            try await transport(baseURL: baseURL, request: request, accessToken: token)
        }
    }

    /// Creates a client on any transport; tests use it to script connection failures.
    init(configuration: Configuration, logger: Logger, transport: @escaping HTTPTransport) {
        self.configuration = configuration
        self.transport = transport
        self.logger = logger
        self.state = NIOLockedValueBox(SharedState(accessToken: configuration.endpoint.accessToken))
    }

    /// The endpoint's versioned base path, `/services/data/vNN.N`.
    var basePath: String { configuration.endpoint.versionedBasePath }

    /// Requests, retries, bytes and the latest API usage so far.
    public func statistics() -> OrgClientStatistics {
        state.withLockedValue { $0.statistics }
    }
}

/// Runs `body` with a ``RESTOrgClient`` on a new HTTP client, shut down when `body` returns or
/// throws.
///
/// Redirects are not followed, so the token is never sent to another host.
///
/// - Parameters:
///   - configuration: The endpoint and client settings.
///   - logger: Where the client logs (debug and trace only).
///   - body: The work to do with the client.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws, or an error from shutting the HTTP client down.
public func withRESTOrgClient<Result>(
    configuration: RESTOrgClient.Configuration,
    logger: Logger,
    _ body: (RESTOrgClient) async throws -> Result
) async throws -> Result {
    var httpConfiguration = HTTPClient.Configuration()
    httpConfiguration.redirectConfiguration = .disallow
    let connectNanoseconds =
        configuration.connectTimeout.components.seconds * 1_000_000_000
        + configuration.connectTimeout.components.attoseconds / 1_000_000_000
    httpConfiguration.timeout.connect = .nanoseconds(connectNanoseconds)
    // The client only talks to its org's base URL: over plain HTTP (the local org) no certificate
    // is ever checked, so the file is not parsed (`SSL_CERT_FILE` often names the whole system
    // bundle, ~140 certificates, which cost every command about 3 ms of start-up), only checked.
    if let caFile = configuration.trustedCertificatesFile, !configuration.endpoint.baseURL.hasPrefix("https:") {
        do {
            try FileHandle(forReadingFrom: URL(fileURLWithPath: caFile)).close()
        } catch {
            throw OrgClientError.unreadableCertificates(caFile, underlying: error)
        }
    } else if let caFile = configuration.trustedCertificatesFile {
        var tls = TLSConfiguration.makeClientConfiguration()
        let certificates: [NIOSSLCertificate]
        do {
            certificates = try NIOSSLCertificate.fromPEMFile(caFile)
        } catch {
            throw OrgClientError.unreadableCertificates(caFile, underlying: error)
        }
        tls.additionalTrustRoots = [.certificates(certificates)]
        httpConfiguration.tlsConfiguration = tls
    }
    let httpClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: httpConfiguration)
    // One client per proxy, on the same settings: AsyncHTTPClient takes its proxy per client.
    var proxied: [ProxySettings.Server: HTTPClient] = [:]
    for server in [configuration.proxy?.https, configuration.proxy?.http].compactMap({ $0 })
    where proxied[server] == nil {
        var proxiedConfiguration = httpConfiguration
        switch server.kind {
        case .http:
            let authorization = server.username.map {
                HTTPClient.Authorization.basic(username: $0, password: server.password ?? "")
            }
            proxiedConfiguration.proxy = .server(host: server.host, port: server.port, authorization: authorization)
        case .socks5:
            proxiedConfiguration.proxy = .socksServer(host: server.host, port: server.port)
        }
        proxied[server] = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: proxiedConfiguration
        )
    }
    let clients = [httpClient] + Array(proxied.values)
    let client = RESTOrgClient(httpClient: httpClient, proxied: proxied, configuration: configuration, logger: logger)
    let result: Result
    do {
        result = try await body(client)
    } catch {
        for client in clients { try? await client.shutdown() }
        throw error
    }
    for client in clients { try await client.shutdown() }
    return result
}
