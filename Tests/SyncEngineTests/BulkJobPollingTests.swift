import Foundation
import OrgClient
import SyncrunTestSupport
import Testing

@testable import SyncEngine

/// The one wait for Bulk API 2.0 jobs: growing waits with a cap, on the injected clock, and a
/// deadline whose error names the job and what to do.
struct BulkJobPollingTests {
    private static let jobID = "750xx0000000001AAA"

    /// A job that stays in progress for `polls` questions, then ends `JobComplete`.
    private final class Job: Sendable {
        private let lock = NSLock()
        private nonisolated(unsafe) var asked = 0
        let endsAfter: Int?

        init(endsAfter: Int?) { self.endsAfter = endsAfter }

        var questions: Int { lock.withLock { asked } }

        func poll() -> BulkJobInfo {
            let count = lock.withLock {
                asked += 1
                return asked
            }
            let ended = endsAfter.map { count > $0 } ?? false
            return BulkJobInfo(
                id: BulkJobPollingTests.jobID,
                state: ended ? .jobComplete : .inProgress,
                stateText: ended ? "JobComplete" : "InProgress",
                operation: "query",
                object: "Account",
                apiVersion: "62.0"
            )
        }
    }

    @Test func theWaitsGrowToTheCapOnTheInjectedClock() async throws {
        let clock = RecordingClock()
        let poller = BulkJobPoller(
            policy: BulkJobPolling(firstInterval: .seconds(1), multiplier: 2, maximumInterval: .seconds(8)),
            clock: clock
        )
        let job = Job(endsAfter: 6)
        let info = try await poller.waitUntilEnded(jobID: Self.jobID, kind: .query, syncName: "accounts") {
            job.poll()
        }
        #expect(info.state == .jobComplete)
        #expect(job.questions == 7)
        #expect(clock.sleeps == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(8), .seconds(8)])
    }

    @Test func theDefaultWaitsStartAt50MillisecondsAndStopGrowingAt2Seconds() async throws {
        let clock = RecordingClock()
        let poller = BulkJobPoller(policy: BulkJobPolling(), clock: clock)
        let job = Job(endsAfter: 8)
        _ = try await poller.waitUntilEnded(jobID: Self.jobID, kind: .query, syncName: "accounts") { job.poll() }
        #expect(clock.sleeps == [50, 100, 200, 400, 800, 1600, 2000, 2000].map { Duration.milliseconds($0) })
    }

    @Test func aKnownStateIsWaitedOnBeforeTheFirstQuestion() async throws {
        let clock = RecordingClock()
        let poller = BulkJobPoller(policy: BulkJobPolling(firstInterval: .seconds(1)), clock: clock)
        let job = Job(endsAfter: 1)
        let known = job.poll()  // the state the close of an ingest job answered with
        let info = try await poller.waitUntilEnded(jobID: Self.jobID, kind: .ingest, syncName: "up", known: known) {
            job.poll()
        }
        #expect(info.state == .jobComplete)
        #expect(job.questions == 2)
        #expect(clock.sleeps == [.seconds(1)])
    }

    @Test func aJobPastTheDeadlineFailsNamingTheJobAndWhatToDo() async throws {
        let clock = RecordingClock()
        let poller = BulkJobPoller(
            policy: BulkJobPolling(firstInterval: .seconds(1), maximumInterval: .seconds(8), deadline: .seconds(30)),
            clock: clock
        )
        let job = Job(endsAfter: nil)
        let error = await #expect(throws: SyncEngineError.self) {
            try await poller.waitUntilEnded(jobID: Self.jobID, kind: .ingest, syncName: "contacts-up") {
                job.poll()
            }
        }
        // 1 + 2 + 4 + 8 + 8 = 23 s, then the last wait ends at the deadline, then one last question.
        #expect(clock.sleeps == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(8), .seconds(7)])
        #expect(job.questions == 7)
        #expect(error?.code == .server)
        let message = error?.message ?? ""
        #expect(
            message.hasPrefix("sync 'contacts-up': the Bulk API 2.0 ingest job \(Self.jobID) did not end within 30 s")
        )
        #expect(message.contains("(its last state: InProgress)"))
        #expect(message.contains("Setup > Bulk Data Load Jobs"))
        #expect(message.contains("SyncEngineConfiguration.bulkJobPolling.deadline"))
    }
}
