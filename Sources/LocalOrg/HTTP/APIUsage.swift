import NIOConcurrencyHelpers

/// The org's API request counter, reported in `Sforce-Limit-Info` and `/limits`.
///
/// Every authenticated data request counts one call; a composite batch counts one per subrequest
/// (§5.1); the versions list and the OAuth endpoint count nothing.
struct APIUsage: Sendable {
    /// The daily allocation (`MAX`).
    let limit: Int
    private let used = NIOLockedValueBox(0)

    /// Creates a counter with `limit` calls available.
    init(limit: Int) {
        self.limit = limit
    }

    /// The calls used so far.
    var current: Int { used.withLockedValue { $0 } }

    /// The `Sforce-Limit-Info` header value, e.g. `api-usage=18/15000`.
    var headerValue: String { "api-usage=\(current)/\(limit)" }

    /// Counts `calls` more calls.
    ///
    /// - Throws: `OrgError` `REQUEST_LIMIT_EXCEEDED` (403), counting nothing, when they do not fit.
    func consume(_ calls: Int = 1) throws {
        try used.withLockedValue { used in
            guard used + calls <= limit else { throw OrgError.requestLimitExceeded }
            used += calls
        }
    }
}
