/// When and how often a failed request is repeated.
///
/// Retried: HTTP 502/503/504 for every request; HTTP 500 and dropped connections or timeouts
/// after the request went out, for idempotent requests only (GET, PATCH, DELETE, upsert by
/// external ID); connections that failed before the request went out, for every request; and
/// `403 REQUEST_LIMIT_EXCEEDED` when ``retriesRequestLimit`` is on. Never any other 4xx.
///
/// The delay before retry *n* (1-based) is `min(maxDelay, baseDelay × 2^(n-1))`, of which a random
/// part of up to ``jitter`` is taken off so that clients failing together do not retry together.
///
/// | key | type | default |
/// |---|---|---|
/// | ``maxAttempts`` | `Int` | 4 (the first try and up to 3 retries) |
/// | ``baseDelay`` | `Duration` | 250 ms |
/// | ``maxDelay`` | `Duration` | 20 s |
/// | ``jitter`` | `Double` in 0…1 | 0.5 |
/// | ``retriesRequestLimit`` | `Bool` | `true` |
public struct RetryPolicy: Sendable, Hashable {
    /// The most attempts one request gets, the first included; 1 disables retries.
    public var maxAttempts: Int
    /// The delay before the first retry, before jitter.
    public var baseDelay: Duration
    /// The cap on any one delay, before jitter.
    public var maxDelay: Duration
    /// The fraction of each delay that is random: 0 waits the full delay, 1 waits anywhere
    /// between zero and the full delay.
    public var jitter: Double
    /// Whether `403 REQUEST_LIMIT_EXCEEDED` is retried. It clears when concurrent long-running
    /// requests finish; a used-up daily allocation does not clear within the retries.
    public var retriesRequestLimit: Bool

    /// Creates a policy; see the type's documentation for the defaults.
    public init(
        maxAttempts: Int = 4,
        baseDelay: Duration = .milliseconds(250),
        maxDelay: Duration = .seconds(20),
        jitter: Double = 0.5,
        retriesRequestLimit: Bool = true
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = max(.zero, baseDelay)
        self.maxDelay = max(.zero, maxDelay)
        self.jitter = min(1, max(0, jitter))
        self.retriesRequestLimit = retriesRequestLimit
    }

    /// The default policy.
    public static let `default` = RetryPolicy()

    /// A policy that never retries.
    public static let never = RetryPolicy(maxAttempts: 1)

    /// The delay before retry `retry` (1 for the first retry).
    ///
    /// - Parameters:
    ///   - retry: The 1-based number of the retry about to be made.
    ///   - randomUnit: A random number in `0..<1` that picks the jitter.
    /// - Returns: The delay to sleep.
    public func delay(beforeRetry retry: Int, randomUnit: Double) -> Duration {
        var delay = baseDelay
        var doublings = max(0, retry - 1)
        while doublings > 0, delay < maxDelay {
            delay *= 2
            doublings -= 1
        }
        delay = min(delay, maxDelay)
        let unit = min(max(randomUnit, 0), 1)
        return delay * (1 - jitter * unit)
    }
}
