import Foundation
import NIOHTTP1
import SyncrunTestSupport
import Testing

@testable import LocalOrg

/// Issue 30 item 2 (a Lead's activity relates to nothing) and issue 29's Bulk API 1.0 remainders:
/// typed JSON query results, `hardDelete` past the Recycle Bin, batches counted in `/limits`.
struct ActivityAndBulkFidelityTests {
    private static let namespace = "http://www.force.com/2009/06/asyncapi/dataload"

    private static func v1(
        _ org: LocalOrgFixture,
        _ method: HTTPMethod,
        _ path: String,
        _ body: String? = nil,
        contentType: String = "application/xml"
    ) async throws -> TestResponse {
        try await org.client.send(
            method,
            "/services/async/59.0/\(path)",
            body: body.map { Data($0.utf8) },
            headers: [("X-SFDC-Session", org.accessToken), ("Content-Type", contentType)],
            token: .none
        )
    }

    /// Creates a Bulk 1.0 job, adds one batch, waits for it; returns the job and batch IDs.
    private static func runBatch(
        _ org: LocalOrgFixture,
        operation: String,
        object: String,
        contentType: String,
        body: String
    ) async throws -> (job: String, batch: String) {
        let info =
            contentType == "JSON"
            ? #"{"operation":"\#(operation)","object":"\#(object)","contentType":"JSON"}"#
            : "<jobInfo xmlns=\"\(namespace)\"><operation>\(operation)</operation><object>\(object)</object>"
                + "<contentType>\(contentType)</contentType></jobInfo>"
        let mediaType = contentType == "JSON" ? "application/json" : "application/xml"
        let created = try await v1(org, .POST, "job", info, contentType: mediaType)
        let jobID = try #require(
            contentType == "JSON"
                ? try created.json().objectValue?["id"]?.stringValue
                : try BulkXMLReader.parse(created.body).childText("id")
        )
        let batchType = contentType == "JSON" ? "application/json" : "text/csv"
        let added = try await v1(org, .POST, "job/\(jobID)/batch", body, contentType: batchType)
        let batchID = try #require(
            contentType == "JSON"
                ? try added.json().objectValue?["id"]?.stringValue
                : try BulkXMLReader.parse(added.body).childText("id")
        )
        for _ in 0..<500 {
            let response = try await v1(org, .GET, "job/\(jobID)/batch/\(batchID)")
            let state =
                contentType == "JSON"
                ? try response.json().objectValue?["state"]?.stringValue
                : try BulkXMLReader.parse(response.body).childText("state")
            if state == "Completed" || state == "Failed" { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        return (jobID, batchID)
    }

    // MARK: Issue 30 item 2: a Lead's activity

    @Test func aTaskWhoseWhoIsALeadRefusesAWhatOnEveryWritePath() async throws {
        try await LocalOrgFixture.with { org in
            let client = org.client
            let lead = try await client.create("Lead", ["LastName": "Lee", "Company": "Leads Inc"])
            let account = try await client.create("Account", ["Name": "Acme"])
            let contact = try await client.create("Contact", ["LastName": "Cole"])

            let rest = try await client.send(
                .POST,
                "sobjects/Task",
                json: ["Subject": "Call", "WhoId": .string(lead), "WhatId": .string(account)]
            )
            #expect(rest.status == 400)
            let error = try #require(try rest.json().arrayValue?.first?.objectValue)
            #expect(error["errorCode"] == "FIELD_INTEGRITY_EXCEPTION")
            #expect(error["message"] == "field integrity exception: WhoId, WhatId")
            #expect(error["fields"] == ["WhoId", "WhatId"])

            // A Contact may be related to an Account; a Lead alone is fine.
            _ = try await client.create(
                "Task",
                ["Subject": "Fine", "WhoId": .string(contact), "WhatId": .string(account)]
            )
            let leadTask = try await client.create("Task", ["Subject": "Lead only", "WhoId": .string(lead)])
            // An update adding a WhatId to the stored Lead WhoId.
            let update = try await client.send(.PATCH, "sobjects/Task/\(leadTask)", json: ["WhatId": .string(account)])
            #expect(try update.errorCode() == "FIELD_INTEGRITY_EXCEPTION")
            // Moving the task to a Contact and relating it in one update is fine.
            let moved = try await client.send(
                .PATCH,
                "sobjects/Task/\(leadTask)",
                json: ["WhoId": .string(contact), "WhatId": .string(account)]
            )
            #expect(moved.status == 204)

            let collection = try await client.send(
                .POST,
                "composite/sobjects",
                json: [
                    "records": [
                        [
                            "attributes": ["type": "Task"], "Subject": "C", "WhoId": .string(lead),
                            "WhatId": .string(account),
                        ]
                    ]
                ]
            )
            let result = try #require(try collection.json().arrayValue?.first?.objectValue)
            #expect(result["success"] == false)
            #expect(
                result["errors"]?.arrayValue?.first?.objectValue?["statusCode"] == "FIELD_INTEGRITY_EXCEPTION"
            )

            let bulk = try await Self.runBatch(
                org,
                operation: "insert",
                object: "Task",
                contentType: "CSV",
                body: "Subject,WhoId,WhatId\nB,\(lead),\(account)\n"
            )
            let rows = try BulkCSVReader.records(
                try await Self.v1(org, .GET, "job/\(bulk.job)/batch/\(bulk.batch)/result").body,
                delimiter: UInt8(ascii: ",")
            )
            #expect(rows.last?[3].hasPrefix("FIELD_INTEGRITY_EXCEPTION:") == true)
            let tasks = try org.database.query("SELECT Subject FROM Task ORDER BY Subject", apiVersion: "59.0")
            #expect(tasks.totalSize == 2)
        }
    }

    // MARK: Issue 29: Bulk API 1.0 remainders

    @Test func jsonQueryResultsAreTypedAsARealOrgTypesThemAndCSVStaysText() async throws {
        try await LocalOrgFixture.with(
            databaseConfiguration: .init(now: { Date(timeIntervalSince1970: 1_700_000_000) })
        ) { org in
            _ = try await org.client.create(
                "Account",
                ["Name": "Acme", "NumberOfEmployees": 12, "AnnualRevenue": 2.5]
            )
            let soql = "SELECT Id, Name, NumberOfEmployees, AnnualRevenue, IsDeleted, CreatedDate FROM Account"
            let json = try await Self.runBatch(
                org,
                operation: "query",
                object: "Account",
                contentType: "JSON",
                body: soql
            )
            let ids = try await Self.v1(org, .GET, "job/\(json.job)/batch/\(json.batch)/result")
            let resultID = try #require(try ids.json().arrayValue?.first?.stringValue)
            let records = try await Self.v1(org, .GET, "job/\(json.job)/batch/\(json.batch)/result/\(resultID)")
            let record = try #require(try records.json().arrayValue?.first?.objectValue)
            #expect(record["Name"] == "Acme")
            #expect(record["NumberOfEmployees"] == .integer(12))
            #expect(record["AnnualRevenue"] == .double(2.5))
            #expect(record["IsDeleted"] == false)
            // Milliseconds since 1970 (the org's stamps are strictly increasing from its clock).
            guard case .integer(let created)? = record["CreatedDate"] else {
                Issue.record("CreatedDate is not an integer: \(String(describing: record["CreatedDate"]))")
                return
            }
            #expect(created >= 1_700_000_000_000 && created < 1_700_000_001_000)

            let csv = try await Self.runBatch(
                org,
                operation: "query",
                object: "Account",
                contentType: "CSV",
                body: soql
            )
            let list = try BulkXMLReader.parse(
                try await Self.v1(org, .GET, "job/\(csv.job)/batch/\(csv.batch)/result").body
            )
            let csvID = try #require(list.childText("result"))
            let text = try await Self.v1(org, .GET, "job/\(csv.job)/batch/\(csv.batch)/result/\(csvID)")
            let rows = try BulkCSVReader.records(text.body, delimiter: UInt8(ascii: ","))
            let last = try #require(rows.last)
            #expect(Array(last.suffix(4).prefix(3)) == ["12", "2.5", "false"])
            #expect(last.last?.hasPrefix("2023-11-14T22:13:20.") == true && last.last?.hasSuffix("Z") == true)
        }
    }

    @Test func hardDeletedRecordsSkipTheRecycleBin() async throws {
        try await LocalOrgFixture.with { org in
            let soft = try await org.client.create("Account", ["Name": "Soft"])
            let hard = try await org.client.create("Account", ["Name": "Hard"])
            let contact = try await org.client.create("Contact", ["LastName": "Kid", "AccountId": .string(hard)])
            for (operation, id) in [("delete", soft), ("hardDelete", hard)] {
                _ = try await Self.runBatch(
                    org,
                    operation: operation,
                    object: "Account",
                    contentType: "CSV",
                    body: "Id\n\(id)\n"
                )
            }
            let all = try org.database.query("SELECT Id FROM Account", includeDeleted: true, apiVersion: "59.0")
            let text = String(decoding: all.recordsJSON, as: UTF8.self)
            #expect(all.totalSize == 1)
            #expect(text.contains(soft) && !text.contains(hard))
            // What cascaded from the hard-deleted Account is gone for good too.
            let contacts = try org.database.query("SELECT Id FROM Contact", includeDeleted: true, apiVersion: "59.0")
            #expect(!String(decoding: contacts.recordsJSON, as: UTF8.self).contains(contact))
            #expect(contacts.totalSize == 0)
        }
    }

    @Test func bulkAPIBatchesCountAgainstTheDailyLimit() async throws {
        try await LocalOrgFixture.with { org in
            func remaining() async throws -> OrgJSONValue? {
                try await org.client.send(.GET, "limits").json().objectValue?["DailyBulkApiBatches"]?
                    .objectValue?["Remaining"]
            }
            #expect(try await remaining() == .integer(15_000))
            for name in ["A", "B"] {
                _ = try await Self.runBatch(
                    org,
                    operation: "insert",
                    object: "Account",
                    contentType: "CSV",
                    body: "Name\n\(name)\n"
                )
            }
            #expect(try await remaining() == .integer(14_998))
        }
    }
}
