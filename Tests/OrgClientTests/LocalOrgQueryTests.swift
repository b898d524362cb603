import Foundation
import LocalOrg
import OrgClient
import SyncrunTestSupport
import Testing

/// Queries, search and metadata against the real local org.
struct LocalOrgQueryTests {
    @Test func pagesThroughAQueryWithASmallPageSize() async throws {
        try await LocalOrgFixture.with(configuration: LocalOrgConfiguration(pageSize: 3)) { org in
            try await org.withClient { client, _, _ in
                let ids = try await client.seedAccounts(10)
                var pages: [QueryPage] = []
                for try await page in client.queryPages(
                    "SELECT Id, Name FROM Account ORDER BY Name",
                    options: .init()
                ) {
                    pages.append(page)
                }
                #expect(pages.count == 4)
                #expect(pages.map(\.totalSize) == [10, 10, 10, 10])
                #expect(pages.map(\.isDone) == [false, false, false, true])
                #expect(
                    pages.dropLast().allSatisfy {
                        $0.nextRecordsURL?.hasPrefix("/services/data/v62.0/query") == true
                    }
                )
                let records = try pages.flatMap { try $0.records() }
                #expect(try pages.map { try $0.records().count } == [3, 3, 3, 1])
                #expect(Set(records.compactMap { $0["Id"]?.stringValue }) == Set(ids))
                #expect(records.first?["Name"] == "Account 0")
                #expect(client.statistics().requests == 1 + 4)
            }
        }
    }

    @Test func sendsTheBatchSize() async throws {
        try await LocalOrgFixture.with { org in
            try await org.withClient { client, _, _ in
                _ = try await client.seedAccounts(450)
                var sizes: [Int] = []
                for try await page in client.queryPages("SELECT Id FROM Account", options: .init(batchSize: 200)) {
                    sizes.append(try page.records().count)
                }
                #expect(sizes == [200, 200, 50])
                let single = try await client.queryFirstPage("SELECT Id FROM Account", options: .init())
                #expect(try single.records().count == 450)
                #expect(single.isDone)
            }
        }
    }

    @Test func queryAllIncludesDeletedRecords() async throws {
        try await LocalOrgFixture.with { org in
            try await org.withClient { client, _, _ in
                let ids = try await client.seedAccounts(3)
                try await client.delete("Account", id: ids[0])
                let live = try await client.queryFirstPage("SELECT Id FROM Account", options: .init())
                let all = try await client.queryFirstPage(
                    "SELECT Id, IsDeleted FROM Account",
                    options: .init(includesDeleted: true)
                )
                #expect(live.totalSize == 2)
                #expect(all.totalSize == 3)
                #expect(try all.records().contains { $0["Id"]?.stringValue == ids[0] && $0["IsDeleted"] == true })
            }
        }
    }

    @Test func aBadQueryIsMalformedQuery() async throws {
        try await LocalOrgFixture.with { org in
            try await org.withClient { client, _, _ in
                let error = await #expect(throws: OrgClientError.self) {
                    _ = try await client.queryFirstPage("SELECT Id FRM Account", options: .init())
                }
                #expect(error?.code == .badRequest)
                #expect(error?.httpStatus == 400)
                #expect(error?.serverErrorCode == "MALFORMED_QUERY")
                #expect(error?.attempts == 1)
                #expect(client.statistics().retries == 0)
            }
        }
    }

    @Test func aBadTokenIsAnAuthenticationError() async throws {
        try await LocalOrgFixture.with { org in
            try await org.withClient(accessToken: "not-the-token") { client, _, logs in
                let error = await #expect(throws: OrgClientError.self) {
                    _ = try await client.queryFirstPage("SELECT Id FROM Account", options: .init())
                }
                #expect(error?.code == .authentication)
                #expect(error?.serverErrorCode == "INVALID_SESSION_ID")
                #expect(error?.message.contains("not-the-token") == false)
                #expect(!logs.allText.contains("not-the-token"))
            }
        }
    }

    @Test func describesObjects() async throws {
        try await LocalOrgFixture.with { org in
            try await org.withClient { client, _, _ in
                let global = try await client.describeGlobal()
                #expect(global.objects.contains { $0.name == "Account" && $0.keyPrefix == "001" && $0.isQueryable })
                let account = try await client.describe("Account")
                #expect(account.name == "Account")
                let name = try #require(account.field(named: "name"))
                #expect(name.type == "string")
                #expect(name.isCreateable && name.isUpdateable)
                let owner = try #require(account.field(named: "OwnerId"))
                #expect(owner.referenceTo == ["User"])
                #expect(owner.relationshipName == "Owner")
                #expect(account.field(named: "Id")?.isCreateable == false)
                #expect(
                    account.childRelationships.contains {
                        $0.childSObject == "Contact" && $0.relationshipName == "Contacts"
                    }
                )
                let error = await #expect(throws: OrgClientError.self) { _ = try await client.describe("Nope__c") }
                #expect(error?.code == .notFound)
            }
        }
    }

    @Test func identityGivesTheSessionsOrgAndUser() async throws {
        try await LocalOrgFixture.with { org in
            try await org.withClient { client, _, _ in
                let identity = try await client.identity()
                #expect(identity.organizationID == org.database.organizationID)
                #expect(identity.userID == org.database.userID)
                // Records created through the API are stamped with that user.
                let id = try await client.create("Account", fields: ["Name": "Mine"])
                let page = try await client.queryFirstPage(
                    "SELECT Id FROM Account WHERE CreatedById = '\(identity.userID)' AND CreatedDate >= 2000-01-01T00:00:00Z",
                    options: QueryOptions()
                )
                #expect(try page.body.parse()["records"]?.arrayValue?.compactMap { $0["Id"]?.stringValue } == [id])
            }
        }
    }

    @Test(arguments: [
        ("https://login.example.com/id/00Dxx0000001gPL/005xx000001Sv6m", "00Dxx0000001gPL", "005xx000001Sv6m"),
        (
            "http://127.0.0.1:8080/id/00D000000000001AAA/005000000000001AAA?version=1", "00D000000000001AAA",
            "005000000000001AAA"
        ),
    ])
    func identityURLsParse(url: String, organizationID: String, userID: String) {
        #expect(OrgUserIdentity(identityURL: url) == OrgUserIdentity(organizationID: organizationID, userID: userID))
    }

    @Test func aURLWithoutAnIdentityPathDoesNotParse() {
        #expect(OrgUserIdentity(identityURL: "https://login.example.com/services/oauth2/userinfo") == nil)
    }

    @Test func searchesAndListsRecentRecordsAndLimits() async throws {
        try await LocalOrgFixture.with { org in
            try await org.withClient { client, _, _ in
                let acme = try await client.create("Account", fields: ["Name": "Acme Rockets"])
                _ = try await client.create("Account", fields: ["Name": "Globex"])
                let found = try await client.search("FIND {Acme} IN ALL FIELDS RETURNING Account(Id, Name)")
                let records = try found.parse()["searchRecords"]?.arrayValue ?? []
                #expect(records.compactMap { $0["Id"]?.stringValue } == [acme])
                let recent = try await client.recentlyViewedIDs("Account", limit: 1)
                #expect(recent.count == 1)
                let limits = try await client.limits()
                #expect(limits["DailyApiRequests"]?.max == 100_000)
                let usage = try #require(client.statistics().apiUsage)
                #expect(usage.max == 100_000)
                #expect(usage.used >= 4)
            }
        }
    }
}
