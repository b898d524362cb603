import Foundation

/// The most requests one run keeps in flight at once (`maxConcurrentRequests`), shared by
/// everything the run sends: every request takes a slot for as long as it is in flight, and a
/// request finding every slot taken waits for one to come free (first come, first served).
///
/// The limit can be lowered while requests are in flight (``setLimit(_:)``): slots given back
/// above the new limit are not handed out again, so the run settles at the new limit as its
/// requests are answered.
///
/// ```swift
/// let window = RequestWindow(limit: 4)
/// try await window.forEach(chunks) { chunk in
///     try await org.collection(.update(chunk), allOrNone: false)
/// } receive: { index, results in
///     outcomes[index] = results   // in the caller's task, as each answer arrives
/// }
/// ```
public final class RequestWindow: @unchecked Sendable {
    // Safe: `state` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var state: State

    private struct State {
        var limit: Int
        var inUse = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
        var firstWaiter = 0
    }

    /// A window of `limit` slots (at least 1).
    public init(limit: Int) {
        state = State(limit: max(1, limit))
    }

    /// The current limit.
    public var limit: Int { lock.withLock { state.limit } }

    /// Changes the limit (at least 1); a higher limit lets waiting requests go at once.
    public func setLimit(_ limit: Int) {
        let woken: [CheckedContinuation<Void, Never>] = lock.withLock {
            state.limit = max(1, limit)
            var woken: [CheckedContinuation<Void, Never>] = []
            while state.inUse < state.limit, let next = popWaiter() {
                state.inUse += 1
                woken.append(next)
            }
            return woken
        }
        for continuation in woken { continuation.resume() }
    }

    /// Takes a slot, waiting for one when all are taken. Not cancellable: every holder gives its
    /// slot back, so the wait ends.
    public func acquire() async {
        if lock.withLock({ () -> Bool in
            guard state.inUse < state.limit, state.firstWaiter == state.waiters.count else { return false }
            state.inUse += 1
            return true
        }) {
            return
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = lock.withLock { () -> Bool in
                if state.inUse < state.limit, state.firstWaiter == state.waiters.count {
                    state.inUse += 1
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Gives a slot back; the longest-waiting request gets it when the limit allows.
    public func release() {
        let next: CheckedContinuation<Void, Never>? = lock.withLock {
            if state.inUse <= state.limit, let waiter = popWaiter() { return waiter }
            state.inUse -= 1
            return nil
        }
        next?.resume()
    }

    /// Runs `body` holding a slot.
    public func run<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        await acquire()
        do {
            let result = try await body()
            release()
            return result
        } catch {
            release()
            throw error
        }
    }

    /// Runs `request` for every element of `items`, each holding a slot, and hands each answer to
    /// `receive` (with the element's index) in the calling task as it arrives, in whatever order
    /// the answers come. The slots are taken here, in the calling task, before each request starts:
    /// the elements of one call queue for the window in order, ahead of those of a later call, so
    /// when several batches share the window the oldest one's requests all go out first (it is
    /// answered, and written back, while the next one fills the window). At most ``limit``
    /// requests run at once; answers not yet handed to `receive` are at most `items.count`. The
    /// first error cancels the requests not yet answered, waits for them, and is thrown.
    ///
    /// - Parameters:
    ///   - items: What to send, in the order the requests start.
    ///   - request: The request of one element; runs in a child task.
    ///   - receive: Called in the calling task with each answer.
    public func forEach<Item: Sendable, Answer: Sendable>(
        _ items: [Item],
        _ request: @escaping @Sendable (Item) async throws -> Answer,
        receive: (Int, Answer) throws -> Void
    ) async throws {
        guard !items.isEmpty else { return }
        let failed = FailureFlag()
        try await withThrowingTaskGroup(of: (Int, Answer).self) { group in
            for (index, item) in items.enumerated() {
                await acquire()
                // After a failure nothing more is sent; the error is thrown below.
                guard !failed.isSet else {
                    release()
                    break
                }
                group.addTask { [self] in
                    defer { release() }
                    do {
                        return (index, try await request(item))
                    } catch {
                        failed.set()
                        throw error
                    }
                }
            }
            while let (index, answer) = try await group.next() { try receive(index, answer) }
        }
    }

    /// The first waiter, removed; `nil` when none waits. Called with `lock` held.
    private func popWaiter() -> CheckedContinuation<Void, Never>? {
        guard state.firstWaiter < state.waiters.count else { return nil }
        let waiter = state.waiters[state.firstWaiter]
        state.firstWaiter += 1
        if state.firstWaiter == state.waiters.count {
            state.waiters.removeAll(keepingCapacity: true)
            state.firstWaiter = 0
        }
        return waiter
    }
}

/// Set once by the first request of a ``RequestWindow/forEach(_:_:receive:)`` that fails.
private final class FailureFlag: @unchecked Sendable {
    // Safe: `value` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var value = false

    var isSet: Bool { lock.withLock { value } }

    func set() { lock.withLock { value = true } }
}
