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
}
