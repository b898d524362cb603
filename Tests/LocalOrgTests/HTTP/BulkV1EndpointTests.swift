import Foundation
import NIOHTTP1
import SyncrunTestSupport
import Testing

@testable import LocalOrg

/// Bulk API 1.0 (`/services/async/{version}/job…`) of the local org, over HTTP, in its three data
/// formats, on the job engine of Bulk API 2.0.
struct BulkV1EndpointTests {
    private static let namespace = "http://www.force.com/2009/06/asyncapi/dataload"

    /// Sends a Bulk 1.0 request with the org's token in `X-SFDC-Session`.
    private static func send(
        _ org: LocalOrgFixture,
        _ method: HTTPMethod,
        _ path: String,
        body: String? = nil,
        contentType: String = "application/xml; charset=UTF-8",
        session: String? = nil
    ) async throws -> TestResponse {
        try await org.client.send(
            method,
            "/services/async/59.0/\(path)",
            body: body.map { Data($0.utf8) },
            headers: [("X-SFDC-Session", session ?? org.accessToken), ("Content-Type", contentType)],
            token: .none
        )
    }

    private static func xml(_ response: TestResponse) throws -> BulkXMLElement {
        try BulkXMLReader.parse(response.body)
    }

    private static func jobInfo(_ operation: String, _ object: String, contentType: String, extra: String = "")
        -> String
    {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <jobInfo xmlns="\(namespace)"><operation>\(operation)</operation><object>\(object)</object>\(extra)\
        <contentType>\(contentType)</contentType></jobInfo>
        """
    }

    /// Polls a batch until it is finished; returns the states seen in order (no repeats).
    private static func waitForBatch(_ org: LocalOrgFixture, job: String, batch: String) async throws -> [String] {
        var states: [String] = []
        for _ in 0..<500 {
            let response = try await send(org, .GET, "job/\(job)/batch/\(batch)")
            // A JSON job answers in JSON, the others in XML.
            let state =
                response.headers["Content-Type"] == ["application/json"]
                ? try response.json().objectValue?["state"]?.stringValue ?? ""
                : try xml(response).childText("state") ?? ""
            if states.last != state { states.append(state) }
            if ["Completed", "Failed", "Not Processed"].contains(state) { return states }
            try await Task.sleep(for: .milliseconds(5))
        }
        Issue.record("batch \(batch) did not finish")
        return states
    }

    @Test func aCSVInsertBatchRunsThroughTheStatesAndReportsEachRecord() async throws {
        try await LocalOrgFixture.with { org in
            let created = try await Self.send(
                org,
                .POST,
                "job",
                body: Self.jobInfo("insert", "Account", contentType: "CSV")
            )
            #expect(created.status == 201)
            #expect(created.headers["Content-Type"] == ["application/xml"])
            let job = try Self.xml(created)
            #expect(job.name == "jobInfo")
            #expect(job.attribute("xmlns") == Self.namespace)
            #expect(job.childText("state") == "Open")
            #expect(job.childText("contentType") == "CSV")
            let jobID = try #require(job.childText("id"))
            #expect(jobID.hasPrefix("750"))

            let csv = "Name,NumberOfEmployees\n\"Acme, Inc.\",5\nGlobex,\nBad,many\n"
            let added = try await Self.send(org, .POST, "job/\(jobID)/batch", body: csv, contentType: "text/csv")
            #expect(added.status == 201)
            let batch = try Self.xml(added)
            #expect(batch.childText("state") == "Queued")
            let batchID = try #require(batch.childText("id"))
            let states = try await Self.waitForBatch(org, job: jobID, batch: batchID)
            #expect(states.last == "Completed")
            #expect(states.first == "Queued" || states.first == "InProgress")

            let closed = try await Self.send(
                org,
                .POST,
                "job/\(jobID)",
                body: "<jobInfo xmlns=\"\(Self.namespace)\"><state>Closed</state></jobInfo>"
            )
            let info = try Self.xml(closed)
            #expect(info.childText("state") == "Closed")
            #expect(info.childText("numberBatchesCompleted") == "1")
            #expect(info.childText("numberBatchesTotal") == "1")
            #expect(info.childText("numberRecordsProcessed") == "3")
            #expect(info.childText("numberRecordsFailed") == "1")

            let results = try await Self.send(org, .GET, "job/\(jobID)/batch/\(batchID)/result")
            #expect(results.headers["Content-Type"] == ["text/csv"])
            let rows = try BulkCSVReader.records(results.body, delimiter: UInt8(ascii: ","))
            #expect(rows.first == ["Id", "Success", "Created", "Error"])
            try #require(rows.count == 4)
            #expect(rows[1][0].hasPrefix("001") && rows[1][1] == "true" && rows[1][2] == "true")
            #expect(rows[3][0] == "" && rows[3][1] == "false")
            #expect(rows[3][3].hasPrefix("JSON_PARSER_ERROR:") && rows[3][3].hasSuffix(" --"))
            let request = try await Self.send(org, .GET, "job/\(jobID)/batch/\(batchID)/request")
            #expect(request.text == csv)
            let list = try Self.xml(try await Self.send(org, .GET, "job/\(jobID)/batch"))
            #expect(list.name == "batchInfoList")
            #expect(list.children.map { $0.childText("id") } == [batchID])
            let names = try org.database.query("SELECT Name FROM Account", apiVersion: "59.0")
            #expect(names.totalSize == 2)
            let late = try await Self.send(org, .POST, "job/\(jobID)/batch", body: csv, contentType: "text/csv")
            #expect(late.status == 400)
            #expect(try Self.xml(late).childText("exceptionCode") == "InvalidJobState")
        }
    }

    @Test func aJSONJobUpsertsByAnIDLookupFieldAndQueriesAsJSON() async throws {
        try await LocalOrgFixture.with(schema: try externalIDSchema()) { org in
            let existing = try await org.client.create("Account", ["Name": "Old", "External_Id__c": "E-1"])
            let json = "application/json"
            let created = try await Self.send(
                org,
                .POST,
                "job",
                body:
                    #"{"operation":"upsert","object":"Account","externalIdFieldName":"External_Id__c","contentType":"JSON","concurrencyMode":0}"#,
                contentType: json
            )
            #expect(created.status == 201)
            #expect(created.headers["Content-Type"] == ["application/json"])
            let job = try #require(try created.json().objectValue)
            #expect(job["state"] == "Open")
            #expect(job["apiVersion"] == .double(59))
            #expect(job["numberBatchesTotal"] == .integer(0))
            let jobID = try #require(job["id"]?.stringValue)
            let records =
                #"[{"External_Id__c":"E-1","Name":"Renamed"},{"External_Id__c":"E-2","Name":"New","Phone":null}]"#
            let added = try await org.client.send(
                .POST,
                "/services/async/59.0/job/\(jobID)/batch",
                body: Data(records.utf8),
                headers: [("X-SFDC-Session", org.accessToken), ("Content-Type", json)],
                token: .none
            )
            let batchID = try #require(try added.json().objectValue?["id"]?.stringValue)
            #expect(try await Self.waitForBatch(org, job: jobID, batch: batchID).last == "Completed")
            let results = try await Self.send(org, .GET, "job/\(jobID)/batch/\(batchID)/result", contentType: json)
            let outcome = try #require(try results.json().arrayValue?.compactMap(\.objectValue))
            try #require(outcome.count == 2)
            #expect(outcome[0]["id"] == .string(existing) && outcome[0]["created"] == false)
            #expect(outcome[1]["success"] == true && outcome[1]["created"] == true)
            #expect(outcome[1]["errors"] == [])

            let queryJob = try await Self.send(
                org,
                .POST,
                "job",
                body: #"{"operation":"query","object":"Account","contentType":"JSON"}"#,
                contentType: json
            )
            let queryID = try #require(try queryJob.json().objectValue?["id"]?.stringValue)
            let queryBatch = try await Self.send(
                org,
                .POST,
                "job/\(queryID)/batch",
                body: "SELECT Id, Name FROM Account ORDER BY Name",
                contentType: json
            )
            let queryBatchID = try #require(try queryBatch.json().objectValue?["id"]?.stringValue)
            #expect(try await Self.waitForBatch(org, job: queryID, batch: queryBatchID).last == "Completed")
            let ids = try await Self.send(org, .GET, "job/\(queryID)/batch/\(queryBatchID)/result")
            let resultID = try #require(try ids.json().arrayValue?.first?.stringValue)
            #expect(resultID.hasPrefix("752"))
            let rows = try await Self.send(org, .GET, "job/\(queryID)/batch/\(queryBatchID)/result/\(resultID)")
            let found = try #require(try rows.json().arrayValue?.compactMap(\.objectValue))
            #expect(found.map { $0["Name"] } == ["New", "Renamed"])
            #expect(found.first?["attributes"]?.objectValue?["type"] == "Account")
        }
    }

    @Test func anXMLBatchWritesAndReportsInXML() async throws {
        try await LocalOrgFixture.with { org in
            let created = try await Self.send(
                org,
                .POST,
                "job",
                body: Self.jobInfo("insert", "Contact", contentType: "XML")
            )
            let jobID = try #require(try Self.xml(created).childText("id"))
            let records = """
                <?xml version="1.0" encoding="UTF-8"?>
                <sObjects xmlns="\(Self.namespace)" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
                  <sObject><LastName>O&apos;Neil &amp; Sons</LastName><Email xsi:nil="true"/></sObject>
                  <sObject><FirstName>No last name</FirstName></sObject>
                </sObjects>
                """
            let added = try await Self.send(org, .POST, "job/\(jobID)/batch", body: records)
            let batchID = try #require(try Self.xml(added).childText("id"))
            #expect(try await Self.waitForBatch(org, job: jobID, batch: batchID).last == "Completed")
            let results = try Self.xml(try await Self.send(org, .GET, "job/\(jobID)/batch/\(batchID)/result"))
            #expect(results.name == "results")
            try #require(results.children.count == 2)
            #expect(results.children[0].childText("success") == "true")
            #expect(results.children[1].childText("success") == "false")
            #expect(results.children[1].child("errors")?.childText("statusCode") == "REQUIRED_FIELD_MISSING")
            let page = try org.database.query("SELECT LastName FROM Contact", apiVersion: "59.0")
            #expect(String(decoding: page.recordsJSON, as: UTF8.self).contains("O'Neil & Sons"))
        }
    }

    @Test func aCSVQueryJobHandsOutResultIDsAndCSV() async throws {
        try await LocalOrgFixture.with { org in
            try org.client.seedAccounts(3)
            let created = try await Self.send(
                org,
                .POST,
                "job",
                body: Self.jobInfo("query", "Account", contentType: "CSV")
            )
            let jobID = try #require(try Self.xml(created).childText("id"))
            let added = try await Self.send(
                org,
                .POST,
                "job/\(jobID)/batch",
                body: "SELECT Id, Name FROM Account ORDER BY Name",
                contentType: "text/csv"
            )
            let batchID = try #require(try Self.xml(added).childText("id"))
            #expect(try await Self.waitForBatch(org, job: jobID, batch: batchID).last == "Completed")
            let list = try Self.xml(try await Self.send(org, .GET, "job/\(jobID)/batch/\(batchID)/result"))
            #expect(list.name == "result-list")
            let resultID = try #require(list.childText("result"))
            let csv = try await Self.send(org, .GET, "job/\(jobID)/batch/\(batchID)/result/\(resultID)")
            let rows = try BulkCSVReader.records(csv.body, delimiter: UInt8(ascii: ","))
            #expect(rows.map { $0.last } == ["Name", "Account 0000", "Account 0001", "Account 0002"])
            let wrong = try await Self.send(org, .GET, "job/\(jobID)/batch/\(batchID)/result/752000000000000AAA")
            #expect(wrong.status == 400)
            #expect(try Self.xml(wrong).childText("exceptionCode") == "InvalidBatch")
        }
    }

    @Test func deleteAndHardDeleteTakeIDs() async throws {
        try await LocalOrgFixture.with { org in
            let first = try await org.client.create("Account", ["Name": "A"])
            let second = try await org.client.create("Account", ["Name": "B"])
            for (operation, id) in [("delete", first), ("hardDelete", second)] {
                let created = try await Self.send(
                    org,
                    .POST,
                    "job",
                    body: Self.jobInfo(operation, "Account", contentType: "CSV")
                )
                let jobID = try #require(try Self.xml(created).childText("id"))
                let added = try await Self.send(
                    org,
                    .POST,
                    "job/\(jobID)/batch",
                    body: "Id\n\(id)\n",
                    contentType: "text/csv"
                )
                let batchID = try #require(try Self.xml(added).childText("id"))
                #expect(try await Self.waitForBatch(org, job: jobID, batch: batchID).last == "Completed")
            }
            #expect(try org.database.query("SELECT Id FROM Account", apiVersion: "59.0").totalSize == 0)
        }
    }

    @Test func errorsComeInTheBulkShapes() async throws {
        var configuration = LocalOrgConfiguration()
        configuration.bulkJobDelay = .seconds(5)
        try await LocalOrgFixture.with(configuration: configuration) { org in
            let refused = try await Self.send(org, .GET, "job/750000000000000AAA", session: "not-a-token")
            #expect(refused.status == 400)
            let error = try Self.xml(refused)
            #expect(error.name == "error")
            #expect(error.childText("exceptionCode") == "InvalidSessionId")
            let missing = try await Self.send(org, .GET, "job/750000000000000AAA")
            #expect(try Self.xml(missing).childText("exceptionCode") == "InvalidJob")
            let unknown = try await Self.send(
                org,
                .POST,
                "job",
                body: Self.jobInfo("insert", "Nope__c", contentType: "CSV")
            )
            #expect(try Self.xml(unknown).childText("exceptionMessage") == "Unable to find object: Nope__c")
            let badKey = try await Self.send(
                org,
                .POST,
                "job",
                body: Self.jobInfo(
                    "upsert",
                    "Account",
                    contentType: "CSV",
                    extra: "<externalIdFieldName>Industry</externalIdFieldName>"
                )
            )
            #expect(try Self.xml(badKey).childText("exceptionCode") == "InvalidJob")
            let jsonError = try await Self.send(
                org,
                .POST,
                "job",
                body: #"{"operation":"merge"}"#,
                contentType: "application/json"
            )
            #expect(try jsonError.json().objectValue?["exceptionCode"] == "InvalidJob")

            // Aborting a job leaves its waiting batches Not Processed and writes nothing.
            let created = try await Self.send(
                org,
                .POST,
                "job",
                body: Self.jobInfo("insert", "Account", contentType: "CSV")
            )
            let jobID = try #require(try Self.xml(created).childText("id"))
            let added = try await Self.send(
                org,
                .POST,
                "job/\(jobID)/batch",
                body: "Name\nA\n",
                contentType: "text/csv"
            )
            let batchID = try #require(try Self.xml(added).childText("id"))
            let aborted = try await Self.send(
                org,
                .POST,
                "job/\(jobID)",
                body: "<jobInfo xmlns=\"\(Self.namespace)\"><state>Aborted</state></jobInfo>"
            )
            #expect(try Self.xml(aborted).childText("state") == "Aborted")
            let batch = try Self.xml(try await Self.send(org, .GET, "job/\(jobID)/batch/\(batchID)"))
            #expect(batch.childText("state") == "Not Processed")
            #expect(try org.database.query("SELECT Id FROM Account", apiVersion: "59.0").totalSize == 0)
        }
    }
}
