/// Resends the records a write refused with `UNABLE_TO_LOCK_ROW`, after a backoff.
///
/// A real org refuses a record with `UNABLE_TO_LOCK_ROW` when another transaction holds a lock
/// it needs: the children of one parent written by parallel calls all lock their parent row. The
/// refusal is per record (the rest of the call is applied, `allOrNone` false) and nothing of the
/// refused record was written, so resending just those records is safe, creates included. The
/// waits follow the run's ``RetryPolicy`` (`min(maxDelay, baseDelay × 2^(n-1))` less jitter, at
/// most `maxAttempts` sends in all) and are slept on the injected clock, so tests do not wait.
///
/// Salesforce: "UNABLE_TO_LOCK_ROW — unable to obtain exclusive access to this record"
/// (Salesforce Developer Limits and Allocations Quick Reference, "Record locking"; the REST API
/// Developer Guide's status codes list it among per-record errors).
public struct RecordLockRetry: Sendable {
    /// How often and after how long.
    public var policy: RetryPolicy
    /// The clock the waits are slept on.
    public var clock: any Clock<Duration>
    /// A random number in `0..<1` for each wait's jitter.
    public var randomUnit: @Sendable () -> Double

    /// The error code of a per-record lock refusal.
    public static let lockErrorCode = "UNABLE_TO_LOCK_ROW"

    /// Creates a retry; the defaults are the client's default policy on the continuous clock.
    public init(
        policy: RetryPolicy = .default,
        clock: any Clock<Duration> = ContinuousClock(),
        randomUnit: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.policy = policy
        self.clock = clock
        self.randomUnit = randomUnit
    }

    /// Whether `errors` is a lock refusal (and nothing else), which a resend can fix.
    public static func isLockRefusal(_ errors: [OrgErrorDetail]) -> Bool {
        !errors.isEmpty && errors.allSatisfy { $0.errorCode == lockErrorCode }
    }

    /// Sends `items` with `send`, whose answers match the items by position (`nil` where none
    /// came); then, while some answers are lock refusals and attempts remain, waits and resends
    /// just those items. Returns the last answer of each item.
    ///
    /// - Parameters:
    ///   - items: The records of one call.
    ///   - send: One call with the given items.
    ///   - isLocked: Whether an answer is a lock refusal.
    /// - Throws: What `send` throws, or `CancellationError` when cancelled during a wait.
    public func send<Item: Sendable, Answer: Sendable>(
        _ items: [Item],
        _ send: ([Item]) async throws -> [Answer?],
        isLocked: (Answer) -> Bool
    ) async throws -> [Answer?] {
        var answers: [Answer?] = Array(repeating: nil, count: items.count)
        var pending = Array(items.indices)
        var attempt = 1
        while !pending.isEmpty {
            let sent = try await send(pending.map { items[$0] })
            var locked: [Int] = []
            for (position, index) in pending.enumerated() {
                let answer = position < sent.count ? sent[position] : nil
                answers[index] = answer
                if let answer, isLocked(answer) { locked.append(index) }
            }
            guard !locked.isEmpty, attempt < policy.maxAttempts else { break }
            try await clock.sleep(for: policy.delay(beforeRetry: attempt, randomUnit: randomUnit()))
            attempt += 1
            pending = locked
        }
        return answers
    }
}
