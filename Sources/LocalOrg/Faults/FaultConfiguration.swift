/// Faults the local org injects into its responses, for reliability tests.
///
/// Keys (all optional):
/// - `failureRate` (`Double`, default `0`): the probability, between 0 and 1, that a request is
///   answered with a random `500 UNKNOWN_EXCEPTION` or `503 SERVER_UNAVAILABLE` instead of being served.
/// - `seed` (`UInt64?`, default `nil`): seeds the random draws so a run is reproducible; `nil` seeds
///   from the system.
/// - `latency` (`Duration`, default `.zero`): added before every response.
/// - `failAfter` (`Int?`, default `nil`): serves this many requests, then closes the connection of
///   every later request without sending a response (a crashed server, as the client sees it).
/// - `loseResponses` (`Set<Int>`, default empty): the numbers (1-based, counting every request the
///   server receives) of requests that are served — their writes commit — after which the
///   connection is closed without the response (a response lost on the way back, as after a
///   crash of the client or a network cut).
/// - `dropRate` (`Double`, default `0`): the probability, between 0 and 1, that a request's connection
///   is closed without a response — half of the time before the request is served, half of the
///   time after it was served (its writes commit, the response is lost). Drawn from the same seeded
///   generator as `failureRate`, before it.
/// - `bulkJobFailure` (`String?`, default `nil`): every Bulk API 2.0 job ends `Failed` with this
///   `errorMessage` instead of completing.
public struct FaultConfiguration: Sendable, Equatable {
    /// The probability that a request fails with a 500 or 503.
    public var failureRate: Double
    /// The seed of the failure draws; `nil` for a random seed.
    public var seed: UInt64?
    /// The delay added before every response.
    public var latency: Duration
    /// The number of requests served before every later connection is dropped.
    public var failAfter: Int?
    /// The numbers of the requests served whose responses are then lost.
    public var loseResponses: Set<Int>
    /// The probability that a request's connection is dropped (before or after serving it).
    public var dropRate: Double
    /// The `errorMessage` every Bulk job fails with, or `nil` to let jobs complete.
    public var bulkJobFailure: String? = nil

    /// Creates a fault configuration; the defaults inject nothing.
    public init(
        failureRate: Double = 0,
        seed: UInt64? = nil,
        latency: Duration = .zero,
        failAfter: Int? = nil,
        loseResponses: Set<Int> = [],
        dropRate: Double = 0
    ) {
        self.dropRate = dropRate
        self.failureRate = failureRate
        self.seed = seed
        self.latency = latency
        self.failAfter = failAfter
        self.loseResponses = loseResponses
    }

    /// No faults at all.
    public static let none = FaultConfiguration()

    /// Whether any fault is configured.
    public var isActive: Bool {
        failureRate > 0 || latency > .zero || failAfter != nil || !loseResponses.isEmpty || dropRate > 0
            || bulkJobFailure != nil
    }
}
