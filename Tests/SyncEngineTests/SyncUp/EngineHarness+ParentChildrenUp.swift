import Foundation
import LocalOrg
import OrgClient
import SoupStore
import SyncConfig
import SyncEngine

/// Local trees for parent-children sync up tests: accounts (`accounts`) with contacts (`contacts`).
extension EngineHarness {
    /// Adds a locally created contact under `accountID` (server or local id); returns its entry id.
    @discardableResult
    func createContactLocally(_ lastName: String, accountID: String) throws -> Int64 {
        let record: [String: OrgValue] = [
            "attributes": ["type": "Contact"], "Id": .string("local_\(UUID().uuidString)"),
            "LastName": .string(lastName), "AccountId": .string(accountID), "__local__": true,
            "__locally_created__": true, "__locally_updated__": false, "__locally_deleted__": false,
        ]
        return try store.write { try $0.upsert(OrgValue.object(record).jsonText, into: "contacts").entryID }
    }

    /// The stored contacts, each as its document.
    func storedContacts() throws -> [[String: OrgValue]] {
        var contacts: [[String: OrgValue]] = []
        try store.read { reader in
            try reader.forEachEntry(in: "contacts") {
                contacts.append(try OrgValue(parsing: $0.json).objectValue ?? [:])
            }
        }
        return contacts
    }

    /// The Contact `id` as the org holds it, or `nil` when it does not exist.
    func serverContact(_ id: String) throws -> [String: OrgValue]? {
        guard let data = try? database.retrieve("Contact", id: id, apiVersion: "62.0") else { return nil }
        return try OrgValue(parsing: String(decoding: data, as: UTF8.self)).objectValue
    }

    /// Syncs accounts with their contacts down (parent_children), then moves the org's clock on.
    func syncDownTrees() async throws {
        _ = try await engine().syncDown(Definitions.accountsWithContacts("treesDown"))
        clock.advance(seconds: 5)
    }

    /// Composite calls (`POST /composite`) since the log had `since` entries.
    func compositeCalls(since: Int = 0) throws -> Int {
        try requestLog().dropFirst(since).filter { $0.method == "POST" && $0.path.hasSuffix("/composite") }.count
    }
}

extension UpDefinitions {
    /// A parent_children sync up of accounts with their contacts.
    static func trees(
        relationship: RelationshipType = .lookup,
        mergeMode: SyncConfig.MergeMode = .overwrite
    ) -> SyncDefinition {
        SyncDefinition(
            name: "treesUp",
            type: .syncUp,
            soupName: "accounts",
            target: .up(
                SyncUpTarget(
                    kind: .parentChildren,
                    createFieldlist: ["Name"],
                    updateFieldlist: ["Name"],
                    parentChildren: ParentChildrenSyncUpInfo(
                        parent: ParentInfo(sobjectType: "Account", soupName: "accounts"),
                        children: ChildrenInfo(
                            sobjectType: "Contact",
                            sobjectTypePlural: "Contacts",
                            soupName: "contacts",
                            parentIdFieldName: "AccountId"
                        ),
                        childrenCreateFieldlist: ["LastName"],
                        childrenUpdateFieldlist: ["LastName"],
                        relationshipType: relationship
                    )
                )
            ),
            options: SyncOptions(mergeMode: mergeMode)
        )
    }
}
