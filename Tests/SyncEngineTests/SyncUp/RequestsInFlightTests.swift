import Foundation
import LocalOrg
import OrgClient
import SoupStore
import SyncConfig
import SyncEngine
import SyncrunTestSupport
import Testing

/// `maxConcurrentRequests`: sync up keeps up to N requests in flight (across page boundaries, for
/// parent trees too), keeps its order guarantees, and resends `UNABLE_TO_LOCK_ROW` refusals.
struct RequestsInFlightTests {
    /// Every request is answered 30 ms late, so calls sent together are seen in flight together.
    static let slow = FaultConfiguration(latency: .milliseconds(30))

    static func engine(
        _ harness: EngineHarness,
        org: any OrgClient,
        maxRequests: Int?,
        clock: (any Clock<Duration>)? = nil,
        lockRetry: RetryPolicy? = nil
    ) -> SyncEngine {
        var configuration = SyncEngineConfiguration()
        configuration.maxConcurrentRequests = maxRequests
        if let clock { configuration.clock = clock }
        if let lockRetry { configuration.recordLockRetry = lockRetry }
        return SyncEngine(store: harness.store, org: org, logger: EngineHarness.logger, configuration: configuration)
    }

    @Test func fourRequestsStayInFlightAcrossPageBoundariesAndNeverMore() async throws {
        try await EngineHarness.withSyncUp(faults: Self.slow) { harness in
            // Page 1: what four calls take at once, 800 records; page 2: 2,000 (ten calls); page 3:
            // 1,800 (nine calls).
            for index in 1...4_600 { try harness.createLocally(["Name": .string("Page \(index)")]) }
            let org = ObservedOrgClient(harness.org)

            // No override: the definition's default, 4.
            let summary = try await Self.engine(harness, org: org, maxRequests: nil).syncUp(UpDefinitions.accounts())

            #expect(summary.status == .done && summary.created == 4_600 && summary.failed == 0)
            #expect(org.mostInFlight == 4)
            // One read-back per page.
            #expect(org.readBackSizes == [800, 2_000, 1_800])
            // A call of page 3 started before the last call of page 2 was answered.
            let calls = org.writeCalls
            let page = { (call: ObservedOrgClient.WriteCall) -> Int in
                let highest = call.names.compactMap { Int($0.dropFirst("Page ".count)) }.max() ?? 0
                return highest <= 800 ? 1 : highest <= 2_800 ? 2 : 3
            }
            #expect(calls.filter { page($0) == 1 }.count == 4)
            let lastPageTwoEnd = try #require(calls.filter { page($0) == 2 }.compactMap(\.ended).max())
            let firstPageThreeStart = try #require(calls.filter { page($0) == 3 }.map(\.started).min())
            #expect(firstPageThreeStart < lastPageTwoEnd)
            let onServer = try harness.database.query("SELECT COUNT() FROM Account", apiVersion: "62.0").totalSize
            #expect(onServer == 4_600)
            #expect(try await harness.store.read { try $0.dirtyEntryCount(in: "accounts") } == 0)
        }
    }

    @Test(arguments: [(1, [200, 2_000, 300]), (2, [400, 2_000, 100]), (4, [800, 1_700])])
    func aCollectionRunsFirstPageIsWhatItsWindowSendsAtOnce(maxRequests: Int, readBacks: [Int]) async throws {
        try await EngineHarness.withSyncUp { harness in
            for index in 1...2_500 { try harness.createLocally(["Name": .string("First \(index)")]) }
            let org = ObservedOrgClient(harness.org)

            let summary = try await Self.engine(harness, org: org, maxRequests: maxRequests)
                .syncUp(UpDefinitions.accounts())

            #expect(summary.status == .done && summary.created == 2_500)
            // Each page is read back in one retrieve: the first holds `maxRequests` calls of 200.
            #expect(org.readBackSizes == readBacks)
        }
    }

    @Test(arguments: [SyncUpTargetKind.collection, .batch, .single])
    func oneRequestAtATimeWithMaxRequestsOne(kind: SyncUpTargetKind) async throws {
        try await EngineHarness.withSyncUp(faults: Self.slow) { harness in
            for index in 1...60 { try harness.createLocally(["Name": .string("One \(index)")]) }
            let org = ObservedOrgClient(harness.org)

            let summary = try await Self.engine(harness, org: org, maxRequests: 1)
                .syncUp(UpDefinitions.accounts(kind: kind, maxBatchSize: kind == .single ? nil : 10))

            #expect(summary.status == .done && summary.created == 60)
            #expect(org.mostInFlight == 1)
        }
    }

    @Test(arguments: [SyncUpTargetKind.batch, .single])
    func batchAndSingleTargetsKeepFourInFlight(kind: SyncUpTargetKind) async throws {
        try await EngineHarness.withSyncUp(faults: Self.slow) { harness in
            for index in 1...60 { try harness.createLocally(["Name": .string("Four \(index)")]) }
            let org = ObservedOrgClient(harness.org)

            let summary = try await Self.engine(harness, org: org, maxRequests: 4)
                .syncUp(UpDefinitions.accounts(kind: kind, maxBatchSize: kind == .single ? nil : 5))

            #expect(summary.status == .done && summary.created == 60 && summary.failed == 0)
            #expect(org.mostInFlight == 4)
            let onServer = try harness.database.query("SELECT COUNT() FROM Account", apiVersion: "62.0").totalSize
            #expect(onServer == 60)
        }
    }

    @Test func aCreateThenItsUpdateAtFourInFlight() async throws {
        try await EngineHarness.withSyncUp(faults: Self.slow) { harness in
            var entries: [Int64] = []
            for index in 1...500 { entries.append(try harness.createLocally(["Name": .string("Then \(index)")])) }
            let org = ObservedOrgClient(harness.org)
            let engine = Self.engine(harness, org: org, maxRequests: 4)
            #expect(try await engine.syncUp(UpDefinitions.accounts()).created == 500)

            let id = try #require(try harness.storedRecord(entryID: entries[321])?["Id"]?.stringValue)
            try harness.changeLocally(id, ["Industry": "Updated"])
            let second = try await engine.syncUp(UpDefinitions.accounts())

            #expect(second.status == .done && second.updated == 1 && second.created == 0)
            #expect(try harness.serverAccount(id)?["Industry"] == "Updated")
            #expect(try harness.serverAccount(id)?["Name"] == "Then 322")
            let onServer = try harness.database.query("SELECT COUNT() FROM Account", apiVersion: "62.0").totalSize
            #expect(onServer == 500)
        }
    }

    @Test func parentTreesGoInParallelAndEachParentIsCreatedBeforeItsChildren() async throws {
        try await EngineHarness.withSyncUp(faults: Self.slow) { harness in
            try await harness.registerContactsSoup()
            var parents: [Int64] = []
            for tree in 1...12 {
                let local = "local_tree\(tree)"
                parents.append(try harness.createLocally(["Id": .string(local), "Name": .string("Tree \(tree)")]))
                // 30 children: two composite calls, the second naming the parent by the id the
                // first returned.
                for child in 1...30 { try harness.createContactLocally("C\(tree)-\(child)", accountID: local) }
            }
            let org = ObservedOrgClient(harness.org)

            let summary = try await Self.engine(harness, org: org, maxRequests: 4).syncUp(UpDefinitions.trees())

            #expect(summary.status == .done && summary.created == 12 * 31 && summary.failed == 0)
            #expect(org.mostInFlight == 4)
            var parentIDs: Set<String> = []
            for entry in parents {
                let id = try #require(try harness.storedRecord(entryID: entry)?["Id"]?.stringValue)
                #expect(!id.hasPrefix("local_"))
                parentIDs.insert(id)
            }
            let contacts = try harness.storedContacts()
            #expect(contacts.count == 360)
            for contact in contacts {
                let id = try #require(contact["Id"]?.stringValue)
                let tree = try #require(contact["LastName"]?.stringValue?.dropFirst().split(separator: "-").first)
                let parent = try #require(try harness.storedRecord(entryID: parents[Int(tree)! - 1])?["Id"])
                #expect(contact["AccountId"] == parent)
                #expect(try harness.serverContact(id)?["AccountId"] == parent)
            }
        }
    }

    @Test func recordsRefusedWithUnableToLockRowAreResentAfterABackoff() async throws {
        try await EngineHarness.withSyncUp { harness in
            for index in 1...10 { try harness.createLocally(["Name": .string("Locked \(index)")]) }
            let org = ObservedOrgClient(harness.org, lockRefusals: 3)
            let clock = RecordingClock()

            let summary = try await Self.engine(harness, org: org, maxRequests: 4, clock: clock)
                .syncUp(UpDefinitions.accounts())

            #expect(summary.status == .done && summary.created == 10 && summary.failed == 0)
            #expect(org.refused == ["Locked 1", "Locked 2", "Locked 3"])
            // One wait (the three were refused by one call), within the first backoff.
            #expect(clock.sleeps.count == 1)
            #expect(clock.sleeps.allSatisfy { $0 <= RetryPolicy.default.baseDelay && $0 > .zero })
            // Resent alone, each created once.
            #expect(org.writeCalls.map(\.names.count) == [10, 3])
            for index in 1...10 {
                let found = try harness.database.query(
                    "SELECT Id FROM Account WHERE Name = 'Locked \(index)'",
                    apiVersion: "62.0"
                )
                #expect(found.totalSize == 1)
            }
        }
    }

    @Test func aRecordStillLockedAfterTheLastAttemptFailsWithTheServersError() async throws {
        try await EngineHarness.withSyncUp { harness in
            let entry = try harness.createLocally(["Name": "Always locked"])
            let org = ObservedOrgClient(harness.org, lockRefusals: 100)
            let clock = RecordingClock()

            let summary = try await Self.engine(
                harness,
                org: org,
                maxRequests: 4,
                clock: clock,
                lockRetry: RetryPolicy(maxAttempts: 3)
            ).syncUp(UpDefinitions.accounts())

            #expect(summary.status == .done && summary.failed == 1)
            #expect(org.writeCalls.count == 3 && clock.sleeps.count == 2)
            let record = try #require(try harness.storedRecord(entryID: entry))
            #expect(record["__local__"] == true)
            #expect(record["__last_error__"]?.stringValue?.contains("UNABLE_TO_LOCK_ROW") == true)
        }
    }
}
