import Foundation
import LocalOrg
import OrgClient
import SoupStore
import SyncConfig
import Testing

@testable import SyncEngine

/// `minApiShare` / `stopApiShare`: a sync up slows to one request at a time when the org's API
/// allocation runs low (`Sforce-Limit-Info`), says so once, and stops cleanly (resumable) below
/// the floor. The local org reports `api-usage=USED/MAX` with its `apiRequestLimit` as MAX.
struct APIAllocationTests {
    static func engine(_ harness: EngineHarness, minApiShare: Int, stopApiShare: Int) -> SyncEngine {
        var configuration = SyncEngineConfiguration()
        configuration.minApiShare = minApiShare
        configuration.stopApiShare = stopApiShare
        return SyncEngine(
            store: harness.store,
            org: harness.org,
            logger: EngineHarness.logger,
            configuration: configuration
        )
    }

    /// The warnings a sync up's events carried.
    static func warnings(_ body: (AsyncStream<SyncEvent>.Continuation) async throws -> Void) async rethrows
        -> [String]
    {
        let (stream, continuation) = AsyncStream<SyncEvent>.makeStream()
        try await body(continuation)
        continuation.finish()
        var warnings: [String] = []
        for await event in stream {
            if case .warning(_, let message) = event { warnings.append(message) }
        }
        return warnings
    }

    @Test func verdicts() {
        let allocation = APIAllocationGuard(slowBelow: 10, stopBelow: 2)
        #expect(allocation.verdict(nil) == .proceed)
        #expect(allocation.verdict(APIUsage(used: 0, max: 1000)) == .proceed)
        #expect(allocation.verdict(APIUsage(used: 900, max: 1000)) == .proceed)
        #expect(allocation.verdict(APIUsage(used: 901, max: 1000)) == .slowDown(percentLeft: 9.9))
        #expect(allocation.verdict(APIUsage(used: 980, max: 1000)) == .slowDown(percentLeft: 2))
        #expect(allocation.verdict(APIUsage(used: 981, max: 1000)) == .stop(percentLeft: 1.9))
        #expect(allocation.verdict(APIUsage(used: 1200, max: 1000)) == .stop(percentLeft: 0))
        #expect(APIAllocationGuard.percent(9.94) == "9.9%" && APIAllocationGuard.percent(2) == "2%")
    }

    @Test func aLowAllocationSlowsTheRunToOneRequestAndSaysSoOnce() async throws {
        // 100 requests a day: below 95% left once more than 5 are used, which page 1 (ten creates
        // and a read-back) passes.
        try await EngineHarness.withSyncUp(apiRequestLimit: 100) { harness in
            for index in 1...4_500 { try harness.createLocally(["Name": .string("Low \(index)")]) }
            var summary: SyncUpSummary?
            let warnings = try await Self.warnings { events in
                summary = try await Self.engine(harness, minApiShare: 95, stopApiShare: 0)
                    .syncUp(UpDefinitions.accounts(), events: events)
            }
            #expect(summary?.status == .done && summary?.created == 4_500)
            let slowDowns = warnings.filter { $0.contains("sending one request at a time") }
            #expect(slowDowns.count == 1)
            #expect(slowDowns.first?.contains("below minApiShare 95%") == true)
        }
    }

    @Test func belowTheFloorTheRunStopsCleanlyAndTheNextRunFinishes() async throws {
        // Below 90% left once more than 10 requests are used: page 1's four creates and read-back
        // and some of page 2's. Pages 1 (800 records) and 2 (2,000) are sent before that; three
        // batches may be in flight when the floor is crossed: 8,500 records need five.
        try await EngineHarness.withSyncUp(apiRequestLimit: 100) { harness in
            var entries: [Int64] = []
            for index in 1...8_500 { entries.append(try harness.createLocally(["Name": .string("Floor \(index)")])) }

            let first = try await Self.engine(harness, minApiShare: 0, stopApiShare: 90).syncUp(
                UpDefinitions.accounts()
            )

            #expect(first.status == .stopped)
            let message = try #require(first.error)
            #expect(message.contains("below stopApiShare 90%") && message.contains("Run it again"))
            // Every record is either written back or still dirty under its local id (with a create
            // intent when its batch was sent).
            var written = 0
            for entry in entries {
                let record = try #require(try harness.storedRecord(entryID: entry))
                if record["__local__"] == false {
                    written += 1
                    #expect(record["Id"]?.stringValue?.hasPrefix("001") == true)
                } else {
                    #expect(record["__local__"] == true && record["Id"]?.stringValue?.hasPrefix("local_") == true)
                }
            }
            #expect(written >= 2_000 && written < 8_500)

            let second = try await Self.engine(harness, minApiShare: 0, stopApiShare: 0).syncUp(
                UpDefinitions.accounts()
            )

            #expect(second.status == .done)
            #expect(try await harness.store.read { try $0.dirtyEntryCount(in: "accounts") } == 0)
            let onServer = try harness.database.query("SELECT COUNT() FROM Account", apiVersion: "62.0").totalSize
            #expect(onServer == 8_500)
        }
    }
}
