import Foundation
import LocalOrg
import OrgClient
import SoupStore
import SyncConfig
import SyncEngine
import Testing

/// Write-back merges each outcome into the stored document: sync up reads only the members it
/// sends or decides by, and every other member of the entry must come through unchanged.
struct SyncUpWriteBackTests {
    @Test(arguments: SyncUpTests.kinds)
    func membersThatAreNotSentAreKeptWhole(kind: SyncUpTargetKind) async throws {
        try await EngineHarness.withSyncUp { harness in
            let ids = try harness.createAccounts(["Edit"])
            try await harness.syncDownAccounts()
            let extra: [String: OrgValue] = [
                "Notes__local": ["tags": ["a", "b"], "pinned": true, "weight": 1.5],
                "Description": "local text (not in the list)",
            ]
            try harness.changeLocally(ids[0], extra.merging(["Name": "Edited"]) { $1 })
            let created = try harness.createLocally(
                extra.merging(["Name": "New", "__last_error__": "an earlier failure"]) { $1 }
            )
            let refused = try harness.createLocally(extra)  // no Name: the org refuses the create

            let summary = try await harness.engine().syncUp(UpDefinitions.accounts(kind: kind))

            #expect(summary.status == .done && summary.created == 1 && summary.updated == 1 && summary.failed == 1)
            let edited = try #require(try harness.storedRecord(id: ids[0]))
            let new = try #require(try harness.storedRecord(entryID: created))
            let failed = try #require(try harness.storedRecord(entryID: refused))
            for record in [edited, new, failed] {
                #expect(record["Notes__local"] == extra["Notes__local"])
                #expect(record["Description"] == extra["Description"])
                #expect(record["__syncrun_create__"] == nil && record["__syncrun_update__"] == nil)
            }
            #expect(
                edited["Name"] == "Edited" && edited["__local__"] == false && edited["__locally_updated__"] == false
            )
            #expect(edited["LastModifiedDate"] == (try harness.serverAccount(ids[0]))?["LastModifiedDate"])
            let newID = try #require(new["Id"]?.stringValue)
            #expect(!newID.hasPrefix("local_") && new["__local__"] == false && new["__locally_created__"] == false)
            #expect(new["__last_error__"] == nil)
            #expect(new["attributes"]?["type"] == "Account")
            #expect(failed["__local__"] == true && failed["__locally_created__"] == true)
            #expect(failed["__last_error__"]?.stringValue?.isEmpty == false)
            #expect(failed["Id"]?.stringValue?.hasPrefix("local_") == true)
        }
    }
}
