import Foundation
import SyncrunTestSupport
import Testing

@testable import LocalOrg

/// Issue 27 item 6: data in is data out. A string value holding a NUL character cannot be stored
/// as sent (SQLite text passes through C strings), so every write path refuses it with an error
/// instead of storing the part before the NUL and reporting success; what is stored reads back as
/// sent, and Bulk result CSVs stay well formed.
struct DataFidelityTests {
    static let withNUL = "rest\u{0}tail"

    private static func expectRefused(_ response: TestResponse, _ label: String) throws {
        #expect(response.status == 400, "\(label): \(response.text)")
        let error = try #require(try response.json().arrayValue?.first?.objectValue, "\(label): \(response.text)")
        #expect(error["errorCode"] == "JSON_PARSER_ERROR", "\(label)")
        #expect(error["fields"] == ["Name"], "\(label)")
        #expect(error["message"]?.stringValue?.contains("NUL character") == true, "\(label)")
        #expect(error["message"]?.stringValue?.contains("rest") == false, "\(label): echoes the value")
    }

    private static func names(_ org: LocalOrgFixture) throws -> [String] {
        let page = try org.database.query("SELECT Name FROM Account ORDER BY Name", apiVersion: "59.0")
        let records = try #require(try OrgJSONValue.decode(page.recordsJSON).arrayValue)
        return records.compactMap { $0.objectValue?["Name"]?.stringValue }
    }

    @Test func restCreateAndUpdateRefuseANULAndKeepWhatWasStored() async throws {
        try await LocalOrgFixture.with { org in
            let client = org.client
            try Self.expectRefused(
                try await client.send(.POST, "sobjects/Account", json: ["Name": .string(Self.withNUL)]),
                "create"
            )
            #expect(try Self.names(org).isEmpty)

            // Every other character survives the round trip, control characters included.
            let sent = "tab\there \"quoted\", comma\r\nline \u{1}\u{7F} é 🌵"
            let id = try await client.create("Account", ["Name": .string(sent)])
            let read = try await client.send(.GET, "sobjects/Account/\(id)?fields=Name")
            #expect(try read.json().objectValue?["Name"] == .string(sent))

            try Self.expectRefused(
                try await client.send(.PATCH, "sobjects/Account/\(id)", json: ["Name": .string(Self.withNUL)]),
                "update"
            )
            let after = try await client.send(.GET, "sobjects/Account/\(id)?fields=Name")
            #expect(try after.json().objectValue?["Name"] == .string(sent))
        }
    }

    @Test func collectionsAndCompositeReportTheNULRecordAsFailed() async throws {
        try await LocalOrgFixture.with { org in
            let client = org.client
            let collection = try await client.send(
                .POST,
                "composite/sobjects",
                json: [
                    "allOrNone": false,
                    "records": [
                        ["attributes": ["type": "Account"], "Name": "Kept"],
                        ["attributes": ["type": "Account"], "Name": .string(Self.withNUL)],
                    ],
                ]
            )
            #expect(collection.status == 200, "\(collection.text)")
            let results = try #require(try collection.json().arrayValue)
            #expect(results.count == 2)
            #expect(results[0].objectValue?["success"] == true)
            #expect(results[1].objectValue?["success"] == false)
            #expect(
                results[1].objectValue?["errors"]?.arrayValue?.first?.objectValue?["statusCode"] == "JSON_PARSER_ERROR"
            )

            let composite = try await client.send(
                .POST,
                "composite",
                json: [
                    "allOrNone": false,
                    "compositeRequest": [
                        [
                            "method": "POST", "url": "/services/data/v59.0/sobjects/Account", "referenceId": "nul",
                            "body": ["Name": .string(Self.withNUL)],
                        ]
                    ],
                ]
            )
            #expect(composite.status == 200, "\(composite.text)")
            let sub = try #require(
                try composite.json().objectValue?["compositeResponse"]?.arrayValue?.first?.objectValue
            )
            #expect(sub["httpStatusCode"] == 400)
            #expect(sub["body"]?.arrayValue?.first?.objectValue?["errorCode"] == "JSON_PARSER_ERROR")
            #expect(try Self.names(org) == ["Kept"])
        }
    }

    @Test func bulkIngestFailsTheNULRowAndItsResultCSVsParse() async throws {
        try await LocalOrgFixture.with { org in
            let client = org.client
            let job = try #require(
                try await client.send(.POST, "jobs/ingest", json: ["object": "Account", "operation": "insert"])
                    .json().objectValue?["id"]?.stringValue
            )
            let csv = "Name,Description\n\"Good, one\",\"a \"\"quote\"\"\"\n\"\(Self.withNUL)\",x\n"
            let upload = try await client.send(.PUT, "jobs/ingest/\(job)/batches", body: Data(csv.utf8))
            #expect(upload.status == 201)
            _ = try await client.send(.PATCH, "jobs/ingest/\(job)", json: ["state": "UploadComplete"])
            var state = ""
            for _ in 0..<500 where !["JobComplete", "Failed", "Aborted"].contains(state) {
                state =
                    try await client.send(.GET, "jobs/ingest/\(job)").json().objectValue?["state"]?.stringValue ?? ""
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(state == "JobComplete")

            let success = try await client.send(.GET, "jobs/ingest/\(job)/successfulResults")
            let successRows = try BulkCSVReader.records(success.body, delimiter: UInt8(ascii: ","))
            #expect(successRows.count == 2)
            #expect(successRows.dropFirst().first?.suffix(2) == ["Good, one", "a \"quote\""])

            let failed = try await client.send(.GET, "jobs/ingest/\(job)/failedResults")
            // The failure CSV holds the row as sent, NUL included, with its quotes closed.
            let failedRows = try BulkCSVReader.records(failed.body, delimiter: UInt8(ascii: ","))
            #expect(failedRows.count == 2, "\(failed.text)")
            let row = try #require(failedRows.dropFirst().first)
            #expect(row.count == 4)
            #expect(row[1].hasPrefix("JSON_PARSER_ERROR:"))
            #expect(row[2] == Self.withNUL)
            #expect(row[3] == "x")
            #expect(try Self.names(org) == ["Good, one"])
        }
    }

    @Test func anExternalIDWithANULMatchesNoOtherRecord() async throws {
        try await LocalOrgFixture.with(schema: try externalIDSchema()) { org in
            let client = org.client
            let id = try await client.create("Account", ["Name": "Original", "External_Id__c": "rest"])
            let upsert = try await client.send(
                .PATCH,
                "sobjects/Account/External_Id__c/rest%00tail",
                json: ["Name": "Overwritten"]
            )
            #expect(upsert.status == 400, "\(upsert.text)")
            let read = try await client.send(.GET, "sobjects/Account/\(id)?fields=Name")
            #expect(try read.json().objectValue?["Name"] == "Original")
        }
    }
}
