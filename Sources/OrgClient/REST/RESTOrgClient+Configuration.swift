extension RESTOrgClient {
    /// Settings of a ``RESTOrgClient``.
    ///
    /// | key | type | default |
    /// |---|---|---|
    /// | ``endpoint`` | ``OrgEndpoint`` | required |
    /// | ``requestTimeout`` | `Duration` | 120 s per attempt (Salesforce allows 10 min per call) |
    /// | ``connectTimeout`` | `Duration` | 10 s (clients made by ``withRESTOrgClient(configuration:logger:_:)``) |
    /// | ``retryPolicy`` | ``RetryPolicy`` | ``RetryPolicy/default`` |
    /// | ``maxResponseBytes`` | `Int` | 256 MiB |
    /// | ``clock`` | `any Clock<Duration>` | `ContinuousClock()`; backoff sleeps run on it |
    /// | ``accessTokenRefresher`` | `(@Sendable () async throws -> String)?` | `nil` |
    /// | ``authenticationAdvice`` | ``OrgAuthenticationAdvice``? | `nil` |
    /// | ``trustedCertificatesFile`` | `String?` | `nil`: the system's trust roots only |
    /// | ``proxy`` | ``ProxySettings``? | `nil`: every request goes direct |
    public struct Configuration: Sendable {
        /// The org's URL, token and API version.
        public var endpoint: OrgEndpoint
        /// How long one attempt may take, response body included.
        public var requestTimeout: Duration
        /// How long establishing a connection may take.
        public var connectTimeout: Duration
        /// When failed requests are retried.
        public var retryPolicy: RetryPolicy
        /// The largest response body accepted; larger ones fail with
        /// ``OrgClientError/Code/invalidResponse``.
        public var maxResponseBytes: Int
        /// The clock backoff delays sleep on; tests pass one that does not wait.
        public var clock: any Clock<Duration>
        /// Called when the org answers 401 to get a new access token (for example through
        /// ``OAuthClient/refreshAccessToken(_:)``); the request is then repeated once. Concurrent
        /// requests that get a 401 for the same token share one call (single flight), and a request
        /// whose token was already replaced retries with the new one without calling it. With
        /// `nil` a 401 fails with ``OrgClientError/Code/authentication``.
        public var accessTokenRefresher: (@Sendable () async throws -> String)?
        /// The org's name and the command that gives it a working login, for the message of a 401
        /// that a new token did not cure (or that no refresher can).
        public var authenticationAdvice: OrgAuthenticationAdvice?
        /// A PEM file of extra certificate authorities to trust (a corporate proxy's, or the one
        /// that signed the local org's `--tls-cert`), on top of the system's.
        public var trustedCertificatesFile: String?
        /// The proxies requests go through (clients made by
        /// ``withRESTOrgClient(configuration:logger:_:)``), chosen per request URL, so the login
        /// host and the instance may differ in `NO_PROXY`.
        public var proxy: ProxySettings?

        /// Creates a configuration; see the type's documentation for the defaults.
        public init(
            endpoint: OrgEndpoint,
            requestTimeout: Duration = .seconds(120),
            connectTimeout: Duration = .seconds(10),
            retryPolicy: RetryPolicy = .default,
            maxResponseBytes: Int = 256 * 1024 * 1024,
            clock: any Clock<Duration> = ContinuousClock(),
            accessTokenRefresher: (@Sendable () async throws -> String)? = nil,
            authenticationAdvice: OrgAuthenticationAdvice? = nil,
            trustedCertificatesFile: String? = nil,
            proxy: ProxySettings? = nil
        ) {
            self.proxy = proxy
            self.authenticationAdvice = authenticationAdvice
            self.trustedCertificatesFile = trustedCertificatesFile
            self.endpoint = endpoint
            self.requestTimeout = requestTimeout
            self.connectTimeout = connectTimeout
            self.retryPolicy = retryPolicy
            self.maxResponseBytes = maxResponseBytes
            self.clock = clock
            self.accessTokenRefresher = accessTokenRefresher
        }
    }
}
