/// Decides, after each attempt of one request, whether to retry and after how long.
///
/// A plain value with no I/O: the executor reports each attempt's outcome and performs the
/// returned action (sleep then resend, or throw). One instance serves one logical request.
struct RetryStateMachine: Sendable {
    /// How an attempt ended, when it did not succeed.
    enum Outcome: Sendable, Hashable {
        /// The org answered with this failing status and, when it sent one, error code.
        case response(status: Int, errorCode: String?)
        /// The connection could not be made; the request never left.
        case connectFailed
        /// The connection dropped or timed out after the request may have been sent.
        case responseLost
    }

    /// What to do next.
    enum Action: Sendable, Hashable {
        /// Sleep this long, then send the request again.
        case retry(after: Duration)
        /// Stop and report the last outcome.
        case fail(Failure)
    }

    /// Why the machine stopped.
    enum Failure: Sendable, Hashable {
        /// The outcome is not one that a retry can fix (a 4xx, say).
        case notRetryable
        /// Retryable, but ``RetryPolicy/maxAttempts`` attempts were made.
        case attemptsExhausted
        /// The response of a non-idempotent request was lost; resending could apply it twice.
        case unsafeToRetry
    }

    let policy: RetryPolicy
    let isIdempotent: Bool
    /// The number of the attempt that just ended (1 after the first try).
    private(set) var attempt = 1

    init(policy: RetryPolicy, isIdempotent: Bool) {
        self.policy = policy
        self.isIdempotent = isIdempotent
    }

    /// The number of retries made so far.
    var retries: Int { attempt - 1 }

    /// Records a failed attempt and returns what to do.
    ///
    /// - Parameters:
    ///   - outcome: How the attempt ended.
    ///   - randomUnit: A random number in `0..<1` for the jitter.
    mutating func next(after outcome: Outcome, randomUnit: Double) -> Action {
        switch classify(outcome) {
        case .some(let failure):
            return .fail(failure)
        case .none:
            guard attempt < policy.maxAttempts else { return .fail(.attemptsExhausted) }
            let delay = policy.delay(beforeRetry: attempt, randomUnit: randomUnit)
            attempt += 1
            return .retry(after: delay)
        }
    }

    /// `nil` when the outcome is retryable, else why not.
    private func classify(_ outcome: Outcome) -> Failure? {
        switch outcome {
        case .connectFailed:
            return nil
        case .responseLost:
            return isIdempotent ? nil : .unsafeToRetry
        case .response(let status, let errorCode):
            switch status {
            case 502, 503, 504:
                // Gateway and availability errors: the org did not process the request.
                return nil
            case 500...599:
                // A 500 may come after a partial commit; only idempotent requests are safe.
                return isIdempotent ? nil : .notRetryable
            case 403 where errorCode == "REQUEST_LIMIT_EXCEEDED":
                return policy.retriesRequestLimit ? nil : .notRetryable
            default:
                return .notRetryable
            }
        }
    }
}
