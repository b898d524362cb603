import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOSSL
import ServiceLifecycle

/// The embedded local org: an HTTP server that speaks the Salesforce REST API over an ``OrgDatabase``.
///
/// Start it in a scope; it stops (gracefully, finishing requests in flight) when the scope ends:
///
/// ```swift
/// let database = try OrgDatabase(directory: dataDirectory, schema: .standard)
/// let server = try LocalOrgServer(configuration: LocalOrgConfiguration(pageSize: 200), database: database)
/// try await server.withRunningServer { endpoint in
///     // endpoint.baseURL is e.g. http://127.0.0.1:54321, endpoint.accessToken the bearer token
/// }
/// ```
public struct LocalOrgServer: Sendable {
    /// The settings the server runs with.
    public let configuration: LocalOrgConfiguration
    let api: OrgAPI
    private let faults: NIOLockedValueBox<FaultPlan>
    private let log: RequestLog?
    private let tlsConfiguration: TLSConfiguration?

    /// Prepares a server; nothing is bound until ``withRunningServer(logger:_:)``.
    ///
    /// - Parameters:
    ///   - configuration: the server settings.
    ///   - database: the org's data.
    /// - Throws: `OrgError` when the JWT certificate, the TLS files or the request log cannot be used.
    public init(configuration: LocalOrgConfiguration, database: OrgDatabase) throws {
        self.configuration = configuration
        if let pageSize = configuration.pageSize, pageSize < 1 {
            throw OrgError.configuration("the page size must be at least 1, not \(pageSize)")
        }
        try Self.checkCredentials(configuration)
        guard configuration.maxConnections >= 1 else {
            throw OrgError.configuration("the connection cap must be at least 1, not \(configuration.maxConnections)")
        }
        guard configuration.headerTimeout > .zero, configuration.idleTimeout > .zero else {
            throw OrgError.configuration("the header and idle timeouts must be longer than zero")
        }
        if let username = configuration.actingUser, database.schema.user(named: username) == nil {
            let declared = database.schema.users.map(\.username)
            throw OrgError.configuration(
                "the user '\(username)' is not declared in the org's schema file ("
                    + (declared.isEmpty ? "it declares no users" : "declared: \(declared.joined(separator: ", "))")
                    + "); add it under \"users\" or leave the option out to act as the org's own user"
            )
        }
        let identity = OrgIdentity(orgID: database.organizationID, userID: database.userID)
        let sessions = SessionStore(
            accessToken: configuration.accessToken,
            refreshToken: configuration.refreshToken,
            orgID: identity.orgID,
            timeToLive: configuration.tokenTTL,
            primaryUsername: configuration.actingUser.flatMap { database.schema.user(named: $0)?.username },
            now: database.configuration.now
        )
        let verifier = try configuration.jwtBearer.map(JWTAssertionVerifier.init(settings:))
        api = OrgAPI(
            database: database,
            sessions: sessions,
            usage: APIUsage(limit: configuration.apiRequestLimit),
            pageSizeOverride: configuration.pageSize,
            oauth: OAuthTokenEndpoint(
                sessions: sessions,
                verifier: verifier,
                clientID: configuration.clientID,
                clientSecret: configuration.clientSecret,
                identity: identity,
                restrictedUsernames: database.schema.users.map(\.username)
            ),
            identity: identity,
            bulk: BulkJobs(
                database: database,
                delay: configuration.bulkJobDelay,
                failureMessage: configuration.faults.bulkJobFailure
            )
        )
        faults = NIOLockedValueBox(FaultPlan(configuration: configuration.faults))
        log = try configuration.requestLogURL.map(RequestLog.init(url:))
        tlsConfiguration = try configuration.tls.map(Self.makeTLSConfiguration)
    }

    /// The access token requests must carry (configured or generated).
    public var accessToken: String { api.sessions.primaryAccessToken }

    /// Binds the port, serves requests while `body` runs, then shuts down gracefully.
    ///
    /// - Parameters:
    ///   - logger: receives the server's debug and trace messages (never tokens).
    ///   - body: runs once the server accepts connections, with its endpoint.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws, or the server's error when it cannot bind or fails.
    public func withRunningServer<Result: Sendable>(
        logger: Logger = Logger(label: "syncrun.local-org", factory: { _ in SwiftLogNoOpLogHandler() }),
        _ body: (LocalOrgEndpoint) async throws -> Result
    ) async throws -> Result {
        let (started, startedContinuation) = AsyncStream.makeStream(of: Int.self)
        let serverBuilder = try makeServerBuilder()
        let app = Application(
            responder: OrgResponder(
                api: api,
                faults: faults,
                log: log,
                maxBodySize: configuration.maxRequestBodySize,
                observer: configuration.requestObserver
            ),
            server: serverBuilder,
            configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port)),
            onServerRunning: { channel in
                startedContinuation.yield(channel.localAddress?.port ?? 0)
                startedContinuation.finish()
            },
            logger: logger
        )
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [app], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                // Finishing the stream when the server stops lets a failed bind surface below
                // instead of waiting forever for a start that never comes.
                defer { startedContinuation.finish() }
                try await group.run()
            }
            var events = started.makeAsyncIterator()
            guard let port = await events.next() else {
                try await tasks.waitForAll()
                throw OrgError.configuration("the local org stopped before it started serving on \(configuration.host)")
            }
            let endpoint = makeEndpoint(port: port)
            api.setBaseURL(endpoint.baseURL.absoluteString)
            do {
                let result = try await withPubSub { pubsubPort in
                    var served = endpoint
                    served.pubsubPort = pubsubPort
                    return try await body(served)
                }
                api.bulk.cancelAll()
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return result
            } catch {
                api.bulk.cancelAll()
                await group.triggerGracefulShutdown()
                try? await tasks.waitForAll()
                throw error
            }
        }
    }

    /// Refuses configured tokens and secrets that are empty or blank: such a value would make an
    /// empty credential valid.
    private static func checkCredentials(_ configuration: LocalOrgConfiguration) throws {
        for (value, name) in [
            (configuration.accessToken, "access token"), (configuration.refreshToken, "refresh token"),
            (configuration.clientSecret, "client secret"), (configuration.clientID, "client ID"),
        ] {
            if let value, SessionStore.isBlank(value) {
                throw OrgError.configuration(
                    "the \(name) is empty or blank, which would let anyone present it; give a real value or leave it out"
                )
            }
        }
    }

    /// HTTP/1.1 (inside TLS when configured) with the idle timeout, and the connection cap and
    /// header timeout of ``GuardedChannel``.
    private func makeServerBuilder() throws -> HTTPServerBuilder {
        let idleTimeout = TimeAmount(configuration.idleTimeout)
        let headerTimeout = TimeAmount(configuration.headerTimeout)
        let connections = ConnectionCounter(limit: configuration.maxConnections)
        let tlsConfiguration = tlsConfiguration
        return HTTPServerBuilder { responder in
            let http = HTTP1Channel(responder: responder, configuration: .init(idleTimeout: idleTimeout))
            if let tlsConfiguration {
                return GuardedChannel(
                    base: try TLSChannel(http, tlsConfiguration: tlsConfiguration),
                    connections: connections,
                    headerTimeout: headerTimeout,
                    secure: true
                )
            }
            return GuardedChannel(base: http, connections: connections, headerTimeout: headerTimeout, secure: false)
        }
    }

    private func makeEndpoint(port: Int) -> LocalOrgEndpoint {
        let scheme = tlsConfiguration == nil ? "http" : "https"
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        let url = URL(string: "\(scheme)://\(host):\(port)") ?? URL(fileURLWithPath: "/")
        return LocalOrgEndpoint(
            baseURL: url,
            port: port,
            accessToken: api.sessions.primaryAccessToken,
            refreshToken: api.sessions.refreshToken
        )
    }

    private static func makeTLSConfiguration(_ settings: TLSSettings) throws -> TLSConfiguration {
        do {
            let chain = try NIOSSLCertificate.fromPEMBytes(Array(settings.certificateChainPEM.utf8))
            guard !chain.isEmpty else { throw OrgError.configuration("the TLS certificate file holds no certificate") }
            let key = try NIOSSLPrivateKey(bytes: Array(settings.privateKeyPEM.utf8), format: .pem)
            return TLSConfiguration.makeServerConfiguration(
                certificateChain: chain.map { .certificate($0) },
                privateKey: .privateKey(key)
            )
        } catch let error as OrgError {
            throw error
        } catch {
            throw OrgError.configuration("the TLS certificate or key cannot be read as PEM: \(error)")
        }
    }
}
