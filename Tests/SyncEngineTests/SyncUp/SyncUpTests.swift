import Foundation
import LocalOrg
import OrgClient
import SoupStore
import SyncConfig
import SyncEngine
import Testing

/// Sync up against the local org over HTTP, for each implemented target kind: creates, updates
/// and deletes reach the server with the configured field lists, flags are reset only on success,
/// and the sync state ends `DONE` with its counts.
struct SyncUpTests {
    static let kinds: [SyncUpTargetKind] = [.collection, .single, .batch]

    @Test(arguments: kinds)
    func localChangesReachTheServerWithTheirFieldLists(kind: SyncUpTargetKind) async throws {
        try await EngineHarness.withSyncUp { harness in
            let ids = try harness.createAccounts(["Keep", "Edit", "Remove"])
            try harness.updateAccount(ids[1], fields: ["Description": .string("server text")])
            try await harness.syncDownAccounts()
            try harness.changeLocally(ids[1], ["Name": "Edited", "Description": "local text (not in the list)"])
            try harness.changeLocally(ids[2], [:], flag: "__locally_deleted__")
            let created = try harness.createLocally(["Name": "New", "AccountNumber": "A-1", "Description": "unsent"])

            let summary = try await harness.engine().syncUp(UpDefinitions.accounts(kind: kind))

            #expect(summary.status == .done)
            #expect(summary.created == 1 && summary.updated == 1 && summary.deleted == 1)
            #expect(summary.conflicts == 0 && summary.failed == 0 && summary.issues.isEmpty)
            let edited = try #require(try harness.serverAccount(ids[1]))
            #expect(edited["Name"] == "Edited")
            #expect(edited["Description"] == "server text")  // not in updateFieldlist
            #expect(try harness.serverAccount(ids[2]) == nil)
            #expect(try harness.storedRecord(id: ids[2]) == nil)

            let stored = try #require(try harness.storedRecord(entryID: created))
            let newID = try #require(stored["Id"]?.stringValue)
            #expect(!newID.hasPrefix("local_"))
            let server = try #require(try harness.serverAccount(newID))
            #expect(server["Name"] == "New" && server["AccountNumber"] == "A-1")
            #expect(server["Description"] == .null)  // not in createFieldlist
            // Read back: the stored modification date is the server's, and the flags are reset.
            #expect(stored["LastModifiedDate"] == server["LastModifiedDate"])
            #expect(stored["__local__"] == false && stored["__locally_created__"] == false)
            #expect(stored["__last_error__"] == nil)
            let editedStored = try #require(try harness.storedRecord(id: ids[1]))
            #expect(editedStored["LastModifiedDate"] == edited["LastModifiedDate"])
            #expect(editedStored["__local__"] == false && editedStored["__locally_updated__"] == false)

            let state = try #require(try harness.engine().syncStates(named: "up").first)
            #expect(state.kind == .syncUp && state.status == .done && state.progress == 100 && state.totalSize == 3)
            let extra = try OrgValue(parsing: try #require(state.extraJSON))
            #expect(extra["failedCount"] == 0 && extra["conflictCount"] == 0)
        }
    }

    @Test(arguments: kinds)
    func createdThenDeletedRecordsAreNeverSent(kind: SyncUpTargetKind) async throws {
        try await EngineHarness.withSyncUp { harness in
            var fields: [String: OrgValue] = ["Name": "Short-lived"]
            fields["__locally_deleted__"] = true
            let entryID = try harness.createLocally(fields)

            let summary = try await harness.engine().syncUp(UpDefinitions.accounts(kind: kind))

            #expect(summary.status == .done && summary.deleted == 1 && summary.created == 0)
            #expect(try harness.writeRequests().isEmpty)
            #expect(try harness.storedRecord(entryID: entryID) == nil)
        }
    }

    @Test(arguments: kinds)
    func aServerRefusalIsStoredOnTheRecordWhileOthersSucceed(kind: SyncUpTargetKind) async throws {
        try await EngineHarness.withSyncUp { harness in
            let bad = try harness.createLocally(["AccountNumber": "no name"])  // Name is required
            let good = try harness.createLocally(["Name": "Fine"])

            let summary = try await harness.engine().syncUp(UpDefinitions.accounts(kind: kind))

            #expect(summary.status == .done && summary.created == 1 && summary.failed == 1)
            #expect(summary.issues.map(\.entryID) == [bad])
            let failed = try #require(try harness.storedRecord(entryID: bad))
            #expect(failed["__local__"] == true && failed["__locally_created__"] == true)
            let lastError = try OrgValue(parsing: try #require(failed["__last_error__"]?.stringValue))
            #expect(lastError["kind"] == "serverError")
            #expect(lastError["errors"]?.arrayValue?.first?["errorCode"] == "REQUIRED_FIELD_MISSING")
            let fine = try #require(try harness.storedRecord(entryID: good))
            #expect(fine["__local__"] == false)
            let state = try #require(try harness.engine().syncStates(named: "up").first)
            #expect(state.status == .done)
            #expect(try OrgValue(parsing: try #require(state.extraJSON))["failedCount"] == 1)
        }
    }

    @Test(arguments: kinds)
    func createsBecomeUpsertsByExternalID(kind: SyncUpTargetKind) async throws {
        try await EngineHarness.withSyncUp { harness in
            let existing = try harness.createAccounts(["Old name"])[0]
            try harness.updateAccount(existing, fields: ["External_Id__c": .string("EXT-1")])
            let matched = try harness.createLocally(["Name": "Matched", "External_Id__c": "EXT-1"])
            let fresh = try harness.createLocally(["Name": "Fresh", "External_Id__c": "EXT-2"])

            let summary = try await harness.engine().syncUp(
                UpDefinitions.accounts(kind: kind, externalIDField: EngineHarness.externalIDField)
            )

            #expect(summary.status == .done && summary.created == 2 && summary.failed == 0)
            #expect(try harness.storedRecord(entryID: matched)?["Id"] == .string(existing))
            #expect(try harness.serverAccount(existing)?["Name"] == "Matched")
            let freshID = try #require(try harness.storedRecord(entryID: fresh)?["Id"]?.stringValue)
            #expect(try harness.serverAccount(freshID)?["External_Id__c"] == "EXT-2")
        }
    }

    @Test func unsupportedKindsThrowBeforeRunning() async throws {
        try await EngineHarness.withSyncUp { harness in
            let definition = UpDefinitions.accounts(kind: .custom(implName: "com.example.Target"))
            let error = try await #require(throws: SyncEngineError.self) {
                try await harness.engine().syncUp(definition)
            }
            #expect(error.code == .notSupported)
            #expect(
                error.message
                    == "sync 'up': no sync up plug-in is registered for the custom target class 'com.example.Target' "
                    + "in this executable; the stock 'syncrun' has none: run an executable that links the SyncrunCLI "
                    + "library and registers 'com.example.Target' (README, \"Custom targets in Swift\")"
            )
            #expect(try harness.requestLog().isEmpty)
        }
    }

    @Test func aMissingFieldListIsReportedBeforeRunning() async throws {
        try await EngineHarness.withSyncUp { harness in
            let error = try await #require(throws: SyncEngineError.self) {
                try await harness.engine().syncUp(UpDefinitions.accounts(createFields: nil))
            }
            #expect(error.code == .invalidTarget)
            #expect(
                error.message
                    == "sync 'up': no fields to send on create; set 'createFieldlist' on the target "
                    + "or 'fieldlist' in the options"
            )
        }
    }
}
