import OrgClient

/// How the engine waits for a Bulk API 2.0 job (a sync down's query job, a sync up's ingest
/// jobs): it asks for the job's state, then waits ``firstInterval``, asking again after each wait
/// and multiplying the wait by ``multiplier`` up to ``maximumInterval``, until the job ends or
/// ``deadline`` has passed since the first question. The waits run on the engine's clock
/// (``SyncEngineConfiguration/clock``), so tests pass a clock that does not wait.
///
/// | key | default |
/// |---|---|
/// | ``firstInterval`` | 50 ms |
/// | ``multiplier`` | 2 |
/// | ``maximumInterval`` | 2 s |
/// | ``deadline`` | 1 hour |
public struct BulkJobPolling: Sendable, Hashable {
    /// The first wait between two questions.
    public var firstInterval: Duration
    /// What each wait is multiplied by for the next one.
    public var multiplier: Int
    /// The longest wait between two questions.
    public var maximumInterval: Duration
    /// How long a job may take, from the first question; past it, the run fails with an error
    /// naming the job (which keeps running on the org).
    public var deadline: Duration

    /// Creates a policy; see the type's documentation for the defaults.
    public init(
        firstInterval: Duration = .milliseconds(50),
        multiplier: Int = 2,
        maximumInterval: Duration = .seconds(2),
        deadline: Duration = .seconds(3600)
    ) {
        self.firstInterval = firstInterval
        self.multiplier = max(1, multiplier)
        self.maximumInterval = maximumInterval
        self.deadline = deadline
    }

    /// The wait after `interval`: multiplied, and capped at ``maximumInterval``.
    func interval(after interval: Duration) -> Duration {
        min(interval * multiplier, maximumInterval)
    }
}

/// The one loop that waits for a Bulk API 2.0 job to end, for query and ingest jobs alike.
struct BulkJobPoller: Sendable {
    /// The waits and the deadline.
    var policy: BulkJobPolling
    /// The clock the waits run on.
    var clock: any Clock<Duration>

    /// What a job is, for the deadline's message.
    enum JobKind: String, Sendable {
        case query, ingest
    }

    /// Asks for the job's state until it is terminal (`JobComplete`, `Failed`, `Aborted`) and
    /// returns it; the caller decides what a failed or aborted job means.
    ///
    /// - Parameters:
    ///   - jobID: The job, for the deadline's message.
    ///   - kind: Query or ingest, for the message.
    ///   - syncName: The sync, for the message.
    ///   - known: The job's state when the caller already has it (an ingest job just closed):
    ///     the loop waits before it first asks. `nil` to ask at once.
    ///   - poll: Asks the org for the job's state.
    /// - Throws: `SyncEngineError` `.server` naming the job when ``BulkJobPolling/deadline``
    ///   passes; the errors of `poll`; `CancellationError`.
    func waitUntilEnded(
        jobID: String,
        kind: JobKind,
        syncName: String,
        known: BulkJobInfo? = nil,
        poll: () async throws -> BulkJobInfo
    ) async throws -> BulkJobInfo {
        try await waitUntilEnded(on: clock, jobID: jobID, kind: kind, syncName: syncName, known: known, poll: poll)
    }

    private func waitUntilEnded(
        on clock: some Clock<Duration>,
        jobID: String,
        kind: JobKind,
        syncName: String,
        known: BulkJobInfo?,
        poll: () async throws -> BulkJobInfo
    ) async throws -> BulkJobInfo {
        let start = clock.now
        var info: BulkJobInfo
        if let known {
            info = known
        } else {
            info = try await poll()
        }
        var interval = policy.firstInterval
        while info.state?.isTerminal != true {
            let elapsed = start.duration(to: clock.now)
            guard elapsed < policy.deadline else {
                throw SyncEngineError.bulkJobDeadline(
                    syncName,
                    jobID: jobID,
                    kind: kind.rawValue,
                    state: info.stateText,
                    deadline: policy.deadline
                )
            }
            try await clock.sleep(for: min(interval, policy.deadline - elapsed))
            interval = policy.interval(after: interval)
            info = try await poll()
        }
        return info
    }
}
