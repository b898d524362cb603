import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing

/// `query` / `queryAll` over HTTP: paging with `nextRecordsUrl`, `Sforce-Query-Options`, errors.
struct QueryEndpointTests {
    @Test func pagesThroughThreeOrMorePagesWithNextRecordsURL() async throws {
        try await LocalOrgFixture.with(configuration: LocalOrgConfiguration(pageSize: 4)) { org in
            let client = org.client
            try client.seedAccounts(10)
            var response = try await client.send(.GET, "query?q=SELECT+Id,+Name+FROM+Account+ORDER+BY+Name")
            #expect(response.status == 200)
            #expect(response.headers.first(name: "Content-Type") == "application/json;charset=UTF-8")
            var names: [String] = []
            var pages = 0
            while true {
                let page = try #require(try response.json().objectValue)
                pages += 1
                #expect(page["totalSize"] == 10)
                let records = try #require(page["records"]?.arrayValue)
                names += records.compactMap { $0.objectValue?["Name"]?.stringValue }
                if page["done"] == true {
                    #expect(page["nextRecordsUrl"] == nil)
                    break
                }
                let next = try #require(page["nextRecordsUrl"]?.stringValue)
                #expect(next.hasPrefix("/services/data/v59.0/query/"))
                response = try await client.send(.GET, next)
                #expect(response.status == 200)
            }
            #expect(pages == 3)
            #expect(names == (0..<10).map { String(format: "Account %04d", $0) })
        }
    }

    @Test(arguments: [("batchSize=200", 200), ("batchSize=50", 200), ("batchSize=5000", 2000), ("batchSize=700", 700)])
    func batchSizeIsClampedTo200Through2000(header: String, expected: Int) async throws {
        try await LocalOrgFixture.with { org in
            let client = org.client
            try client.seedAccounts(2100)
            let response = try await client.send(
                .GET,
                "query/?q=SELECT+Id+FROM+Account",
                headers: [("Sforce-Query-Options", header)]
            )
            let page = try #require(try response.json().objectValue)
            #expect(page["records"]?.arrayValue?.count == expected)
            #expect(page["done"] == false)
        }
    }

    @Test func queryAllReturnsDeletedRecordsAndQueryDoesNot() async throws {
        try await LocalOrgFixture.with { org in
            let client = org.client
            let id = try await client.create("Account", ["Name": "Gone"])
            _ = try await client.create("Account", ["Name": "Kept"])
            #expect(try await client.send(.DELETE, "sobjects/Account/\(id)").status == 204)
            let live = try await client.send(.GET, "query?q=SELECT+Id+FROM+Account")
            #expect(try live.json().objectValue?["totalSize"] == 1)
            let all = try await client.send(.GET, "queryAll/?q=SELECT+Id,+IsDeleted+FROM+Account")
            #expect(try all.json().objectValue?["totalSize"] == 2)
        }
    }

    @Test func decodesPlusAsSpaceAndPercentEscapes() async throws {
        try await LocalOrgFixture.with { org in
            let client = org.client
            _ = try await client.create("Account", ["Name": "Acme Corp"])
            let response = try await client.send(.GET, "query?q=SELECT+Name+FROM+Account+WHERE+Name+=+'Acme%20Corp'")
            #expect(response.status == 200, "\(response.text)")
            #expect(try response.json().objectValue?["totalSize"] == 1)
        }
    }

    @Test func malformedQueryIs400MalformedQuery() async throws {
        try await LocalOrgFixture.with { org in
            let response = try await org.client.send(.GET, "query?q=SELECT+Id+FRM+Account")
            #expect(response.status == 400)
            #expect(try response.errorCode() == "MALFORMED_QUERY")
        }
    }

    @Test func unknownFieldIs400InvalidField() async throws {
        try await LocalOrgFixture.with { org in
            let response = try await org.client.send(.GET, "query?q=SELECT+Foo__c+FROM+Account")
            #expect(response.status == 400)
            #expect(try response.errorCode() == "INVALID_FIELD")
        }
    }

    @Test func unknownLocatorIsInvalidQueryLocator() async throws {
        try await LocalOrgFixture.with { org in
            let response = try await org.client.send(.GET, "query/0r8xx0000000001AAA-2000")
            #expect(response.status == 400)
            #expect(try response.errorCode() == "INVALID_QUERY_LOCATOR")
        }
    }

    @Test func missingQueryTextIs400() async throws {
        try await LocalOrgFixture.with { org in
            let response = try await org.client.send(.GET, "query")
            #expect(response.status == 400)
            #expect(try response.errorCode() == "MALFORMED_QUERY")
        }
    }

    @Test func queryAcceptsOnlyGet() async throws {
        try await LocalOrgFixture.with { org in
            let response = try await org.client.send(.POST, "query?q=SELECT+Id+FROM+Account", json: [:])
            #expect(response.status == 405)
            #expect(try response.errorCode() == "METHOD_NOT_ALLOWED")
        }
    }
}
