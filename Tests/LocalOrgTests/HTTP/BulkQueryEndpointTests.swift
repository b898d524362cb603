import Foundation
import NIOConcurrencyHelpers
import SyncrunTestSupport
import Testing

@testable import LocalOrg

/// Bulk API 2.0 query jobs of the local org, over HTTP as a client sees them.
struct BulkQueryEndpointTests {
    private static let tricky = ["Plain", "Comma, Inc.", "Quote \"Q\" Ltd", "Line\nbreak", "Ünïcödé 東京"]

    /// Seeds 25 Contacts, 5 with an Account whose name is tricky CSV, and returns their count.
    private static func seedContacts(_ org: LocalOrgFixture) throws {
        try org.database.write { writer in
            var accounts: [String] = []
            for name in tricky { accounts.append(try writer.create("Account", fields: ["Name": .string(name)])) }
            for index in 0..<25 {
                var fields: OrgJSONObject = ["LastName": .string(String(format: "Contact %02d", index))]
                if index < accounts.count { fields["AccountId"] = .string(accounts[index]) }
                _ = try writer.create("Contact", fields: fields)
            }
        }
    }

    private static func configuration(delay: Duration) -> LocalOrgConfiguration {
        var configuration = LocalOrgConfiguration()
        configuration.bulkJobDelay = delay
        return configuration
    }

    private static func createJob(
        _ client: LocalOrgTestClient,
        _ soql: String,
        extra: OrgJSONObject = [:]
    ) async throws -> TestResponse {
        var body: OrgJSONObject = ["operation": "query", "query": .string(soql)]
        for (key, value) in extra { body[key] = value }
        return try await client.send(.POST, "jobs/query", json: .object(body))
    }

    /// Polls the job until it is finished; returns the states seen, in order, without repeats.
    private static func waitForJob(_ client: LocalOrgTestClient, _ id: String) async throws -> [String] {
        var states: [String] = []
        for _ in 0..<500 {
            let info = try await client.send(.GET, "jobs/query/\(id)")
            let state = try #require(try info.json().objectValue?["state"]?.stringValue)
            if states.last != state { states.append(state) }
            if ["JobComplete", "Failed", "Aborted"].contains(state) { return states }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("job \(id) did not finish")
        return states
    }

    @Test func aQueryJobGoesThroughItsStatesAndPagesItsCSVResults() async throws {
        let configuration = Self.configuration(delay: .milliseconds(120))
        try await LocalOrgFixture.with(configuration: configuration) { org in
            try Self.seedContacts(org)
            let client = org.client
            let created = try await Self.createJob(
                client,
                "SELECT Id, LastName, Account.Name, CreatedDate FROM Contact ORDER BY LastName"
            )
            #expect(created.status == 200)
            let info = try #require(try created.json().objectValue)
            #expect(info["state"] == "UploadComplete")
            #expect(info["object"] == "Contact")
            #expect(info["apiVersion"] == .double(59.0))
            let id = try #require(info["id"]?.stringValue)
            #expect(id.hasPrefix("750"))
            // Each state lasts 120 ms; a poll on a loaded machine may step over a state (even the first,
            // seen in the create response above), never go back or leave the three.
            let states = try await Self.waitForJob(client, id)
            let order = ["UploadComplete", "InProgress", "JobComplete"]
            let positions = states.compactMap { order.firstIndex(of: $0) }
            #expect(positions.count == states.count && positions == positions.sorted(), "\(states)")
            #expect(states.last == "JobComplete")
            let done = try #require(try await client.send(.GET, "jobs/query/\(id)").json().objectValue)
            #expect(done["numberRecordsProcessed"] == .integer(25))

            var rows: [[String]] = []
            var locator: String?
            var counts: [String] = []
            repeat {
                let query = locator.map { "&locator=\($0)" } ?? ""
                let page = try await client.send(.GET, "jobs/query/\(id)/results?maxRecords=10\(query)")
                #expect(page.status == 200)
                #expect(page.headers.first(name: "Content-Type") == "text/csv")
                counts.append(page.headers.first(name: "Sforce-NumberOfRecords") ?? "")
                let records = try BulkCSVReader.records(page.body, delimiter: UInt8(ascii: ","))
                #expect(records.first == ["Id", "LastName", "Account.Name", "CreatedDate"])
                rows += records.dropFirst()
                locator = page.headers.first(name: "Sforce-Locator")
            } while locator != "null" && rows.count < 100
            #expect(counts == ["10", "10", "5"])
            #expect(rows.count == 25)
            #expect(rows.map { $0[1] } == (0..<25).map { String(format: "Contact %02d", $0) })
            #expect(rows.prefix(5).map { $0[2] } == Self.tricky)
            #expect(rows.dropFirst(5).allSatisfy { $0[2].isEmpty })
            #expect(rows.allSatisfy { $0[3].hasSuffix("Z") && $0[3].count == 24 })

            // A page can be fetched again with its locator (after a crash, say): same rows.
            let again = try await client.send(.GET, "jobs/query/\(id)/results?maxRecords=10&locator=MTA=")
            let againRows = try BulkCSVReader.records(again.body, delimiter: UInt8(ascii: ",")).dropFirst()
            #expect(Array(againRows) == Array(rows[10..<20]))
        }
    }

    /// `GET …/resultPages` (API 58.0+) lists the pages `…/results?locator=` serves, five per answer,
    /// each readable on its own; before 58.0 the path does not exist, as on a real org.
    @Test func resultPagesListsTheSamePagesAsTheLocatorsFiveAtATime() async throws {
        try await LocalOrgFixture.with { org in
            try Self.seedContacts(org)
            let client = org.client
            let created = try await Self.createJob(client, "SELECT Id, LastName FROM Contact ORDER BY LastName")
            let id = try #require(try created.json().objectValue?["id"]?.stringValue)
            #expect(try await Self.waitForJob(client, id).last == "JobComplete")

            var sequential: [[[String]]] = []
            var locator: String?
            repeat {
                let query = locator.map { "&locator=\($0)" } ?? ""
                let page = try await client.send(.GET, "jobs/query/\(id)/results?maxRecords=4\(query)")
                sequential.append(Array(try BulkCSVReader.records(page.body, delimiter: UInt8(ascii: ",")).dropFirst()))
                locator = page.headers.first(name: "Sforce-Locator")
            } while locator != "null" && sequential.count < 20
            #expect(sequential.map(\.count) == [4, 4, 4, 4, 4, 4, 1])

            var answers: [OrgJSONObject] = []
            var next: String? = "jobs/query/\(id)/resultPages?maxRecords=4"
            while let path = next, answers.count < 5 {
                let answer = try await client.send(.GET, path)
                #expect(answer.status == 200)
                let object = try #require(try answer.json().objectValue)
                answers.append(object)
                next = object["nextRecordsUrl"]?.stringValue.map { String($0.dropFirst(client.base.count + 1)) }
            }
            #expect(answers.map { $0["done"] } == [.bool(false), .bool(true)])
            #expect(answers.last?["nextRecordsUrl"] == .null)
            let urls = answers.flatMap { $0["resultPages"]?.arrayValue ?? [] }.compactMap {
                $0.objectValue?["resultUrl"]?.stringValue
            }
            #expect(answers.map { $0["resultPages"]?.arrayValue?.count } == [5, 2])
            #expect(urls.allSatisfy { $0.hasPrefix("\(client.base)/jobs/query/\(id)/results?locator=") })
            // Each page read on its own, in reverse order: the same rows as the locator chain.
            var parallel = [[[String]]](repeating: [], count: urls.count)
            for (index, url) in urls.enumerated().reversed() {
                let page = try await client.send(.GET, String(url.dropFirst(client.base.count + 1)))
                #expect(page.status == 200)
                parallel[index] = Array(try BulkCSVReader.records(page.body, delimiter: UInt8(ascii: ",")).dropFirst())
            }
            #expect(parallel == sequential)

            var old = client
            old.version = "57.0"
            let before58 = try await old.send(.GET, "jobs/query/\(id)/resultPages")
            #expect(before58.status == 404)
            #expect(try before58.errorCode() == "NOT_FOUND")
        }
    }

    @Test func nullsAreEmptyAndQuotedValuesDoubleTheirQuotes() async throws {
        try await LocalOrgFixture.with { org in
            _ = try org.database.write { try $0.create("Account", fields: ["Name": "Say \"hi\", then\r\nleave"]) }
            let client = org.client
            let created = try await Self.createJob(
                client,
                "SELECT Name, Phone, AnnualRevenue FROM Account",
                extra: ["lineEnding": "CRLF", "columnDelimiter": "PIPE"]
            )
            let id = try #require(try created.json().objectValue?["id"]?.stringValue)
            #expect(try await Self.waitForJob(client, id).last == "JobComplete")
            let page = try await client.send(.GET, "jobs/query/\(id)/results")
            #expect(page.text == "\"Name\"|\"Phone\"|\"AnnualRevenue\"\r\n\"Say \"\"hi\"\", then\r\nleave\"||\r\n")
            #expect(page.headers.first(name: "Sforce-Locator") == "null")
        }
    }

    @Test func resultsBeforeCompletionAbortDeleteAndAnotherVersion() async throws {
        let configuration = Self.configuration(delay: .seconds(30))
        try await LocalOrgFixture.with(configuration: configuration) { org in
            let client = org.client
            let created = try await Self.createJob(client, "SELECT Id FROM Account")
            let id = try #require(try created.json().objectValue?["id"]?.stringValue)
            let early = try await client.send(.GET, "jobs/query/\(id)/results")
            #expect(early.status == 400)
            #expect(try early.errorCode() == "JOB_NOT_COMPLETE")
            let undeletable = try await client.send(.DELETE, "jobs/query/\(id)")
            #expect(undeletable.status == 400)
            // UploadComplete closes ingest jobs only: a query job refuses it as it refuses any state but Aborted.
            let closed = try await client.send(.PATCH, "jobs/query/\(id)", json: ["state": "UploadComplete"])
            #expect(closed.status == 400)
            #expect(try closed.errorCode() == "INVALIDJOB")
            #expect(try await client.send(.GET, "jobs/query/\(id)").json().objectValue?["state"] == "UploadComplete")
            let aborted = try await client.send(.PATCH, "jobs/query/\(id)", json: ["state": "Aborted"])
            #expect(aborted.status == 200)
            #expect(try aborted.json().objectValue?["state"] == "Aborted")
            let twice = try await client.send(.PATCH, "jobs/query/\(id)", json: ["state": "Aborted"])
            #expect(try twice.errorCode() == "INVALIDJOBSTATE")
            #expect(try await client.send(.DELETE, "jobs/query/\(id)").status == 204)
            #expect(try await client.send(.GET, "jobs/query/\(id)").status == 404)
        }
        try await LocalOrgFixture.with { org in
            try org.client.seedAccounts(3)
            let created = try await Self.createJob(org.client, "SELECT Id FROM Account")
            let id = try #require(try created.json().objectValue?["id"]?.stringValue)
            #expect(try await Self.waitForJob(org.client, id).last == "JobComplete")
            var other = org.client
            other.version = "62.0"
            let conflict = try await other.send(.GET, "jobs/query/\(id)/results")
            #expect(conflict.status == 409)
            let listed = try await org.client.send(.GET, "jobs/query")
            #expect(try listed.json().objectValue?["records"]?.arrayValue?.count == 1)
        }
    }

    @Test func queriesBulkCannotRunOrThatAreWrongAreRefusedAtCreation() async throws {
        try await LocalOrgFixture.with { org in
            let client = org.client
            let refused = [
                "SELECT Id, (SELECT Id FROM Contacts) FROM Account",
                "SELECT COUNT() FROM Account",
                "SELECT Name FROM Account GROUP BY Name",
                "SELECT Id FROM Account LIMIT 10 OFFSET 5",
            ]
            for soql in refused {
                let response = try await Self.createJob(client, soql)
                #expect(response.status == 400, "\(soql)")
                #expect(try response.errorCode() == "API_ERROR", "\(soql)")
            }
            let badField = try await Self.createJob(client, "SELECT Nope__c FROM Account")
            #expect(try badField.errorCode() == "INVALID_FIELD")
            let badOperation = try await client.send(.POST, "jobs/query", json: ["operation": "insert", "query": "x"])
            #expect(try badOperation.errorCode() == "INVALIDJOB")
            #expect(try await client.send(.GET, "jobs/query").json().objectValue?["records"] == .array([]))
        }
    }

    @Test func resultsPastTheLocatorLifetimeAreGone() async throws {
        let clock = NIOLockedValueBox(Date(timeIntervalSince1970: 1_767_225_600))
        let databaseConfiguration = OrgDatabase.Configuration(
            now: { clock.withLockedValue { $0 } },
            locatorLifetime: 60
        )
        try await LocalOrgFixture.with(databaseConfiguration: databaseConfiguration) { org in
            try org.client.seedAccounts(2)
            let created = try await Self.createJob(org.client, "SELECT Id FROM Account")
            let id = try #require(try created.json().objectValue?["id"]?.stringValue)
            #expect(try await Self.waitForJob(org.client, id).last == "JobComplete")
            #expect(try await org.client.send(.GET, "jobs/query/\(id)/results").status == 200)
            clock.withLockedValue { $0 = $0.addingTimeInterval(120) }
            let expired = try await org.client.send(.GET, "jobs/query/\(id)/results")
            #expect(expired.status == 404)
            #expect(
                try expired.json().arrayValue?.first?.objectValue?["message"]?.stringValue?.contains("expired") == true
            )
        }
    }

    @Test func anInjectedJobFailureEndsFailedWithTheMessage() async throws {
        var faults = FaultConfiguration()
        faults.bulkJobFailure = "Query timeout: the query took too long"
        try await LocalOrgFixture.with(configuration: LocalOrgConfiguration(faults: faults)) { org in
            let created = try await Self.createJob(org.client, "SELECT Id FROM Account")
            let id = try #require(try created.json().objectValue?["id"]?.stringValue)
            #expect(try await Self.waitForJob(org.client, id).last == "Failed")
            let info = try #require(try await org.client.send(.GET, "jobs/query/\(id)").json().objectValue)
            #expect(info["errorMessage"] == "Query timeout: the query took too long")
            let results = try await org.client.send(.GET, "jobs/query/\(id)/results")
            #expect(try results.errorCode() == "JOB_NOT_COMPLETE")
        }
    }

    @Test func serverFaultsApplyToBulkEndpoints() async throws {
        let faults = FaultConfiguration(failureRate: 1, seed: 3)
        try await LocalOrgFixture.with(configuration: LocalOrgConfiguration(faults: faults)) { org in
            let response = try await Self.createJob(org.client, "SELECT Id FROM Account")
            #expect([500, 503].contains(response.status))
        }
    }

    @Test func limitsCountTheDaysQueryJobs() async throws {
        try await LocalOrgFixture.with { org in
            for _ in 0..<2 { _ = try await Self.createJob(org.client, "SELECT Id FROM Account") }
            let limits = try #require(try await org.client.send(.GET, "limits").json().objectValue)
            #expect(limits["DailyBulkV2QueryJobs"] == ["Max": .integer(10_000), "Remaining": .integer(9_998)])
            #expect(limits["DailyBulkV2QueryFileStorageMB"]?.objectValue?["Max"] != nil)
        }
    }

    @Test func aJobLeftUnfinishedByAStoppedServerFinishesOnTheNextOne() async throws {
        try await LocalOrgFixture.with(configuration: Self.configuration(delay: .seconds(30))) { org in
            try org.client.seedAccounts(4)
            let created = try await Self.createJob(org.client, "SELECT Id, Name FROM Account")
            let id = try #require(try created.json().objectValue?["id"]?.stringValue)
            // A second server over the same database stands for the org after a restart.
            let restarted = try LocalOrgServer(
                configuration: Self.configuration(delay: .milliseconds(5)),
                database: org.database
            )
            try await restarted.withRunningServer { endpoint in
                let fixture = LocalOrgFixture(
                    endpoint: endpoint,
                    database: org.database,
                    dataDirectory: org.dataDirectory
                )
                #expect(try await Self.waitForJob(fixture.client, id).last == "JobComplete")
                let page = try await fixture.client.send(.GET, "jobs/query/\(id)/results")
                #expect(page.headers.first(name: "Sforce-NumberOfRecords") == "4")
            }
        }
    }
}
