import Foundation

/// A request to stop watching (SIGINT / SIGTERM in the CLI): every sync finishes the batch in
/// hand, then the watch returns. Waiting syncs are woken, not polled.
public final class WatchStop: Sendable {
    private struct State {
        var requested = false
        var waiters: [Wake] = []
    }
    private let lock = NSLock()
    private nonisolated(unsafe) var state = State()

    /// Creates a signal that has not been raised.
    public init() {}

    /// Asks the watch to stop.
    public func requestStop() {
        let waiters = lock.withLock {
            state.requested = true
            return state.waiters
        }
        for waiter in waiters { waiter.signal() }
    }

    /// Whether a stop was requested.
    public var isStopRequested: Bool { lock.withLock { state.requested } }

    /// Wakes `wake` when a stop is requested (at once when it already was).
    func register(_ wake: Wake) {
        let requested = lock.withLock {
            state.waiters.append(wake)
            return state.requested
        }
        if requested { wake.signal() }
    }
}

/// A wake-up for one waiting task: signals are kept (at most one pending), so none is lost
/// between a check and a wait.
final class Wake: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    func signal() { continuation.yield() }

    /// Waits for the next signal (returns at once when one is pending).
    func wait() async {
        for await _ in stream { return }
    }
}

/// What a subscription delivered and the watcher has not consumed yet, and how the subscription
/// ended, if it did.
final class DeliveryBuffer: Sendable {
    private struct State {
        var deliveries: [SubscriptionDelivery] = []
        var ended = false
        var failure: LiveSyncError?
    }
    private let lock = NSLock()
    private nonisolated(unsafe) var state = State()
    let wake: Wake

    init(wake: Wake) { self.wake = wake }

    func append(_ delivery: SubscriptionDelivery) {
        lock.withLock { state.deliveries.append(delivery) }
        wake.signal()
    }

    func end(_ failure: LiveSyncError?) {
        lock.withLock {
            state.ended = true
            state.failure = failure
        }
        wake.signal()
    }

    /// The deliveries so far (emptied), and the end of the subscription when it ended.
    func take() -> (deliveries: [SubscriptionDelivery], ended: Bool, failure: LiveSyncError?) {
        lock.withLock {
            let taken = state.deliveries
            state.deliveries = []
            return (taken, state.ended, state.failure)
        }
    }

    var hasEvents: Bool {
        lock.withLock {
            state.deliveries.contains { if case .events = $0 { true } else { false } }
        }
    }
}
