import Foundation

/// A clock whose `sleep` returns at once and records what was asked, so backoff is tested
/// without waiting.
public final class RecordingClock: Clock, @unchecked Sendable {
    // Safe: `current` and `recorded` are only touched while `lock` is held.
    public struct Instant: InstantProtocol {
        public var offset: Duration
        public init(offset: Duration) { self.offset = offset }
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    /// A clock at offset zero that has slept nowhere yet.
    public init() {}

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var recorded: [Duration] = []

    public var now: Instant { lock.withLock { current } }
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// The delays slept so far.
    public var sleeps: [Duration] { lock.withLock { recorded } }

    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        lock.withLock {
            recorded.append(current.duration(to: deadline))
            if current < deadline { current = deadline }
        }
    }
}
