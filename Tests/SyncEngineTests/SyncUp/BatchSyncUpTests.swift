import Foundation
import LocalOrg
import OrgClient
import SyncConfig
import SyncEngine
import Testing

/// The batch target's composite calls and the single-record target's one call per record,
/// counted in the local org's request log.
struct BatchSyncUpTests {
    @Test func batchSendsTwentyFiveSubrequestsPerCompositeCall() async throws {
        try await EngineHarness.withSyncUp { harness in
            for index in 1...30 { try harness.createLocally(["Name": .string("Batch \(index)")]) }

            let summary = try await harness.engine().syncUp(UpDefinitions.accounts(kind: .batch))

            #expect(summary.status == .done && summary.created == 30)
            let writes = try harness.writeRequests()
            #expect(writes.filter { $0.method == "POST" && $0.path.hasSuffix("/composite") }.count == 2)
            #expect(writes.filter { $0.path.hasSuffix("/composite/sobjects/Account") }.count == 1)  // read-back
            #expect(writes.count == 3)
        }
    }

    @Test func singleSendsOneCallPerRecordAndReadsBackInOneCall() async throws {
        try await EngineHarness.withSyncUp { harness in
            for index in 1...4 { try harness.createLocally(["Name": .string("Single \(index)")]) }

            let summary = try await harness.engine().syncUp(UpDefinitions.accounts(kind: .single))

            #expect(summary.status == .done && summary.created == 4)
            let writes = try harness.writeRequests()
            let creates = writes.filter { $0.method == "POST" && !$0.path.contains("/composite/") }
            #expect(creates.count == 4 && creates.allSatisfy { $0.path.hasSuffix("/sobjects/Account") })
            #expect(writes.filter { $0.path.hasSuffix("/composite/sobjects/Account") }.count == 1)
            #expect(summary.requests == 5)
        }
    }

    @Test(arguments: [(SyncUpTargetKind.single, false), (.collection, true), (.batch, true)])
    func aDirtyRecordWithoutOperationIsAnUpdateExceptForSingle(kind: SyncUpTargetKind, isSent: Bool) async throws {
        try await EngineHarness.withSyncUp { harness in
            let id = try harness.createAccounts(["Flagless"])[0]
            try await harness.syncDownAccounts()
            try harness.changeLocally(id, ["Name": "Only __local__"], flag: "__local__")

            let summary = try await harness.engine().syncUp(UpDefinitions.accounts(kind: kind))

            #expect(summary.updated == (isSent ? 1 : 0) && summary.skipped == (isSent ? 0 : 1))
            #expect(try harness.serverAccount(id)?["Name"] == .string(isSent ? "Only __local__" : "Flagless"))
            #expect(try harness.storedRecord(id: id)?["__local__"] == .bool(!isSent))
        }
    }
}
