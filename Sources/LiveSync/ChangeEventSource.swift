/// Where a subscription starts in its topic (the Pub/Sub API's `ReplayPreset`).
public enum ReplayStart: Sendable, Hashable {
    /// With the next event published (`LATEST`).
    case latest
    /// With the oldest event the org still holds (`EARLIEST`).
    case earliest
    /// After the event with this replay id (`CUSTOM`).
    case after([UInt8])
}

/// What one subscription delivers to its watcher.
public enum SubscriptionDelivery: Sendable, Hashable {
    /// Events, in topic order.
    case events([ChangeEvent])
    /// The org has sent nothing for a while and says so (a keepalive), with the newest replay id of
    /// the topic.
    case keepalive(latestReplayID: [UInt8])
}

/// Flow control of one subscription: the watcher says how many events it has consumed, the
/// subscription asks the org for as many more (`num_requested` of a new `FetchRequest`), so the
/// org never sends more than the watcher has room for.
public final class SubscriptionFlow: Sendable {
    /// The events asked for when subscribing, and kept in flight.
    public let window: Int
    /// The consumed counts, for the subscription's request writer.
    public let credits: AsyncStream<Int>
    private let continuation: AsyncStream<Int>.Continuation

    /// Creates the flow of one subscription (`window` at most 100, the published per-request cap).
    public init(window: Int = 100) {
        self.window = max(1, min(window, 100))
        (credits, continuation) = AsyncStream.makeStream(of: Int.self)
    }

    /// `count` events were consumed: ask for as many more.
    public func consumed(_ count: Int) {
        if count > 0 { continuation.yield(count) }
    }

    /// No more requests (the subscription ends).
    public func finish() { continuation.finish() }
}

/// A source of change events: the Pub/Sub API (``PubSubConnection``), or a script in tests.
public protocol ChangeEventSource: Sendable {
    /// Whether `topic` exists on the org (`GetTopic`); `false` when it is not found (the object is
    /// not selected for Change Data Capture).
    ///
    /// - Throws: ``LiveSyncError`` for anything but not found.
    func topicExists(_ topic: String) async throws -> Bool

    /// Subscribes to `topic` from `start` and hands each delivery to `deliver`, in order, until the
    /// task is cancelled or the stream fails. Requests follow `flow`.
    ///
    /// - Throws: ``LiveSyncError``: ``LiveSyncError/Code/topicNotFound``,
    ///   ``LiveSyncError/Code/replayIDUnavailable``, ``LiveSyncError/Code/reconnect`` (the token was
    ///   renewed), ``LiveSyncError/Code/authentication``, ``LiveSyncError/Code/unavailable``.
    func subscribe(
        topic: String,
        start: ReplayStart,
        flow: SubscriptionFlow,
        deliver: @escaping @Sendable (SubscriptionDelivery) async -> Void
    ) async throws
}
