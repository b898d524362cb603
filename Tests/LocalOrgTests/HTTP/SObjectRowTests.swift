import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing

/// sObject rows over HTTP: create, retrieve, update (with conditional headers), delete, upsert.
struct SObjectRowTests {
    @Test func createReturns201WithIDAndLocation() async throws {
        try await LocalOrgFixture.with { org in
            // simple-salesforce posts to the trailing-slash spelling.
            let response = try await org.client.send(.POST, "sobjects/Account/", json: ["Name": "Acme"])
            #expect(response.status == 201)
            let body = try #require(try response.json().objectValue)
            let id = try #require(body["id"]?.stringValue)
            #expect(id.count == 18 && id.hasPrefix("001"))
            #expect(body["success"] == true)
            #expect(body["errors"] == [])
            #expect(response.headers.first(name: "Location") == "/services/data/v59.0/sobjects/Account/\(id)")
        }
    }

    @Test func createWithoutRequiredFieldIsRequiredFieldMissing() async throws {
        try await LocalOrgFixture.with { org in
            let response = try await org.client.send(.POST, "sobjects/Account", json: ["Industry": "Banking"])
            #expect(response.status == 400)
            let error = try #require(try response.json().arrayValue?.first?.objectValue)
            #expect(error["errorCode"] == "REQUIRED_FIELD_MISSING")
            #expect(error["fields"] == ["Name"])
        }
    }

    @Test func retrieveHonoursFieldsAndSendsETagAndLastModified() async throws {
        try await LocalOrgFixture.with { org in
            let client = org.client
            let id = try await client.create("Account", ["Name": "Acme", "Industry": "Banking"])
            let response = try await client.send(.GET, "sobjects/Account/\(id)?fields=Name,Industry")
            #expect(response.status == 200)
            let record = try #require(try response.json().objectValue)
            #expect(record["Name"] == "Acme")
            #expect(record["Industry"] == "Banking")
            #expect(record["Phone"] == nil)
            #expect(record["attributes"]?.objectValue?["type"] == "Account")
            let etag = try #require(response.headers.first(name: "ETag"))
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))
            #expect(response.headers.first(name: "Last-Modified")?.hasSuffix(" GMT") == true)

            let unchanged = try await client.send(.GET, "sobjects/Account/\(id)", headers: [("If-None-Match", etag)])
            #expect(unchanged.status == 304)
        }
    }

    @Test func updateIs204AndChangesTheRecord() async throws {
        try await LocalOrgFixture.with { org in
            let client = org.client
            let id = try await client.create("Account", ["Name": "Acme"])
            let response = try await client.send(.PATCH, "sobjects/Account/\(id)", json: ["Name": "Acme Corp"])
            #expect(response.status == 204)
            #expect(response.body.isEmpty)
            let record = try await client.send(.GET, "sobjects/Account/\(id)?fields=Name")
            #expect(try record.json().objectValue?["Name"] == "Acme Corp")
        }
    }

    @Test func ifUnmodifiedSinceIs412AfterAConcurrentChange() async throws {
        let clock = HTTPTestClock(Date(timeIntervalSince1970: 1_700_000_000))
        let databaseConfiguration = OrgDatabase.Configuration(now: { clock.now })
        try await LocalOrgFixture.with(databaseConfiguration: databaseConfiguration) { org in
            let client = org.client
            let id = try await client.create("Account", ["Name": "Acme"])
            let read = try await client.send(.GET, "sobjects/Account/\(id)")
            let lastModified = try #require(read.headers.first(name: "Last-Modified"))
            #expect(lastModified == "Tue, 14 Nov 2023 22:13:20 GMT")
            // Another client changes the record a minute later.
            clock.advance(by: 60)
            #expect(try await client.send(.PATCH, "sobjects/Account/\(id)", json: ["Name": "Theirs"]).status == 204)

            let conflicting = try await client.send(
                .PATCH,
                "sobjects/Account/\(id)",
                json: ["Name": "Mine"],
                headers: [("If-Unmodified-Since", lastModified)]
            )
            #expect(conflicting.status == 412)
            #expect(try conflicting.errorCode() == "PRECONDITION_FAILED")
            let record = try await client.send(.GET, "sobjects/Account/\(id)?fields=Name")
            #expect(try record.json().objectValue?["Name"] == "Theirs")

            let current = try #require(record.headers.first(name: "Last-Modified"))
            let fresh = try await client.send(
                .PATCH,
                "sobjects/Account/\(id)",
                json: ["Name": "Mine"],
                headers: [("If-Unmodified-Since", current)]
            )
            #expect(fresh.status == 204)
        }
    }

    @Test func ifMatchIs412WhenTheETagIsStale() async throws {
        try await LocalOrgFixture.with { org in
            let client = org.client
            let id = try await client.create("Account", ["Name": "Acme"])
            let etag = try #require(try await client.send(.GET, "sobjects/Account/\(id)").headers.first(name: "ETag"))
            #expect(try await client.send(.PATCH, "sobjects/Account/\(id)", json: ["Name": "B"]).status == 204)
            let stale = try await client.send(
                .PATCH,
                "sobjects/Account/\(id)",
                json: ["Name": "C"],
                headers: [("If-Match", etag)]
            )
            #expect(stale.status == 412)
            let current = try #require(
                try await client.send(.GET, "sobjects/Account/\(id)").headers.first(name: "ETag")
            )
            let fresh = try await client.send(
                .PATCH,
                "sobjects/Account/\(id)",
                json: ["Name": "C"],
                headers: [("If-Match", current)]
            )
            #expect(fresh.status == 204)
        }
    }

    @Test func malformedIfUnmodifiedSinceIs400() async throws {
        try await LocalOrgFixture.with { org in
            let client = org.client
            let id = try await client.create("Account", ["Name": "Acme"])
            let response = try await client.send(
                .PATCH,
                "sobjects/Account/\(id)",
                json: ["Name": "B"],
                headers: [("If-Unmodified-Since", "yesterday")]
            )
            #expect(response.status == 400)
        }
    }

    @Test func deleteIs204ThenEntityIsDeletedAndUnknownIsNotFound() async throws {
        try await LocalOrgFixture.with { org in
            let client = org.client
            let id = try await client.create("Account", ["Name": "Acme"])
            #expect(try await client.send(.DELETE, "sobjects/Account/\(id)").status == 204)
            let again = try await client.send(.DELETE, "sobjects/Account/\(id)")
            #expect(again.status == 404)
            #expect(try again.errorCode() == "ENTITY_IS_DELETED")
            let unknown = try await client.send(.GET, "sobjects/Account/001000000000000AAA")
            #expect(unknown.status == 404)
            #expect(try unknown.errorCode() == "NOT_FOUND")
        }
    }

    @Test func upsertCreatesThenUpdatesAndReportsCreated() async throws {
        try await LocalOrgFixture.with(schema: try externalIDSchema()) { org in
            let client = org.client
            let created = try await client.send(.PATCH, "sobjects/Account/External_Id__c/E-1", json: ["Name": "One"])
            #expect(created.status == 201)
            let createdBody = try #require(try created.json().objectValue)
            #expect(createdBody["created"] == true)
            let id = try #require(createdBody["id"]?.stringValue)

            let updated = try await client.send(.PATCH, "sobjects/Account/External_Id__c/E-1", json: ["Name": "Uno"])
            #expect(updated.status == 200)
            #expect(try updated.json().objectValue?["created"] == false)
            #expect(try updated.json().objectValue?["id"]?.stringValue == id)

            var old = client
            old.version = "45.0"
            let legacy = try await old.send(.PATCH, "sobjects/Account/External_Id__c/E-1", json: ["Name": "Eins"])
            #expect(legacy.status == 204)

            let byKey = try await client.send(.GET, "sobjects/Account/External_Id__c/E-1")
            #expect(try byKey.json().objectValue?["Name"] == "Eins")
        }
    }

    @Test func upsertMatchingSeveralRecordsIs300() async throws {
        try await LocalOrgFixture.with(schema: try externalIDSchema()) { org in
            let client = org.client
            _ = try await client.create("Account", ["Name": "A", "Legacy_Key__c": "K"])
            _ = try await client.create("Account", ["Name": "B", "Legacy_Key__c": "K"])
            let response = try await client.send(.PATCH, "sobjects/Account/Legacy_Key__c/K", json: ["Name": "C"])
            #expect(response.status == 300)
            #expect(try response.json().arrayValue?.count == 2)
        }
    }

    @Test func duplicateExternalIDIsDuplicateValue() async throws {
        try await LocalOrgFixture.with(schema: try externalIDSchema()) { org in
            let client = org.client
            _ = try await client.create("Account", ["Name": "A", "External_Id__c": "X"])
            let response = try await client.send(.POST, "sobjects/Account", json: ["Name": "B", "External_Id__c": "X"])
            #expect(response.status == 400)
            #expect(try response.errorCode() == "DUPLICATE_VALUE")
        }
    }

    @Test func unknownObjectIsNotFound() async throws {
        try await LocalOrgFixture.with { org in
            let response = try await org.client.send(.POST, "sobjects/Nope__c", json: ["Name": "A"])
            #expect(response.status == 404)
            #expect(try response.errorCode() == "NOT_FOUND")
        }
    }

    @Test func malformedJSONBodyIsJSONParserError() async throws {
        try await LocalOrgFixture.with { org in
            let response = try await org.client.send(.POST, "sobjects/Account", body: Data("{\"Name\": ".utf8))
            #expect(response.status == 400)
            #expect(try response.errorCode() == "JSON_PARSER_ERROR")
        }
    }
}

/// A clock the test moves by hand, read by the database for audit fields.
///
/// `@unchecked Sendable`: `instant` is only touched while `lock` is held.
final class HTTPTestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var instant: Date

    init(_ start: Date) { instant = start }

    var now: Date { lock.withLock { instant } }

    func advance(by seconds: TimeInterval) {
        lock.withLock { instant = instant.addingTimeInterval(seconds) }
    }
}
