import Foundation

/// Settings of a ``LocalOrgServer``.
///
/// Keys, with their types and defaults:
/// - `host` (`String`, `"127.0.0.1"`): the address to bind; loopback only unless changed.
/// - `port` (`Int`, `0`): the TCP port; `0` picks a free one (read it from the running server).
/// - `accessToken` (`String?`, `nil`): the bearer token data requests must carry; generated when `nil`.
/// - `refreshToken` (`String?`, `nil`): the refresh token the `refresh_token` grant accepts;
///   generated when `nil`. An empty or blank token (access or refresh) is refused at start.
/// - `clientID` (`String?`, `nil`): the `client_id` the refresh and client-credentials grants require;
///   `nil` accepts any.
/// - `clientSecret` (`String?`, `nil`): the `client_secret` the client-credentials grant requires;
///   `nil` turns that grant off (`400 invalid_client`). A blank secret is refused at start.
/// - `tokenTTL` (`Duration?`, `nil`): how long each access token works (the configured one included,
///   from start-up); after that, requests carrying it get 401 `INVALID_SESSION_ID`. `nil`: until
///   the server stops. Measured on the database's clock (`OrgDatabase.Configuration.now`).
/// - `pageSize` (`Int?`, `nil`): forces the query page size, overriding `Sforce-Query-Options`,
///   so tests can page through small result sets (the real API never goes below 200).
/// - `apiRequestLimit` (`Int`, `100_000`): the daily allocation reported as `MAX` in
///   `Sforce-Limit-Info`; once used up, data requests get `403 REQUEST_LIMIT_EXCEEDED`.
/// - `faults` (``FaultConfiguration``, `.none`): injected failures, latency and dropped connections.
/// - `requestLogURL` (`URL?`, `nil`): a file that receives one JSON line per request.
/// - `jwtBearer` (``JWTBearerSettings``?, `nil`): enables the JWT bearer grant.
/// - `tls` (``TLSSettings``?, `nil`): serve HTTPS with this certificate and key instead of HTTP.
/// - `maxRequestBodySize` (`Int`, 32 MiB): larger request bodies get `413`.
/// - `requestObserver` (closure, `nil`): called with the method and target (path and query) of
///   every request before it is served, so a test can act at a known point of a client's run.
/// - `bulkJobDelay` (`Duration`, 50 ms): how long a Bulk API 2.0 job waits before each state change
///   (`UploadComplete` → `InProgress` → `JobComplete`), so clients see every state.
/// - `headerTimeout` (`Duration`, 30 s): a connection that has started a request but not finished
///   its request line and headers within this time is closed (slow or stalled clients).
/// - `idleTimeout` (`Duration`, 120 s): a connection with no request in progress and no traffic for
///   this long is closed.
/// - `actingUser` (`String?`, `nil`): the username of a restricted user the schema file declares
///   (``OrgUser``); the start-up access token and the tokens the refresh and client-credentials
///   grants issue act as that user (JWT bearer tokens act as the user their `sub` names, when
///   declared). `nil`: they act as the org's all-powerful user. An undeclared name is refused at start.
/// - `pubsubPort` (`Int?`, `0`): the Pub/Sub API's port (gRPC over HTTP/2; change events); `0` picks a
///   free one, `nil` serves none. `pubsubKeepalive` (`Duration`, 270 s): the keepalive interval.
/// - `maxConnections` (`Int`, 256): open connections past this number are answered `503` (HTTP) or
///   closed at once (HTTPS) instead of being served, so a flood cannot exhaust file descriptors.
public struct LocalOrgConfiguration: Sendable {
    /// The address to bind.
    public var host: String
    /// The port to bind; `0` for a free one.
    public var port: Int
    /// The access token; generated when `nil`.
    public var accessToken: String?
    /// The refresh token; generated when `nil`.
    public var refreshToken: String?
    /// The client ID the refresh grant requires, or `nil` for any.
    public var clientID: String?
    /// The client secret the client-credentials grant requires, or `nil` to refuse that grant.
    public var clientSecret: String?
    /// How long an access token works, or `nil` for as long as the server runs.
    public var tokenTTL: Duration?
    /// A forced query page size, or `nil` to honour `Sforce-Query-Options` (default 2000).
    public var pageSize: Int?
    /// The daily API request allocation.
    public var apiRequestLimit: Int
    /// Injected faults.
    public var faults: FaultConfiguration
    /// Where to append the request log, or `nil` for none.
    public var requestLogURL: URL?
    /// JWT bearer grant settings, or `nil` to refuse that grant.
    public var jwtBearer: JWTBearerSettings?
    /// TLS settings, or `nil` to serve plain HTTP.
    public var tls: TLSSettings?
    /// The largest accepted request body, in bytes.
    public var maxRequestBodySize: Int
    /// Called before each request is served.
    public var requestObserver: (@Sendable (_ method: String, _ target: String) -> Void)?
    /// The wait before each state change of a Bulk job.
    public var bulkJobDelay: Duration = .milliseconds(50)
    /// The longest a started request may take to send its request line and headers.
    public var headerTimeout: Duration = .seconds(30)
    /// The longest a connection may stay open with no request in progress.
    public var idleTimeout: Duration = .seconds(120)
    /// The most connections served at once.
    public var maxConnections = 256
    /// The restricted user the start-up and grant tokens act as, or `nil` for the org's own user.
    public var actingUser: String?
    /// The Pub/Sub API's port (`0`: a free one; `nil`: not served).
    public var pubsubPort: Int? = 0
    /// How long a Pub/Sub subscription with nothing to send waits before an empty keepalive
    /// response (a real org: within 270 s).
    public var pubsubKeepalive: Duration = .seconds(270)

    /// Creates a configuration; every argument has the default documented on the type.
    public init(
        host: String = "127.0.0.1",
        port: Int = 0,
        accessToken: String? = nil,
        refreshToken: String? = nil,
        clientID: String? = nil,
        pageSize: Int? = nil,
        apiRequestLimit: Int = 100_000,
        faults: FaultConfiguration = .none,
        requestLogURL: URL? = nil,
        jwtBearer: JWTBearerSettings? = nil,
        tls: TLSSettings? = nil,
        maxRequestBodySize: Int = 32 * 1024 * 1024,
        requestObserver: (@Sendable (_ method: String, _ target: String) -> Void)? = nil,
        clientSecret: String? = nil,
        tokenTTL: Duration? = nil
    ) {
        self.clientSecret = clientSecret
        self.tokenTTL = tokenTTL
        self.requestObserver = requestObserver
        self.host = host
        self.port = port
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.clientID = clientID
        self.pageSize = pageSize
        self.apiRequestLimit = apiRequestLimit
        self.faults = faults
        self.requestLogURL = requestLogURL
        self.jwtBearer = jwtBearer
        self.tls = tls
        self.maxRequestBodySize = maxRequestBodySize
    }
}

/// The certificate and key of an HTTPS local org.
public struct TLSSettings: Sendable, Equatable {
    /// The PEM text of the server certificate (optionally followed by its chain).
    public var certificateChainPEM: String
    /// The PEM text of the certificate's private key.
    public var privateKeyPEM: String

    /// Creates TLS settings from PEM text.
    public init(certificateChainPEM: String, privateKeyPEM: String) {
        self.certificateChainPEM = certificateChainPEM
        self.privateKeyPEM = privateKeyPEM
    }
}
