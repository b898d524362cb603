import Foundation
import Testing

@testable import OrgClient

/// ``RequestWindow``: never more requests in flight than the limit, lowered at once, answers
/// handed back in the caller's task.
struct RequestWindowTests {
    /// Counts the bodies running at once.
    final class Gauge: @unchecked Sendable {
        private let lock = NSLock()
        private var now = 0
        private var highest = 0
        var most: Int { lock.withLock { highest } }
        func enter() {
            lock.withLock {
                now += 1; highest = max(highest, now)
            }
        }
        func leave() { lock.withLock { now -= 1 } }
        func reset() { lock.withLock { highest = now } }
    }

    @Test(arguments: [1, 3, 4])
    func forEachKeepsAtMostTheLimitInFlightAndAnswersEveryItem(limit: Int) async throws {
        let window = RequestWindow(limit: limit)
        let gauge = Gauge()
        var answers: [Int: Int] = [:]
        try await window.forEach(Array(0..<40)) { item in
            gauge.enter()
            defer { gauge.leave() }
            try await Task.sleep(for: .milliseconds(2))
            return item * 10
        } receive: { index, answer in
            answers[index] = answer
        }
        #expect(gauge.most == limit)
        #expect(answers.count == 40 && answers.allSatisfy { $0.value == $0.key * 10 })
    }

    @Test func twoLoopsSharingAWindowStayWithinItsLimit() async throws {
        let window = RequestWindow(limit: 4)
        let gauge = Gauge()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    try await window.forEach(Array(0..<30)) { _ in
                        gauge.enter()
                        defer { gauge.leave() }
                        try await Task.sleep(for: .milliseconds(2))
                    } receive: { _, _ in
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(gauge.most == 4)
    }

    @Test func aLoweredLimitHoldsForTheRequestsStartedAfterIt() async throws {
        let window = RequestWindow(limit: 4)
        let gauge = Gauge()
        try await window.forEach(Array(0..<8)) { _ in
            gauge.enter()
            defer { gauge.leave() }
            try await Task.sleep(for: .milliseconds(2))
        } receive: { _, _ in
        }
        #expect(gauge.most == 4)
        window.setLimit(1)
        gauge.reset()
        try await window.forEach(Array(0..<8)) { _ in
            gauge.enter()
            defer { gauge.leave() }
            try await Task.sleep(for: .milliseconds(2))
        } receive: { _, _ in
        }
        #expect(gauge.most == 1 && window.limit == 1)
    }

    @Test func theFirstErrorIsThrownAfterTheOtherRequestsEnd() async throws {
        struct Refused: Error {}
        let window = RequestWindow(limit: 3)
        let gauge = Gauge()
        await #expect(throws: Refused.self) {
            try await window.forEach(Array(0..<10)) { item in
                gauge.enter()
                defer { gauge.leave() }
                if item == 2 { throw Refused() }
                try await Task.sleep(for: .milliseconds(2))
            } receive: { _, _ in
            }
        }
        // Every slot came back: a later loop gets the whole window.
        gauge.reset()
        try await window.forEach(Array(0..<6)) { _ in
            gauge.enter()
            defer { gauge.leave() }
            try await Task.sleep(for: .milliseconds(2))
        } receive: { _, _ in
        }
        #expect(gauge.most == 3)
    }

    /// The order requests started in.
    final class StartLog: @unchecked Sendable {
        private let lock = NSLock()
        private var names: [String] = []
        var order: [String] { lock.withLock { names } }
        func start(_ name: String) { lock.withLock { names.append(name) } }
    }

    /// Runs a loop of `count` requests named `name0`, `name1`, … through `window`; once its first
    /// request has started (it holds its slot until `holdFirst` returns, the others for 5 ms), runs `then`
    /// beside it, and waits for both.
    static func loop(
        _ name: String,
        of count: Int,
        through window: RequestWindow,
        log: StartLog,
        holdFirst: @escaping @Sendable () async throws -> Void = { try await Task.sleep(for: .milliseconds(5)) },
        then: @escaping @Sendable () async throws -> Void
    ) async throws {
        let (firstStarted, started) = AsyncStream.makeStream(of: Void.self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await window.forEach(Array(0..<count)) { item in
                    log.start("\(name)\(item)")
                    if item == 0 { started.yield() }
                    if item == 0 { try await holdFirst() } else { try await Task.sleep(for: .milliseconds(5)) }
                } receive: { _, _ in
                }
            }
            for await _ in firstStarted { break }
            group.addTask(operation: then)
            try await group.waitForAll()
        }
    }

    @Test func anEarlierLoopsRequestsAllStartBeforeALaterLoopsOnes() async throws {
        // Two batches sharing the window: the older one's requests go out first, so it is
        // answered while the newer one fills the window (not both finishing together).
        let window = RequestWindow(limit: 2)
        let log = StartLog()
        try await Self.loop("a", of: 6, through: window, log: log) {
            try await window.forEach(Array(0..<6)) { item in
                log.start("b\(item)")
                try await Task.sleep(for: .milliseconds(5))
            } receive: { _, _ in
            }
        }
        // Within one loop the bodies may begin in any order (their slots came in order).
        let order = log.order
        #expect(order.count == 12)
        #expect(Set(order.prefix(6)) == Set((0..<6).map { "a\($0)" }))
    }

    @Test func aRequestAheadOfTheQueueTakesTheNextFreeSlot() async throws {
        let window = RequestWindow(limit: 1)
        let log = StartLog()
        // The first request holds its slot until the read-back waits (the loop's other requests
        // queued when the loop began).
        let holdUntilTheReadBackWaits: @Sendable () async throws -> Void = {
            let deadline = ContinuousClock.now + .seconds(30)
            while window.waitingAheadOfQueue == 0, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(1))
            }
        }
        try await Self.loop("loop", of: 4, through: window, log: log, holdFirst: holdUntilTheReadBackWaits) {
            try await window.run(aheadOfQueue: true) { log.start("read-back") }
        }
        #expect(log.order == ["loop0", "read-back", "loop1", "loop2", "loop3"])
    }

    @Test func afterAFailureNothingMoreIsSentAndTheWindowStaysUsable() async throws {
        struct Refused: Error {}
        let window = RequestWindow(limit: 1)
        let log = StartLog()
        await #expect(throws: Refused.self) {
            try await window.forEach(Array(0..<10)) { item in
                log.start("\(item)")
                if item == 2 { throw Refused() }
            } receive: { _, _ in
            }
        }
        #expect(log.order == ["0", "1", "2"])
        // The places the loop gave up do not hold the queue.
        try await window.run { log.start("later") }
        #expect(log.order.last == "later")
    }
}
