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
        /// Called once when the org answers 401 to get a new access token (for example through
        /// ``OAuthClient/refreshAccessToken(_:)``); the request is then repeated once. With `nil`
        /// a 401 fails with ``OrgClientError/Code/authentication``.
        public var accessTokenRefresher: (@Sendable () async throws -> String)?

        /// Creates a configuration; see the type's documentation for the defaults.
        public init(
            endpoint: OrgEndpoint,
            requestTimeout: Duration = .seconds(120),
            connectTimeout: Duration = .seconds(10),
            retryPolicy: RetryPolicy = .default,
            maxResponseBytes: Int = 256 * 1024 * 1024,
            clock: any Clock<Duration> = ContinuousClock(),
            accessTokenRefresher: (@Sendable () async throws -> String)? = nil
        ) {
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
