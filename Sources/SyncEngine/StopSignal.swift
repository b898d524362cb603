import Foundation

/// A request to stop, shared between whoever asks (a signal handler, a test) and the runs that
/// check it between pages (sync-semantics §10.2).
///
/// Runs never stop mid-page: the page in flight is written with its state, then the run ends
/// `STOPPED`, so the store stays consistent.
public final class StopSignal: Sendable {
    // A lock around one Bool: `NSLock` is available on every platform the package builds on.
    private let lock = NSLock()
    private nonisolated(unsafe) var requested = false

    /// Creates a signal that has not been raised.
    public init() {}

    /// Asks every run that checks this signal to stop at its next checkpoint.
    public func requestStop() {
        lock.withLock { requested = true }
    }

    /// Whether a stop was requested.
    public var isStopRequested: Bool {
        lock.withLock { requested }
    }
}
