import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing

/// Issue 19 item 3, through the executable: under `OVERWRITE`, new children of a parent the server
/// deleted make the parent_children sync up re-create the parent; the store then holds the parent
/// under its new id and the children point at it, as on the server (MobileSync does the same).
@Suite(.serialized)
struct FidelityDeletedParentTests {
    static let parent = #"""
        "parent": {"sobjectType": "Account", "soupName": "accounts", "idFieldName": "Id",
          "modificationDateFieldName": "LastModifiedDate"},
        "children": {"sobjectType": "Contact", "sobjectTypePlural": "Contacts", "soupName": "contacts",
          "parentIdFieldName": "AccountId", "idFieldName": "Id", "modificationDateFieldName": "LastModifiedDate"},
        "relationshipType": "LOOKUP"
        """#

    static let syncs = """
        {"syncs": [
          {"syncName": "treesUp", "syncType": "syncUp", "soupName": "accounts",
           "target": {"type": "parent_children", \(parent),
             "createFieldlist": ["Name"], "updateFieldlist": ["Name"],
             "childrenCreateFieldlist": ["LastName"], "childrenUpdateFieldlist": ["LastName"]},
           "options": {"mergeMode": "OVERWRITE"}},
          {"syncName": "treesDown", "syncType": "syncDown", "soupName": "accounts",
           "target": {"type": "parent_children", \(parent),
             "parentFieldlist": ["Name"], "childrenFieldlist": ["LastName", "AccountId"]},
           "options": {"mergeMode": "OVERWRITE"}}
        ]}
        """

    static let data: [(file: String, object: String, text: String)] = [
        (
            "Account.json", "Account",
            #"""
            {"records": [{"attributes": {"type": "Account", "referenceId": "Doomed"}, "Name": "Doomed"},
                         {"attributes": {"type": "Account", "referenceId": "Kept"}, "Name": "Kept"}]}
            """#
        ),
        (
            "Contact.json", "Contact",
            #"""
            {"records": [{"attributes": {"type": "Contact", "referenceId": "K1"}, "LastName": "Kept-1",
                          "AccountId": "@Kept"}]}
            """#
        ),
    ]

    @Test func newChildrenOfAParentDeletedOnTheServerRecreateItAndTheStoreFollowsTheNewID() async throws {
        try await FidelityProject.with(syncs: Self.syncs, data: Self.data) { project in
            try project.runDone()
            let doomed = try #require(try project.orgRecords("SELECT Id FROM Account WHERE Name = 'Doomed'").first)
            let oldID = try #require(doomed["Id"] as? String)
            try project.withOrg { org in try org.write { try $0.delete("Account", id: oldID) } }

            // The app adds two contacts under the account it still has.
            let imported = try project.syncrun(
                ["store", "import", "contacts", "-"],
                stdin: #"[{"attributes":{"type":"Contact"},"LastName":"New-1","AccountId":"\#(oldID)"},"#
                    + #"{"attributes":{"type":"Contact"},"LastName":"New-2","AccountId":"\#(oldID)"}]"#
            )
            #expect(imported.status == 0, "\(imported.stderr)")
            for name in ["New-1", "New-2"] {
                let marked = try project.syncrun([
                    "store", "mark", "contacts", "--created", "--where", "LastName=\(name)",
                ])
                #expect(marked.status == 0, "\(marked.stderr)")
            }

            let up = try project.runDone(["--only", "treesUp"])
            // The parent is re-created, then the two children under it.
            #expect(try up.count("created", of: "syncUp:treesUp") == 3)
            #expect(try up.count("failed", of: "syncUp:treesUp") == 0)

            let server = try project.orgRecords("SELECT Id FROM Account WHERE Name = 'Doomed'")
            #expect(server.count == 1)
            let newID = try #require(server.first?["Id"] as? String)
            #expect(newID != oldID)
            let serverChildren = try project.orgRecords("SELECT Id, LastName FROM Contact WHERE AccountId = '\(newID)'")
            #expect(Set(serverChildren.compactMap { $0["LastName"] as? String }) == ["New-1", "New-2"])

            // The store agrees with the server: the parent under its new id, the children pointing
            // at it with their server ids, nothing left dirty.
            let accounts = try project.storeRecords("accounts")
            let parent = try #require(accounts.first { $0["Name"] as? String == "Doomed" })
            #expect(parent["Id"] as? String == newID)
            #expect(parent["__local__"] as? Bool == false)
            #expect(!accounts.contains { $0["Id"] as? String == oldID })
            let contacts = try project.storeRecords("contacts").filter {
                ($0["LastName"] as? String)?.hasPrefix("New") == true
            }
            #expect(contacts.count == 2)
            for contact in contacts {
                #expect(contact["AccountId"] as? String == newID)
                #expect(contact["__local__"] as? Bool == false)
                let id = try #require(contact["Id"] as? String)
                #expect(serverChildren.contains { $0["Id"] as? String == id })
            }

            // A sync down then finds the store already as the server has it.
            try project.runDone(["--only", "treesDown"])
            let after = try project.storeRecords("accounts")
            #expect(after.count == 2)
            #expect(Set(after.compactMap { $0["Id"] as? String }).contains(newID))
        }
    }
}
