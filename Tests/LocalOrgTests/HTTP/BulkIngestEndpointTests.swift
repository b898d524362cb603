import Foundation
import SyncrunTestSupport
import Testing

@testable import LocalOrg

/// Bulk API 2.0 ingest jobs of the local org, over HTTP.
struct BulkIngestEndpointTests {
    private static func waitForJob(_ client: LocalOrgTestClient, _ id: String) async throws -> OrgJSONObject {
        for _ in 0..<500 {
            let info = try #require(try await client.send(.GET, "jobs/ingest/\(id)").json().objectValue)
            if ["JobComplete", "Failed", "Aborted"].contains(info["state"]?.stringValue ?? "") { return info }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("job \(id) did not finish")
        return [:]
    }

    private static func rows(_ response: TestResponse) throws -> [[String]] {
        try BulkCSVReader.records(response.body, delimiter: UInt8(ascii: ","))
    }

    @Test func anUpsertJobWritesGoodRowsAndReportsBadOnes() async throws {
        try await LocalOrgFixture.with(schema: try externalIDSchema()) { org in
            let client = org.client
            let existing = try await client.create("Account", ["Name": "Old", "External_Id__c": "E-1"])
            let created = try await client.send(
                .POST,
                "jobs/ingest",
                json: ["object": "Account", "operation": "upsert", "externalIdFieldName": "External_Id__c"]
            )
            #expect(created.status == 200)
            let info = try #require(try created.json().objectValue)
            #expect(info["state"] == "Open")
            let id = try #require(info["id"]?.stringValue)
            #expect(info["contentUrl"] == .string("services/data/v59.0/jobs/ingest/\(id)/batches"))
            let csv = "External_Id__c,Name,NumberOfEmployees\nE-1,\"Renamed, Inc.\",5\nE-2,New,\nE-3,Bad,many\n"
            let upload = try await client.send(
                .PUT,
                "jobs/ingest/\(id)/batches",
                body: Data(csv.utf8),
                headers: [("Content-Type", "text/csv")]
            )
            #expect(upload.status == 201)
            let early = try await client.send(.GET, "jobs/ingest/\(id)/successfulResults")
            #expect(try early.errorCode() == "JOB_NOT_COMPLETE")
            let closed = try await client.send(.PATCH, "jobs/ingest/\(id)", json: ["state": "UploadComplete"])
            #expect(try closed.json().objectValue?["state"] == "UploadComplete")
            let done = try await Self.waitForJob(client, id)
            #expect(done["state"] == "JobComplete")
            #expect(done["numberRecordsProcessed"] == .integer(3))
            #expect(done["numberRecordsFailed"] == .integer(1))

            let successes = try Self.rows(try await client.send(.GET, "jobs/ingest/\(id)/successfulResults"))
            #expect(successes.first == ["sf__Id", "sf__Created", "External_Id__c", "Name", "NumberOfEmployees"])
            let byKey = Dictionary(uniqueKeysWithValues: successes.dropFirst().map { ($0[2], $0) })
            #expect(byKey["E-1"]?[0] == existing && byKey["E-1"]?[1] == "false")
            #expect(byKey["E-1"]?[3] == "Renamed, Inc.")
            #expect(byKey["E-2"]?[1] == "true")
            let failures = try Self.rows(try await client.send(.GET, "jobs/ingest/\(id)/failedResults"))
            #expect(failures.count == 2)
            #expect(failures[1][1].hasPrefix("JSON_PARSER_ERROR"))
            #expect(failures[1][2] == "E-3")
            let unprocessed = try Self.rows(try await client.send(.GET, "jobs/ingest/\(id)/unprocessedrecords"))
            #expect(unprocessed == [["External_Id__c", "Name", "NumberOfEmployees"]])
            let names = try org.database.query("SELECT Name FROM Account ORDER BY Name", apiVersion: "59.0")
            #expect(String(decoding: names.recordsJSON, as: UTF8.self).contains("Renamed, Inc."))
            #expect(names.totalSize == 2)
        }
    }

    @Test func unknownColumnsFailTheJobAndAbortLeavesEverythingUnprocessed() async throws {
        try await LocalOrgFixture.with { org in
            let client = org.client
            let job = try #require(
                try await client.send(.POST, "jobs/ingest", json: ["object": "Account", "operation": "insert"])
                    .json().objectValue?["id"]?.stringValue
            )
            _ = try await client.send(.PUT, "jobs/ingest/\(job)/batches", body: Data("Name,Nope__c\nA,1\n".utf8))
            _ = try await client.send(.PATCH, "jobs/ingest/\(job)", json: ["state": "UploadComplete"])
            let failed = try await Self.waitForJob(client, job)
            #expect(failed["state"] == "Failed")
            #expect(failed["errorMessage"] == "InvalidBatch : Field name not found : Nope__c")

            let other = try #require(
                try await client.send(.POST, "jobs/ingest", json: ["object": "Account", "operation": "insert"])
                    .json().objectValue?["id"]?.stringValue
            )
            _ = try await client.send(.PUT, "jobs/ingest/\(other)/batches", body: Data("Name\nA\nB\n".utf8))
            let aborted = try await client.send(.PATCH, "jobs/ingest/\(other)", json: ["state": "Aborted"])
            #expect(try aborted.json().objectValue?["state"] == "Aborted")
            let unprocessed = try await client.send(.GET, "jobs/ingest/\(other)/unprocessedrecords")
            #expect(unprocessed.text == "Name\nA\nB\n")
            let upsertWithoutKey = try await client.send(
                .POST,
                "jobs/ingest",
                json: ["object": "Account", "operation": "upsert"]
            )
            #expect(try upsertWithoutKey.errorCode() == "INVALIDJOB")
        }
    }
}
