/// What the fault injector decided for one request.
enum FaultAction: Equatable, Sendable {
    /// Serve the request normally.
    case serve
    /// Answer with this server error (500 or 503) and the matching Salesforce error body.
    case fail(status: Int)
    /// Close the connection without answering.
    case dropConnection
    /// Serve the request (its writes commit), then close the connection without the response.
    case serveThenDropConnection
}

/// The fault injector's state machine: counts requests and draws failures.
///
/// A plain struct whose `nextAction()` returns what to do with the next request; the server holds it
/// behind a lock and performs the action. Latency is not decided here: it applies to every request.
struct FaultPlan: Sendable {
    /// The configuration this plan follows.
    let configuration: FaultConfiguration
    /// The number of requests seen so far.
    private(set) var requestCount = 0
    private var generator: SeededRandomNumberGenerator

    /// Creates a plan from its configuration, seeding the generator from `configuration.seed`.
    init(configuration: FaultConfiguration) {
        self.configuration = configuration
        generator = configuration.seed.map(SeededRandomNumberGenerator.init(seed:)) ?? SeededRandomNumberGenerator()
    }

    /// Decides the fate of the next request.
    mutating func nextAction() -> FaultAction {
        requestCount += 1
        if let failAfter = configuration.failAfter, requestCount > failAfter {
            return .dropConnection
        }
        if configuration.loseResponses.contains(requestCount) { return .serveThenDropConnection }
        if configuration.dropRate > 0 {
            let draw = Double(generator.next() >> 11) / Double(1 << 53)
            if draw < configuration.dropRate {
                return generator.next() & 1 == 0 ? .dropConnection : .serveThenDropConnection
            }
        }
        guard configuration.failureRate > 0 else { return .serve }
        let draw = Double(generator.next() >> 11) / Double(1 << 53)
        guard draw < configuration.failureRate else { return .serve }
        return .fail(status: generator.next() & 1 == 0 ? 500 : 503)
    }
}
