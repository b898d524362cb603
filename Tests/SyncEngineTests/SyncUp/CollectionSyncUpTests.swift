import Foundation
import LocalOrg
import OrgClient
import SyncConfig
import SyncEngine
import Testing

/// The collection target's batching, counted in the local org's request log.
struct CollectionSyncUpTests {
    @Test func recordsAreSentTwoHundredPerCall() async throws {
        try await EngineHarness.withSyncUp { harness in
            for index in 1...450 { try harness.createLocally(["Name": .string("Bulk \(index)")]) }

            let summary = try await harness.engine().syncUp(UpDefinitions.accounts())

            #expect(summary.status == .done && summary.created == 450)
            let writes = try harness.writeRequests()
            let creates = writes.filter { $0.method == "POST" && $0.path.hasSuffix("/composite/sobjects") }
            #expect(creates.count == 3)
            // One read-back retrieve per page of 2,000 dirty records, and nothing else.
            let readBacks = writes.filter { $0.path.hasSuffix("/composite/sobjects/Account") }
            #expect(readBacks.count == 1)
            #expect(writes.count == 4)
            #expect(summary.requests == 4)
            #expect(try harness.storedCount() == 450)
            #expect(try await harness.store.read { try $0.dirtyEntryCount(in: "accounts") } == 0)
        }
    }

    @Test func maxBatchSizeIsHonoured() async throws {
        try await EngineHarness.withSyncUp { harness in
            for index in 1...5 { try harness.createLocally(["Name": .string("Small \(index)")]) }

            _ = try await harness.engine().syncUp(UpDefinitions.accounts(maxBatchSize: 2))

            let creates = try harness.writeRequests().filter {
                $0.method == "POST" && $0.path.hasSuffix("/composite/sobjects")
            }
            #expect(creates.count == 3)
        }
    }

    @Test func batchesAnsweredBeforeAFailureAreWrittenBackAndTheOthersStayDirty() async throws {
        // Page 1: what four calls take at once (800 records, four creates); page 2: 2,000 (ten
        // creates), sent while page 1 is answered. Page 1's read-back comes after its own four
        // creates and at most page 2's ten: it is among the first 15 requests. Page 2's read-back
        // comes after those 15, and every later request is dropped: page 1 is written back, page 2
        // stays dirty although the org created its records.
        try await EngineHarness.withSyncUp(faults: FaultConfiguration(failAfter: 15)) { harness in
            var entryIDs: [Int64] = []
            for index in 1...2_800 {
                entryIDs.append(try harness.createLocally(["Name": .string("Overlap \(index)")]))
            }

            let summary = try await harness.engine().syncUp(UpDefinitions.accounts())

            #expect(summary.status == .failed)
            // Page 1 is written back: server ids, no longer dirty. Page 2 stays dirty, with its
            // create intents, for the next run to recover.
            #expect(try await harness.store.read { try $0.dirtyEntryCount(in: "accounts") } == 2_000)
            for entryID in entryIDs.prefix(800) {
                let record = try #require(try harness.storedRecord(entryID: entryID))
                #expect(record["__local__"] == .bool(false))
                #expect(record["Id"]?.stringValue?.hasPrefix("001") == true)
            }
            for entryID in entryIDs.suffix(2_000) {
                let record = try #require(try harness.storedRecord(entryID: entryID))
                #expect(record["__local__"] == .bool(true))
                #expect(record["__syncrun_create__"] != nil)
            }
            // All fourteen creates were served before the drops.
            let onServer = try harness.database.query("SELECT COUNT() FROM Account", apiVersion: "62.0").totalSize
            #expect(onServer == 2_800)
        }
    }
}
