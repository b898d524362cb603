/// Counters of one client's traffic, for the run summary.
public struct OrgClientStatistics: Sendable, Hashable {
    /// HTTP requests sent, retries included.
    public var requests: Int
    /// Requests that were repeated after a retryable failure.
    public var retries: Int
    /// Response body bytes received.
    public var bytesReceived: Int
    /// Request body bytes sent.
    public var bytesSent: Int
    /// The latest `Sforce-Limit-Info` figure the org reported, when it sent one.
    public var apiUsage: APIUsage?
    /// New access tokens obtained after a 401 (one per expiry, however many requests saw it).
    public var tokenRenewals: Int

    /// Creates counters; all zero by default.
    public init(
        requests: Int = 0,
        retries: Int = 0,
        bytesReceived: Int = 0,
        bytesSent: Int = 0,
        apiUsage: APIUsage? = nil,
        tokenRenewals: Int = 0
    ) {
        self.tokenRenewals = tokenRenewals
        self.requests = requests
        self.retries = retries
        self.bytesReceived = bytesReceived
        self.bytesSent = bytesSent
        self.apiUsage = apiUsage
    }
}
