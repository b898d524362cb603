import Foundation
import SyncrunTestSupport
import Testing

@testable import LocalOrg

/// Upsert by any field the describe marks `idLookup`, on every API, and the answers real orgs give
/// when such a key matches several records (REST 300, `DUPLICATE_EXTERNAL_ID` per batch record).
struct IDLookupUpsertTests {
    /// Account with `Code__c` (unique, not an external ID: `idLookup` by today's rule) and
    /// `Legacy__c` (an external ID that is not unique, so two records can share a value).
    static func schema() -> OrgSchema {
        var schema = OrgSchema.standard
        if var account = schema.object(named: "Account") {
            account.addOrReplace(OrgField(name: "Code__c", type: .string, length: 40, isUnique: true))
            account.addOrReplace(OrgField(name: "Legacy__c", type: .string, length: 40, isExternalID: true))
            schema.addOrReplace(account)
        }
        return schema
    }

    private static func waitForJob(_ client: LocalOrgTestClient, _ id: String) async throws -> OrgJSONObject {
        for _ in 0..<500 {
            let info = try #require(try await client.send(.GET, "jobs/ingest/\(id)").json().objectValue)
            if ["JobComplete", "Failed", "Aborted"].contains(info["state"]?.stringValue ?? "") { return info }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("job \(id) did not finish")
        return [:]
    }

    @Test func theDescribeAndTheWriterShareOneRule() async throws {
        try await LocalOrgFixture.with(schema: Self.schema()) { org in
            let describe = try await org.client.send(.GET, "sobjects/Account/describe")
            let fields = try #require(try describe.json().objectValue?["fields"]?.arrayValue?.compactMap(\.objectValue))
            let account = try #require(org.database.schema.object(named: "Account"))
            for field in fields {
                let name = try #require(field["name"]?.stringValue)
                #expect(field["idLookup"] == .bool(try #require(account.field(named: name)).isIDLookup), "\(name)")
            }
            #expect(fields.first { $0["name"] == "Code__c" }?["idLookup"] == true)
        }
    }

    @Test func restUpsertByAUniqueIDLookupFieldCreatesThenUpdates() async throws {
        try await LocalOrgFixture.with(schema: Self.schema()) { org in
            let client = org.client
            let created = try await client.send(.PATCH, "sobjects/Account/Code__c/K-1", json: ["Name": "First"])
            #expect(created.status == 201)
            let id = try #require(try created.json().objectValue?["id"]?.stringValue)
            let updated = try await client.send(.PATCH, "sobjects/Account/Code__c/K-1", json: ["Name": "Second"])
            #expect(updated.status == 200)
            #expect(try updated.json().objectValue?["id"] == .string(id))
            let page = try org.database.query("SELECT Name, Code__c FROM Account", apiVersion: "59.0")
            #expect(page.totalSize == 1)
            #expect(String(decoding: page.recordsJSON, as: UTF8.self).contains("Second"))
            let refused = try await client.send(.PATCH, "sobjects/Account/Industry/Energy", json: ["Name": "X"])
            #expect(refused.status == 400)
            #expect(try refused.errorCode() == "INVALID_FIELD")
        }
    }

    @Test func restUpsertMatchingSeveralRecordsAnswers300() async throws {
        try await LocalOrgFixture.with(schema: Self.schema()) { org in
            let client = org.client
            let first = try await client.create("Account", ["Name": "A", "Legacy__c": "L-1"])
            let second = try await client.create("Account", ["Name": "B", "Legacy__c": "L-1"])
            let response = try await client.send(.PATCH, "sobjects/Account/Legacy__c/L-1", json: ["Name": "C"])
            #expect(response.status == 300)
            #expect(response.text.contains(first) && response.text.contains(second))
        }
    }

    @Test func collectionsUpsertByIDLookupAndDuplicateMatchesPerRecord() async throws {
        try await LocalOrgFixture.with(schema: Self.schema()) { org in
            let client = org.client
            _ = try await client.create("Account", ["Name": "A", "Legacy__c": "L-1"])
            _ = try await client.create("Account", ["Name": "B", "Legacy__c": "L-1"])
            let byCode = try await client.send(
                .PATCH,
                "composite/sobjects/Account/Code__c",
                json: [
                    "allOrNone": false,
                    "records": [["attributes": ["type": "Account"], "Code__c": "K-9", "Name": "N"]],
                ]
            )
            let codeResults = try #require(try byCode.json().arrayValue?.compactMap(\.objectValue))
            #expect(codeResults.first?["success"] == true)
            #expect(codeResults.first?["created"] == true)
            let duplicate = try await client.send(
                .PATCH,
                "composite/sobjects/Account/Legacy__c",
                json: [
                    "allOrNone": false,
                    "records": [
                        ["attributes": ["type": "Account"], "Legacy__c": "L-1", "Name": "C"],
                        ["attributes": ["type": "Account"], "Legacy__c": "L-2", "Name": "D"],
                    ],
                ]
            )
            let results = try #require(try duplicate.json().arrayValue?.compactMap(\.objectValue))
            try #require(results.count == 2)
            #expect(results[0]["success"] == false)
            let error = try #require(results[0]["errors"]?.arrayValue?.first?.objectValue)
            #expect(error["statusCode"] == "DUPLICATE_EXTERNAL_ID")
            #expect(error["fields"] == ["Legacy__c"])
            #expect(results[1]["success"] == true)
        }
    }

    @Test func bulk2UpsertByIDLookupAndDuplicateMatchesPerRecord() async throws {
        try await LocalOrgFixture.with(schema: Self.schema()) { org in
            let client = org.client
            _ = try await client.create("Account", ["Name": "A", "Legacy__c": "L-1"])
            _ = try await client.create("Account", ["Name": "B", "Legacy__c": "L-1"])
            for (key, csv) in [
                ("Code__c", "Code__c,Name\nK-1,One\n"), ("Legacy__c", "Legacy__c,Name\nL-1,Dup\nL-3,New\n"),
            ] {
                let created = try await client.send(
                    .POST,
                    "jobs/ingest",
                    json: ["object": "Account", "operation": "upsert", "externalIdFieldName": .string(key)]
                )
                #expect(created.status == 200, "\(key): \(created.text)")
                let id = try #require(try created.json().objectValue?["id"]?.stringValue)
                _ = try await client.send(.PUT, "jobs/ingest/\(id)/batches", body: Data(csv.utf8))
                _ = try await client.send(.PATCH, "jobs/ingest/\(id)", json: ["state": "UploadComplete"])
                let done = try await Self.waitForJob(client, id)
                #expect(done["state"] == "JobComplete")
                if key == "Legacy__c" {
                    #expect(done["numberRecordsFailed"] == .integer(1))
                    let failed = try await client.send(.GET, "jobs/ingest/\(id)/failedResults")
                    #expect(failed.text.contains("DUPLICATE_EXTERNAL_ID"))
                } else {
                    #expect(done["numberRecordsFailed"] == .integer(0))
                }
            }
            let codes = try org.database.query("SELECT Id FROM Account WHERE Code__c = 'K-1'", apiVersion: "59.0")
            #expect(codes.totalSize == 1)
        }
    }
}
