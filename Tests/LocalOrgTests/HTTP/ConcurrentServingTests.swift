import Foundation
import NIOConcurrencyHelpers
import SyncrunTestSupport
import Testing

@testable import LocalOrg

/// Requests in flight at once: the ones waiting for SQLite's one writer must not hold the others.
struct ConcurrentServingTests {
    /// More creates than there are cores wait for the writer (held by the test); a `GET limits`,
    /// which needs no writer, is still answered meanwhile, and every create lands once the writer
    /// is free. When the org ran its handlers on Swift's cooperative threads (one per core), the
    /// waiting creates held all of them and the `GET` waited for the writer too.
    @Test func requestsWaitingForTheWriterDoNotHoldTheOthers() async throws {
        let waiting = ProcessInfo.processInfo.activeProcessorCount + 2
        let arrived = DispatchSemaphore(value: 0)
        let configuration = LocalOrgConfiguration(requestObserver: { method, _ in
            if method == "POST" { arrived.signal() }
        })
        try await LocalOrgFixture.with(configuration: configuration) { org in
            let client = org.client
            let held = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let freed = NIOLockedValueBox(false)
            // The writer is held on a thread of its own, at most 20 s, so the test ends either way.
            DispatchQueue(label: "test.writer").async {
                try? org.database.write { _ in
                    held.signal()
                    _ = release.wait(timeout: .now() + .seconds(20))
                }
                freed.withLockedValue { $0 = true }
            }
            #expect(await Self.wait(for: held, times: 1, seconds: 10))
            let creates = Task {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for index in 0..<waiting {
                        group.addTask {
                            let name = "Waiting \(index)"
                            return try await client.send(.POST, "sobjects/Account", json: ["Name": .string(name)])
                                .status
                        }
                    }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
            }
            let allArrived = await Self.wait(for: arrived, times: waiting, seconds: 5)
            let limits = try await client.send(.GET, "limits")
            let answeredWhileHeld = !freed.withLockedValue { $0 }
            release.signal()
            let statuses = try await creates.value
            #expect(allArrived, "the \(waiting) creates did not all reach the handler")
            #expect(limits.status == 200)
            #expect(answeredWhileHeld, "GET limits was answered only once the writer was free")
            #expect(statuses == Array(repeating: 201, count: waiting))
            let rows = try org.database.query("SELECT Id FROM Account WHERE Name LIKE 'Waiting %'", apiVersion: "62.0")
            #expect(rows.totalSize == waiting)
        }
    }

    /// Waits (on a thread of its own, not a cooperative one) for `times` signals of `semaphore`
    /// within `seconds`; whether they all came.
    private static func wait(for semaphore: DispatchSemaphore, times: Int, seconds: Int) async -> Bool {
        await withCheckedContinuation { continuation in
            DispatchQueue(label: "test.wait").async {
                let deadline = DispatchTime.now() + .seconds(seconds)
                let all = (0..<times).allSatisfy { _ in semaphore.wait(timeout: deadline) == .success }
                continuation.resume(returning: all)
            }
        }
    }
}
