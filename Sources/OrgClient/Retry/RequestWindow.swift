import Foundation

/// The most requests one run keeps in flight at once (`maxConcurrentRequests`), shared by
/// everything the run sends: every request takes a slot for as long as it is in flight, and a
/// request finding every slot taken waits for one to come free.
///
/// Slots go out in queue order, and a ``forEach(_:_:receive:)`` queues all its elements at once
/// when it starts: when several batches share the window, the oldest one's requests all start
/// before the next one's, so it is answered (and can be written back) while the next one keeps
/// the window full. A plain ``run(aheadOfQueue:_:)`` or ``acquire()`` queues behind everything
/// queued before it; a request on a run's critical path (reading back the oldest batch's dates
/// before it is written back) passes the queue with `aheadOfQueue`, and takes the next free slot.
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

    /// Each request holds a ticket (a place in the queue); slots are handed out in ticket order.
    private struct State {
        var limit: Int
        var inUse = 0
        /// The next ticket to hand out.
        var nextTicket = 0
        /// The ticket whose turn it is.
        var turn = 0
        /// Tickets waiting for a slot.
        var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
        /// Tickets given up (a loop that stopped early): their turn passes at once.
        var abandoned: Set<Int> = []
        /// Requests passing the queue, first come first served.
        var urgent: [CheckedContinuation<Void, Never>] = []

        /// Gives slots to the waiting tickets whose turn it is; returns them to resume.
        mutating func grant() -> [CheckedContinuation<Void, Never>] {
            var woken: [CheckedContinuation<Void, Never>] = []
            while true {
                if inUse < limit, !urgent.isEmpty {
                    inUse += 1
                    woken.append(urgent.removeFirst())
                } else if abandoned.remove(turn) != nil {
                    turn += 1
                } else if inUse < limit, let next = waiting.removeValue(forKey: turn) {
                    inUse += 1
                    turn += 1
                    woken.append(next)
                } else {
                    return woken
                }
            }
        }
    }

    /// A window of `limit` slots (at least 1).
    public init(limit: Int) {
        state = State(limit: max(1, limit))
    }

    /// The current limit.
    public var limit: Int { lock.withLock { state.limit } }

    /// Requests waiting to pass the queue (``run(aheadOfQueue:_:)``), for tests that order them.
    var waitingAheadOfQueue: Int { lock.withLock { state.urgent.count } }

    /// Changes the limit (at least 1); a higher limit lets waiting requests go at once.
    public func setLimit(_ limit: Int) {
        update { $0.limit = max(1, limit) }
    }

    /// Takes a slot, waiting behind every request queued before. Not cancellable: every holder
    /// gives its slot back, so the wait ends.
    public func acquire() async {
        await acquire(ticket: reserve(1).lowerBound)
    }

    /// Gives a slot back; the next ticket in turn gets it when the limit allows.
    public func release() {
        update { $0.inUse -= 1 }
    }

    /// Runs `body` holding a slot; with `aheadOfQueue`, the next slot free, before every request
    /// queued.
    public func run<T: Sendable>(aheadOfQueue: Bool = false, _ body: () async throws -> T) async throws -> T {
        if aheadOfQueue {
            await wait { state, continuation in state.urgent.append(continuation) }
        } else {
            await acquire()
        }
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
    /// `receive` (with the element's index) in the calling task, in whatever order the answers
    /// come: those in before the last element started when it has, the others as they arrive. The
    /// elements take their places in the queue together, when the call starts, and their slots in
    /// the calling task, so at most ``limit`` requests run at once and
    /// answers not yet handed to `receive` are at most `items.count`. The first error stops the
    /// sending (the elements not started give their places up), waits for the requests in flight,
    /// and is thrown.
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
        let tickets = reserve(items.count)
        let failed = FailureFlag()
        try await withThrowingTaskGroup(of: (Int, Answer).self) { group in
            for (index, item) in items.enumerated() {
                await acquire(ticket: tickets.lowerBound + index)
                // After a failure nothing more is sent: the slot and the later places go back.
                guard !failed.isSet else {
                    update { state in
                        state.inUse -= 1
                        state.abandoned.formUnion(tickets.lowerBound + index + 1..<tickets.upperBound)
                    }
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

    /// `count` consecutive places in the queue.
    private func reserve(_ count: Int) -> Range<Int> {
        lock.withLock {
            let first = state.nextTicket
            state.nextTicket += count
            return first..<state.nextTicket
        }
    }

    /// Waits for `ticket`'s turn and a free slot, and takes the slot.
    private func acquire(ticket: Int) async {
        await wait { state, continuation in state.waiting[ticket] = continuation }
    }

    /// Suspends until `enqueue`'s place (given the continuation to resume) gets a slot.
    private func wait(_ enqueue: (inout State, CheckedContinuation<Void, Never>) -> Void) async {
        await withCheckedContinuation { continuation in update { enqueue(&$0, continuation) } }
    }

    /// Changes the state under the lock, hands out the slots the change makes free (in the
    /// queue's order), and resumes their holders outside the lock.
    private func update(_ change: (inout State) -> Void) {
        let woken = lock.withLock {
            change(&state)
            return state.grant()
        }
        for continuation in woken { continuation.resume() }
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
