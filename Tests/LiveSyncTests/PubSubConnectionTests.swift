import Foundation
import LiveSync
import Testing

/// The Pub/Sub client against the local org's Pub/Sub API: topics, a subscription's events decoded
/// and their bitmaps expanded, the published errors, and the watch loop over it.
@Suite struct PubSubConnectionTests {
    @Test func topicsOfTheOrgAndOnesItDoesNotHave() async throws {
        try await WatchHarness.with { harness in
            try await PubSubConnection.with(endpoint: try harness.pubsubEndpoint, credentials: harness.credentials) {
                connection in
                let known = try await connection.topicExists("/data/AccountChangeEvent")
                let unknown = try await connection.topicExists("/data/NoSuchObjectChangeEvent")
                #expect(known)
                #expect(!unknown)
            }
        }
    }

    @Test func anUpdateArrivesDecodedWithItsChangedFieldsNamed() async throws {
        try await WatchHarness.with { harness in
            let id = try harness.create("Before")
            try harness.update(id, ["Name": .string("After"), "Industry": .null])
            let received = Received()
            try await PubSubConnection.with(endpoint: try harness.pubsubEndpoint, credentials: harness.credentials) {
                connection in
                let flow = SubscriptionFlow(window: 10)
                let subscription = Task {
                    try await connection.subscribe(topic: "/data/AccountChangeEvent", start: .earliest, flow: flow) {
                        if case .events(let events) = $0 { received.add(events) }
                    }
                }
                let arrived = try await eventually { received.events.count >= 2 }
                #expect(arrived)
                subscription.cancel()
                _ = await subscription.result
            }
            let events = received.events
            #expect(events.map(\.changeType) == [.create, .update])
            let update = try #require(events.last)
            #expect(update.entity == "Account")
            #expect(update.recordIDs == [id])
            #expect(Set(update.changedFields).isSuperset(of: ["Name", "Industry"]))
            #expect(update.nulledFields.contains("Industry"))
            #expect(update.replayID != events[0].replayID)
        }
    }

    @Test func anUnknownReplayIDIsTheReplayError() async throws {
        try await WatchHarness.with { harness in
            try await PubSubConnection.with(endpoint: try harness.pubsubEndpoint, credentials: harness.credentials) {
                connection in
                let error = await #expect(throws: LiveSyncError.self) {
                    try await connection.subscribe(
                        topic: "/data/AccountChangeEvent",
                        start: .after(Array(repeating: 7, count: 16)),
                        flow: SubscriptionFlow()
                    ) { _ in }
                }
                #expect(error?.code == .replayIDUnavailable)
            }
        }
    }

    @Test func theWatchKeepsTheStoreCurrentFromTheOrgsEvents() async throws {
        try await WatchHarness.with { harness in
            let energy = WatchHarness.soql("energy", query: "SELECT Name FROM Account WHERE Industry = 'Energy'")
            let first = try harness.create("First")
            try await PubSubConnection.with(endpoint: try harness.pubsubEndpoint, credentials: harness.credentials) {
                connection in
                let reports = Reports()
                let watcher = Watcher(engine: harness.engine, source: connection) { reports.add($0) }
                let stop = WatchStop()
                let running = Task { try await watcher.run([energy], stop: stop) }
                let started = try await eventually { try harness.storedNames() == ["First"] }
                #expect(started)
                let second = try harness.create("Second")
                try harness.update(first, ["Industry": .string("Other")])
                let changed = try await eventually { try harness.storedNames() == ["Second"] }
                #expect(changed)
                try harness.delete(second)
                let deleted = try await eventually { try harness.storedNames().isEmpty }
                #expect(deleted)
                stop.requestStop()
                try await running.value
                #expect(reports.batches.allSatisfy { $0.latencyMilliseconds < 5_000 })
                #expect(try harness.positions().count == 1)
            }
        }
    }
}

final class Received: Sendable {
    private let lock = NSLock()
    private nonisolated(unsafe) var collected: [ChangeEvent] = []

    func add(_ events: [ChangeEvent]) { lock.withLock { collected += events } }

    var events: [ChangeEvent] { lock.withLock { collected } }
}
