import LocalOrg
import OrgClient
import SoupStore
import SyncConfig
import SyncEngine

/// Accounts with their contacts: the org data, the `contacts` soup and the definition.
extension EngineHarness {
    static let contactsSoup = SoupSpec(
        name: "contacts",
        indexes: [
            IndexSpec(path: "Id", type: .string), IndexSpec(path: "AccountId", type: .string),
            IndexSpec(path: "__local__", type: .string), IndexSpec(path: "__sync_id__", type: .integer),
        ]
    )

    /// Registers the `contacts` soup.
    func registerContactsSoup() async throws {
        try await store.write { writer in _ = try writer.registerSoup(Self.contactsSoup) }
    }

    /// Creates one account per name, each with `contactsEach` contacts named `<account>-<n>`.
    /// - Returns: The account ids and, per account, its contact ids.
    @discardableResult
    func createAccountsWithContacts(_ names: [String], contactsEach: Int) throws -> [(String, [String])] {
        try names.map { name in
            let accountID = try database.write { try $0.create("Account", fields: ["Name": .string(name)]) }
            let contactIDs = try (1...contactsEach).map { index in
                try createChild("\(name)-\(index)", accountID: accountID)
            }
            return (accountID, contactIDs)
        }
    }

    @discardableResult
    func createChild(_ lastName: String, accountID: String) throws -> String {
        try database.write {
            try $0.create("Contact", fields: ["LastName": .string(lastName), "AccountId": .string(accountID)])
        }
    }

    func updateChild(_ id: String, lastName: String) throws {
        try database.write { try $0.update("Contact", id: id, fields: ["LastName": .string(lastName)]) }
    }

    /// Marks the stored record `id` of `soup` as locally updated with `field` = `value`.
    func markLocallyChanged(_ id: String, field: String, value: String, in soup: String) throws {
        try store.write { writer in
            guard let entry = try writer.reader.entries(in: soup, wherePath: "Id", isIn: [id]).first else { return }
            var fields = try OrgValue(parsing: entry.json).objectValue ?? [:]
            fields[field] = .string(value)
            fields["__local__"] = .bool(true)
            fields["__locally_updated__"] = .bool(true)
            try writer.upsert(OrgValue.object(fields).jsonText, into: soup)
        }
    }

    /// The stored value of `path` in every record of `soup`, by `Id`.
    func storedValuesByID(_ path: String, in soup: String) throws -> [String: SoupValue] {
        var values: [String: SoupValue] = [:]
        try store.read { reader in
            try reader.query("SELECT {\(soup):Id}, {\(soup):\(path)} FROM {\(soup)}") { row in
                if case .text(let id) = row.values[0] { values[id] = row.values[1] }
            }
        }
        return values
    }
}

extension Definitions {
    /// A `parent_children` sync down of accounts (`accounts`) with their contacts (`contacts`).
    static func accountsWithContacts(
        _ name: String = "trees",
        filter: String? = nil,
        mergeMode: SyncConfig.MergeMode = .overwrite
    ) -> SyncDefinition {
        let target = ParentChildrenSyncDownTarget(
            parent: ParentInfo(sobjectType: "Account", soupName: "accounts"),
            parentFieldlist: ["Name"],
            parentSoqlFilter: filter,
            children: ChildrenInfo(
                sobjectType: "Contact",
                sobjectTypePlural: "Contacts",
                soupName: "contacts",
                parentIdFieldName: "AccountId"
            ),
            childrenFieldlist: ["LastName"],
            relationshipType: .lookup
        )
        return SyncDefinition(
            name: name,
            type: .syncDown,
            soupName: "accounts",
            target: .down(.parentChildren(target)),
            options: SyncOptions(mergeMode: mergeMode)
        )
    }
}
