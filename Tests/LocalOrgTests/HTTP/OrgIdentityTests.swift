import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing

/// Each local org has IDs of its own, as real orgs do: a random organization ID and record-ID space,
/// stable once created, reproducible with an ID seed; its files are private to their owner.
struct OrgIdentityTests {
    /// The organization ID and the ID of a new Account, read over HTTP as a client would.
    private static func ids(_ org: LocalOrgFixture) async throws -> (organization: String, account: String) {
        let response = try await org.client.send(.GET, "query?q=SELECT+Id+FROM+Organization")
        let records = try #require(try response.json().objectValue?["records"]?.arrayValue)
        let organization = try #require(records.first?.objectValue?["Id"]?.stringValue)
        let account = try await org.client.create("Account", ["Name": "Acme"])
        return (organization, account)
    }

    @Test func twoFreshOrgsHaveDifferentOrganizationAndRecordIDs() async throws {
        let first = try await LocalOrgFixture.with { try await Self.ids($0) }
        let second = try await LocalOrgFixture.with { try await Self.ids($0) }
        #expect(first.organization != second.organization)
        #expect(first.account != second.account)
        for id in [first.organization, second.organization, first.account, second.account] {
            // 18 characters whose suffix is the case-safe checksum of the first 15.
            #expect(id.count == 18 && OrgRecordID.caseSafe(String(id.prefix(15))) == id)
        }
        #expect(first.organization.hasPrefix("00D") && second.organization.hasPrefix("00D"))
        #expect(first.account.hasPrefix("001"))
        // One org's records share its instance characters (after the key prefix).
        #expect(Array(first.organization)[3..<6] == Array(first.account)[3..<6])
    }

    @Test func anIDSeedGivesTheSameIDsOnEveryRun() async throws {
        let seeded = OrgDatabase.Configuration(idSeed: 42)
        let first = try await LocalOrgFixture.with(databaseConfiguration: seeded) { try await Self.ids($0) }
        let again = try await LocalOrgFixture.with(databaseConfiguration: seeded) { try await Self.ids($0) }
        let other = try await LocalOrgFixture.with(databaseConfiguration: OrgDatabase.Configuration(idSeed: 43)) {
            try await Self.ids($0)
        }
        #expect(first.organization == again.organization && first.account == again.account)
        #expect(first.organization != other.organization && first.account != other.account)
    }

    @Test func theIDSpaceIsStoredWithTheOrgAndIDsKeepIncreasing() throws {
        try TemporaryDirectory.withSync { directory in
            let data = directory.appendingPathComponent("org")
            let org = try OrgDatabase(directory: data)
            let first = try org.write { try $0.create("Account", fields: ["Name": "A"]) }
            // Reopened with another seed: the stored space wins.
            let reopened = try OrgDatabase(directory: data, configuration: OrgDatabase.Configuration(idSeed: 1))
            #expect(reopened.organizationID == org.organizationID && reopened.userID == org.userID)
            let second = try reopened.write { try $0.create("Account", fields: ["Name": "B"]) }
            #expect(first.prefix(6) == second.prefix(6))
            #expect(first < second)
            let page = try reopened.query("SELECT Id FROM Account ORDER BY Id", apiVersion: "59.0")
            let records = try OrgJSONValue.decode(page.responseBody(apiVersion: "59.0")).objectValue?["records"]
            #expect(records?.arrayValue?.compactMap { $0.objectValue?["Id"]?.stringValue } == [first, second])
        }
    }

    @Test func dataFilesAreCreatedPrivate() throws {
        try TemporaryDirectory.withSync { directory in
            let data = directory.appendingPathComponent("nested/org")
            let org = try OrgDatabase(directory: data)
            try org.write { _ = try $0.create("Account", fields: ["Name": "A"]) }
            func mode(_ path: String) throws -> Int {
                let attributes = try FileManager.default.attributesOfItem(atPath: path)
                return try #require(attributes[.posixPermissions] as? Int) & 0o777
            }
            #expect(try mode(data.path) == 0o700)
            let files = try FileManager.default.contentsOfDirectory(atPath: data.path)
            #expect(files.contains(OrgDatabase.fileName) && files.contains(OrgDatabase.fileName + "-wal"))
            for file in files {
                #expect(try mode(data.appendingPathComponent(file).path) == 0o600, "\(file)")
            }
        }
    }
}
