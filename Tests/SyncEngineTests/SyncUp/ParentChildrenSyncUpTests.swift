import Foundation
import LocalOrg
import OrgClient
import SoupStore
import SyncConfig
import SyncEngine
import Testing

/// Parent-children sync up (sync-semantics §8.4) against the local org over HTTP: trees sent by
/// composite with `@{ref.id}`, split past 25 subrequests, local ids rewritten in both soups,
/// master-detail and lookup deletes, batched conflict checks.
struct ParentChildrenSyncUpTests {
    @Test func aLocalAccountWithLocalContactsIsCreatedInOneCompositeCall() async throws {
        try await EngineHarness.withSyncUp { harness in
            try await harness.registerContactsSoup()
            let localAccount = "local_acct"
            let accountEntry = try harness.createLocally(["Id": .string(localAccount), "Name": "Tree"])
            try harness.createContactLocally("Doe", accountID: localAccount)
            try harness.createContactLocally("Roe", accountID: localAccount)

            let summary = try await harness.engine().syncUp(UpDefinitions.trees())

            #expect(summary.status == .done && summary.created == 3 && summary.failed == 0)
            #expect(try harness.compositeCalls() == 1)
            let account = try #require(try harness.storedRecord(entryID: accountEntry))
            let accountID = try #require(account["Id"]?.stringValue)
            #expect(!accountID.hasPrefix("local_") && account["__local__"] == false)
            #expect(account["LastModifiedDate"] == (try harness.serverAccount(accountID))?["LastModifiedDate"])
            let contacts = try harness.storedContacts()
            #expect(contacts.count == 2)
            for contact in contacts {
                let id = try #require(contact["Id"]?.stringValue)
                #expect(!id.hasPrefix("local_") && contact["__local__"] == false)
                #expect(contact["AccountId"] == .string(accountID))
                #expect(try harness.serverContact(id)?["AccountId"] == .string(accountID))
            }
        }
    }

    @Test func anUpdateOfAChildAloneSendsOnlyTheChild() async throws {
        try await EngineHarness.withSyncUp { harness in
            try await harness.registerContactsSoup()
            let (accountID, contactIDs) = try harness.createAccountsWithContacts(["Acme"], contactsEach: 2)[0]
            try await harness.syncDownTrees()
            try harness.markLocallyChanged(contactIDs[0], field: "LastName", value: "Changed", in: "contacts")
            let before = try harness.requestLog().count

            let summary = try await harness.engine().syncUp(UpDefinitions.trees(mergeMode: .leaveIfChanged))

            #expect(summary.status == .done && summary.updated == 1 && summary.selected == 1)
            #expect(try harness.serverContact(contactIDs[0])?["LastName"] == "Changed")
            #expect(try harness.serverContact(contactIDs[0])?["AccountId"] == .string(accountID))
            #expect(try harness.storedValuesByID("__local__", in: "contacts")[contactIDs[0]] == .text("false"))
            let log = try harness.requestLog().dropFirst(before)
            #expect(!log.contains { $0.method == "PATCH" && $0.path.contains("/Account/") })
            #expect(!log.contains { $0.method == "GET" && $0.path.contains("/sobjects/") })
        }
    }

    @Test(arguments: RelationshipType.allCases)
    func aParentDeleteFollowsTheRelationship(relationship: RelationshipType) async throws {
        try await EngineHarness.withSyncUp { harness in
            try await harness.registerContactsSoup()
            let (accountID, contactIDs) = try harness.createAccountsWithContacts(["Doomed"], contactsEach: 2)[0]
            try await harness.syncDownTrees()
            try harness.changeLocally(accountID, [:], flag: "__locally_deleted__")
            try harness.markLocallyChanged(contactIDs[0], field: "LastName", value: "Edited", in: "contacts")

            let summary = try await harness.engine().syncUp(UpDefinitions.trees(relationship: relationship))

            #expect(summary.status == .done && summary.failed == 0)
            #expect(try harness.serverAccount(accountID) == nil)
            #expect(try harness.storedRecord(id: accountID) == nil)
            let remaining = try harness.storedContacts()
            // The org deletes an Account's Contacts with it, as a real org does.
            #expect(try harness.serverContact(contactIDs[0]) == nil)
            let page = try harness.database.query(
                "SELECT LastName, IsDeleted FROM Contact WHERE Id = '\(contactIDs[0])'",
                includeDeleted: true,
                apiVersion: "62.0"
            )
            let deleted = try OrgValue(parsing: String(decoding: page.responseBody(apiVersion: "62.0"), as: UTF8.self))
                .objectValue?["records"]?.arrayValue?.first?.objectValue
            #expect(deleted?["IsDeleted"] == .bool(true))
            switch relationship {
            case .masterDetail:
                // Only the parent is deleted; the server cascades, the local children go too.
                #expect(summary.deleted == 1 && summary.updated == 0)
                #expect(deleted?["LastName"] == "Doomed-1")
                #expect(remaining.isEmpty)
            case .lookup:
                // The child's own change goes first; the local children stay.
                #expect(summary.deleted == 1 && summary.updated == 1)
                #expect(deleted?["LastName"] == "Edited")
                #expect(remaining.count == 2 && remaining.allSatisfy { $0["AccountId"] == .string(accountID) })
            }
        }
    }

    @Test func aTreeOfThirtyDirtyChildrenIsSplitIntoSuccessiveCompositeCalls() async throws {
        try await EngineHarness.withSyncUp { harness in
            try await harness.registerContactsSoup()
            let accountEntry = try harness.createLocally(["Id": "local_big", "Name": "Big"])
            for index in 1...30 { try harness.createContactLocally("Child \(index)", accountID: "local_big") }

            let summary = try await harness.engine().syncUp(UpDefinitions.trees())

            #expect(summary.status == .done && summary.created == 31 && summary.failed == 0)
            #expect(try harness.compositeCalls() == 2)
            let accountID = try #require(try harness.storedRecord(entryID: accountEntry)?["Id"]?.stringValue)
            let contacts = try harness.storedContacts()
            #expect(contacts.count == 30 && contacts.allSatisfy { $0["AccountId"] == .string(accountID) })
            for contact in contacts {
                let id = try #require(contact["Id"]?.stringValue)
                #expect(try harness.serverContact(id)?["AccountId"] == .string(accountID))
            }
        }
    }

    @Test func aConflictLeavesTheTreeUnderLeaveIfChangedAndOverwriteWins() async throws {
        try await EngineHarness.withSyncUp { harness in
            try await harness.registerContactsSoup()
            let (accountID, contactIDs) = try harness.createAccountsWithContacts(["Shared"], contactsEach: 2)[0]
            try await harness.syncDownTrees()
            try harness.changeLocally(accountID, ["Name": "Shared local"])
            try harness.markLocallyChanged(contactIDs[0], field: "LastName", value: "Local", in: "contacts")
            try harness.updateChild(contactIDs[0], lastName: "Server")
            let before = try harness.requestLog().count

            let left = try await harness.engine().syncUp(UpDefinitions.trees(mergeMode: .leaveIfChanged))

            #expect(left.status == .done && left.conflicts == 1 && left.updated == 0)
            #expect(left.issues.map(\.recordID) == [contactIDs[0]])
            #expect(try harness.serverAccount(accountID)?["Name"] == "Shared")
            #expect(try harness.serverContact(contactIDs[0])?["LastName"] == "Server")
            let contact = try #require(
                try harness.storedContacts().first { $0["Id"] == .string(contactIDs[0]) }
            )
            #expect(contact["__local__"] == true && contact["LastName"] == "Local")
            let lastError = try OrgValue(parsing: try #require(contact["__last_error__"]?.stringValue))
            #expect(lastError["kind"] == "conflict" && lastError["reason"] == "modifiedOnServer")
            #expect(try harness.storedRecord(id: accountID)?["__local__"] == true)
            let log = try harness.requestLog().dropFirst(before)
            #expect(!log.contains { $0.method == "GET" && $0.path.contains("/sobjects/") })
            #expect(log.filter { $0.path.hasSuffix("/composite/sobjects/Contact") }.count == 1)

            let overwritten = try await harness.engine().syncUp(
                UpDefinitions.trees(mergeMode: .overwrite),
                replace: true
            )

            #expect(overwritten.updated == 2 && overwritten.conflicts == 0)
            #expect(try harness.serverAccount(accountID)?["Name"] == "Shared local")
            #expect(try harness.serverContact(contactIDs[0])?["LastName"] == "Local")
            #expect(try harness.storedRecord(id: accountID)?["__local__"] == false)
        }
    }

    @Test func aChildWithoutItsParentFailsAloneAndTheRunGoesOn() async throws {
        try await EngineHarness.withSyncUp { harness in
            try await harness.registerContactsSoup()
            let orphan = try harness.createContactLocally("Orphan", accountID: "local_missing")
            try harness.createLocally(["Id": "local_ok", "Name": "Fine"])
            try harness.createContactLocally("Kid", accountID: "local_ok")

            let summary = try await harness.engine().syncUp(UpDefinitions.trees())

            #expect(summary.status == .done && summary.created == 2 && summary.failed == 1)
            #expect(summary.issues.map(\.entryID) == [orphan])
            let stored = try #require(try harness.storedContacts().first { $0["LastName"] == "Orphan" })
            #expect(stored["__local__"] == true)
            let lastError = try OrgValue(parsing: try #require(stored["__last_error__"]?.stringValue))
            #expect(lastError["errors"]?.arrayValue?.first?["errorCode"] == "PARENT_NOT_FOUND")
        }
    }

    /// A local account with two local contacts; returns the 1-based number of the composite call
    /// in the org's request log, and the run's summary.
    private static func localTree(_ harness: EngineHarness) async throws -> (composite: Int, summary: SyncUpSummary) {
        try await harness.registerContactsSoup()
        try harness.createLocally(["Id": "local_tree", "Name": "Lost tree"])
        try harness.createContactLocally("Lost Doe", accountID: "local_tree")
        try harness.createContactLocally("Lost Roe", accountID: "local_tree")
        let summary = try await harness.engine().syncUp(UpDefinitions.trees())
        let log = try harness.requestLog()
        let index = try #require(log.firstIndex { $0.method == "POST" && $0.path.hasSuffix("/composite") })
        return (index + 1, summary)
    }

    @Test func aTreeWhoseCompositeResponseWasLostIsAdoptedNotCreatedAgain() async throws {
        // A probe finds the composite call's number; the flow is deterministic.
        let composite = try await EngineHarness.withSyncUp(clockStart: Date()) { harness in
            try await Self.localTree(harness).composite
        }
        try await EngineHarness.withSyncUp(
            faults: FaultConfiguration(loseResponses: Set(composite..<(composite + RetryPolicy.default.maxAttempts))),
            clockStart: Date()
        ) { harness in
            let (_, lost) = try await Self.localTree(harness)
            #expect(lost.status == .failed)
            let created = try harness.database.query(
                "SELECT Id FROM Contact WHERE LastName LIKE 'Lost%'",
                apiVersion: "62.0"
            ).totalSize
            #expect(created == 2, "the lost composite call created the tree on the org")
            while try harness.requestLog().count < composite + RetryPolicy.default.maxAttempts - 1 {
                _ = try? await harness.org.limits()
            }

            let retried = try await harness.engine().syncUp(UpDefinitions.trees())

            #expect(retried.status == .done && retried.created == 3 && retried.failed == 0, "\(retried)")
            #expect(
                try harness.database.query("SELECT Id FROM Account WHERE Name = 'Lost tree'", apiVersion: "62.0")
                    .totalSize == 1
            )
            #expect(
                try harness.database.query("SELECT Id FROM Contact WHERE LastName LIKE 'Lost%'", apiVersion: "62.0")
                    .totalSize == 2
            )
            let serverAccountID = try #require(
                try Self.firstID(harness, "SELECT Id FROM Account WHERE Name = 'Lost tree'")
            )
            let account = try #require(try harness.storedRecord(id: serverAccountID))
            #expect(account["__local__"] == false && account["__syncrun_create__"] == nil)
            let accountID = try #require(account["Id"]?.stringValue)
            for contact in try harness.storedContacts() {
                #expect(contact["__local__"] == false && contact["__syncrun_create__"] == nil)
                #expect(contact["AccountId"] == .string(accountID))
                let id = try #require(contact["Id"]?.stringValue)
                #expect(try harness.serverContact(id)?["AccountId"] == .string(accountID))
            }
        }
    }

    private static func firstID(_ harness: EngineHarness, _ soql: String) throws -> String? {
        let page = try harness.database.query(soql, apiVersion: "62.0")
        let records = try OrgValue(parsing: String(decoding: page.recordsJSON, as: UTF8.self))
        return records.arrayValue?.first?["Id"]?.stringValue
    }
}
