import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing

/// Versions, resources, describe, search, recent items, limits, routing and common headers.
struct DiscoveryEndpointTests {
    @Test(arguments: ["/services/data", "/services/data/"])
    func versionsListNeedsNoAuth(path: String) async throws {
        try await LocalOrgFixture.with { org in
            let response = try await org.client.send(.GET, path, token: .none)
            #expect(response.status == 200)
            let versions = try #require(try response.json().arrayValue?.compactMap { $0.objectValue })
            let v59 = try #require(versions.first { $0["version"] == "59.0" })
            #expect(v59["label"] == "Winter '24")
            #expect(v59["url"] == "/services/data/v59.0")
            #expect(versions.contains { $0["version"] == "66.0" })
        }
    }

    @Test func resourcesByVersionListTheResources() async throws {
        try await LocalOrgFixture.with { org in
            let response = try await org.client.send(.GET, "/services/data/v59.0/")
            let resources = try #require(try response.json().objectValue)
            #expect(resources["sobjects"] == "/services/data/v59.0/sobjects")
            #expect(resources["identity"]?.stringValue?.contains("/id/00D") == true)
        }
    }

    @Test(arguments: ["sobjects", "sobjects/"])
    func describeGlobalListsTheObjects(path: String) async throws {
        try await LocalOrgFixture.with { org in
            let response = try await org.client.send(.GET, path)
            #expect(response.status == 200)
            let objects = try #require(
                try response.json().objectValue?["sobjects"]?.arrayValue?.compactMap { $0.objectValue }
            )
            let account = try #require(objects.first { $0["name"] == "Account" })
            #expect(account["keyPrefix"] == "001")
        }
    }

    @Test(arguments: ["sobjects/Account/describe", "sobjects/account/describe/"])
    func describeReturnsFieldsAndChildRelationships(path: String) async throws {
        try await LocalOrgFixture.with { org in
            let response = try await org.client.send(.GET, path)
            #expect(response.status == 200)
            let describe = try #require(try response.json().objectValue)
            #expect(describe["name"] == "Account")
            let fields = try #require(describe["fields"]?.arrayValue?.compactMap { $0.objectValue })
            #expect(fields.contains { $0["name"] == "Name" })
            #expect(describe["childRelationships"]?.arrayValue?.isEmpty == false)
        }
    }

    @Test func describeOfAnUnknownObjectIsNotFound() async throws {
        try await LocalOrgFixture.with { org in
            let response = try await org.client.send(.GET, "sobjects/Nope__c/describe")
            #expect(response.status == 404)
            #expect(try response.errorCode() == "NOT_FOUND")
        }
    }

    @Test func basicInfoAndRecentListViewedRecords() async throws {
        try await LocalOrgFixture.with { org in
            let client = org.client
            let id = try await client.create("Account", ["Name": "Acme"])
            _ = try await client.send(.GET, "sobjects/Account/\(id)")
            let info = try #require(try await client.send(.GET, "sobjects/Account").json().objectValue)
            #expect(info["objectDescribe"]?.objectValue?["name"] == "Account")
            #expect(info["recentItems"]?.arrayValue?.first?.objectValue?["Id"] == .string(id))
            let recent = try await client.send(.GET, "recent/?limit=10")
            #expect(recent.status == 200)
            #expect(try recent.json().arrayValue?.first?.objectValue?["Id"] == .string(id))
        }
    }

    @Test func searchFindsByName() async throws {
        try await LocalOrgFixture.with { org in
            let client = org.client
            _ = try await client.create("Account", ["Name": "Acme Widgets"])
            _ = try await client.create("Account", ["Name": "Globex"])
            let response = try await client.send(
                .GET,
                "search/?q=FIND+%7BAcme%7D+IN+NAME+FIELDS+RETURNING+Account(Id,Name)"
            )
            #expect(response.status == 200, "\(response.text)")
            let records = try #require(try response.json().objectValue?["searchRecords"]?.arrayValue)
            #expect(records.compactMap { $0.objectValue?["Name"] } == ["Acme Widgets"])
            let malformed = try await client.send(.GET, "search?q=SEARCH+Acme")
            #expect(malformed.status == 400)
        }
    }

    @Test func limitsReportTheDailyAllocation() async throws {
        try await LocalOrgFixture.with(configuration: LocalOrgConfiguration(apiRequestLimit: 500)) { org in
            let response = try await org.client.send(.GET, "limits/")
            let daily = try #require(try response.json().objectValue?["DailyApiRequests"]?.objectValue)
            #expect(daily["Max"] == 500)
            #expect(daily["Remaining"] == 499)
            #expect(response.headers.first(name: "Sforce-Limit-Info") == "api-usage=1/500")
        }
    }

    @Test(arguments: [
        "/services/data/v59.0/nothing", "/services/data/vX/limits", "/nothing",
        "/services/data/v59.0/sobjects/Account/a/b/c",
    ])
    func unknownRoutesAreNotFound(path: String) async throws {
        try await LocalOrgFixture.with { org in
            let response = try await org.client.send(.GET, path)
            #expect(response.status == 404)
            #expect(try response.errorCode() == "NOT_FOUND")
            #expect(response.headers.first(name: "Sforce-Limit-Info") != nil)
        }
    }

    @Test func prettyPrintAndUnknownSforceHeadersAreTolerated() async throws {
        try await LocalOrgFixture.with { org in
            let response = try await org.client.send(
                .GET,
                "limits",
                headers: [("X-PrettyPrint", "1"), ("Sforce-Call-Options", "client=test")]
            )
            #expect(response.status == 200)
        }
    }
}
