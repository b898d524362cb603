import Foundation
import GRDB
import SyncrunTestSupport
import Testing

@testable import LocalOrg

/// sObject Collections over HTTP (§5.3).
struct CollectionsEndpointTests {
    private func results(_ response: TestResponse) throws -> [OrgJSONObject] {
        try #require(try response.json().arrayValue?.compactMap { $0.objectValue })
    }

    @Test func createReportsEachRecordAndKeepsTheGoodOnes() async throws {
        try await LocalOrgFixture.with { org in
            let client = org.client
            let response = try await client.send(
                .POST,
                "composite/sobjects",
                json: [
                    "allOrNone": false,
                    "records": [
                        ["attributes": ["type": "Account"], "Name": "A"],
                        ["attributes": ["type": "Account"], "Industry": "No name"],
                        ["attributes": ["type": "Contact"], "LastName": "Doe"],
                    ],
                ]
            )
            #expect(response.status == 200)
            let results = try results(response)
            try #require(results.count == 3)
            #expect(results.map { $0["success"] } == [true, false, true])
            #expect(results[1]["id"] == .null)
            let error = try #require(results[1]["errors"]?.arrayValue?.first?.objectValue)
            #expect(error["statusCode"] == "REQUIRED_FIELD_MISSING")
            #expect(error["fields"] == ["Name"])
            #expect(results[2]["id"]?.stringValue?.hasPrefix("003") == true)
            let count = try await client.send(.GET, "query?q=SELECT+Id+FROM+Account")
            #expect(try count.json().objectValue?["totalSize"] == 1)
        }
    }

    @Test func allOrNoneRollsBackEveryRecord() async throws {
        try await LocalOrgFixture.with { org in
            let client = org.client
            let response = try await client.send(
                .POST,
                "composite/sobjects",
                json: [
                    "allOrNone": true,
                    "records": [
                        ["attributes": ["type": "Account"], "Name": "A"],
                        ["attributes": ["type": "Account"], "Industry": "No name"],
                    ],
                ]
            )
            let results = try results(response)
            try #require(results.count == 2)
            #expect(results.map { $0["success"] } == [false, false])
            #expect(
                results[0]["errors"]?.arrayValue?.first?.objectValue?["statusCode"]
                    == "ALL_OR_NONE_OPERATION_ROLLED_BACK"
            )
            #expect(results[1]["errors"]?.arrayValue?.first?.objectValue?["statusCode"] == "REQUIRED_FIELD_MISSING")
            let count = try await client.send(.GET, "query?q=SELECT+Id+FROM+Account")
            #expect(try count.json().objectValue?["totalSize"] == 0)
        }
    }

    @Test func updateAcceptsIdOrIDAndReportsMissingRecords() async throws {
        try await LocalOrgFixture.with { org in
            let client = org.client
            let first = try await client.create("Account", ["Name": "A"])
            let second = try await client.create("Account", ["Name": "B"])
            let response = try await client.send(
                .PATCH,
                "composite/sobjects",
                json: [
                    "records": [
                        ["attributes": ["type": "Account"], "id": .string(first), "Name": "A2"],
                        ["attributes": ["type": "Account"], "Id": .string(second), "Name": "B2"],
                        ["attributes": ["type": "Account"], "Id": "001000000000000AAA", "Name": "C2"],
                    ]
                ]
            )
            let results = try results(response)
            try #require(results.count == 3)
            #expect(results.map { $0["success"] } == [true, true, false])
            #expect(results[2]["id"] == "001000000000000AAA")
            let names = try await client.send(.GET, "query?q=SELECT+Name+FROM+Account+ORDER+BY+Name")
            let records = try #require(try names.json().objectValue?["records"]?.arrayValue)
            #expect(records.compactMap { $0.objectValue?["Name"] } == ["A2", "B2"])
        }
    }

    /// A collections update writes its records without a savepoint each and takes the clock's
    /// stamps in one statement (each was a `SAVEPOINT`, `RELEASE` and `UPDATE … RETURNING` per
    /// record); a refused record is still left as it was, and the stamps still increase.
    @Test func collectionsUpdateTakesItsStampsAtOnceAndNoSavepointPerRecord() async throws {
        try await LocalOrgFixture.with { org in
            let client = org.client
            let ids = [
                try await client.create("Account", ["Name": "A"]),
                try await client.create("Account", ["Name": "B"]),
                try await client.create("Account", ["Name": "C"]),
            ]
            let before = try await client.send(.GET, "sobjects/Account/\(ids[1])")
            let (response, sql) = try await writerStatements(of: org) {
                try await client.send(
                    .PATCH,
                    "composite/sobjects",
                    json: [
                        "allOrNone": false,
                        "records": [
                            ["attributes": ["type": "Account"], "Id": .string(ids[0]), "Name": "A2"],
                            [
                                "attributes": ["type": "Account"], "Id": .string(ids[1]), "Name": "B2",
                                "NoSuchField__c": 1,
                            ],
                            ["attributes": ["type": "Account"], "Id": .string(ids[2]), "Name": "C2"],
                        ],
                    ]
                )
            }
            let results = try results(response)
            try #require(results.count == 3)
            #expect(results.map { $0["success"] } == [true, false, true])
            #expect(sql.filter { $0.uppercased().contains("SAVEPOINT") }.isEmpty, "\(sql)")
            #expect(sql.filter { $0.contains("'clock'") }.count == 1, "\(sql)")

            let after = try await client.send(.GET, "sobjects/Account/\(ids[1])")
            #expect(try after.json() == before.json())
            let later = try await client.create("Account", ["Name": "D"])
            var stamps: [String] = []
            for id in [ids[0], ids[2], later] {
                let record = try await client.send(.GET, "sobjects/Account/\(id)").json().objectValue
                stamps.append(try #require(record?["SystemModstamp"]?.stringValue))
            }
            #expect(stamps == stamps.sorted() && Set(stamps).count == 3, "\(stamps)")
        }
    }

    /// A collections create takes its records' ID counters and stamps in one statement each, and
    /// runs no savepoint per record; the IDs stay unique across calls when a record is refused.
    @Test func collectionsCreateTakesItsIDsAtOnceAndNoSavepointPerRecord() async throws {
        try await LocalOrgFixture.with { org in
            let client = org.client
            let (response, sql) = try await writerStatements(of: org) {
                try await client.send(
                    .POST,
                    "composite/sobjects",
                    json: [
                        "allOrNone": false,
                        "records": [
                            ["attributes": ["type": "Account"], "Name": "A"],
                            ["attributes": ["type": "Account"], "Industry": "No name"],
                            ["attributes": ["type": "Account"], "Name": "C"],
                        ],
                    ]
                )
            }
            let results = try results(response)
            try #require(results.count == 3)
            #expect(results.map { $0["success"] } == [true, false, true])
            #expect(sql.filter { $0.uppercased().contains("SAVEPOINT") }.isEmpty, "\(sql)")
            #expect(sql.filter { $0.contains("'ids'") }.count == 1, "\(sql)")
            #expect(sql.filter { $0.contains("'clock'") }.count == 1, "\(sql)")
            let later = try await client.create("Account", ["Name": "D"])
            let ids = [results[0]["id"]?.stringValue, results[2]["id"]?.stringValue, later]
            #expect(Set(ids.compactMap { $0 }).count == 3, "\(ids)")
            let count = try await client.send(.GET, "query?q=SELECT+Id+FROM+Account")
            #expect(try count.json().objectValue?["totalSize"] == 3)
        }
    }

    /// What the org's writer ran (SQLite's trace of its statements) while `body` ran, with `body`'s result.
    private func writerStatements<T>(
        of org: LocalOrgFixture,
        _ body: () async throws -> T
    ) async throws -> (T, [String]) {
        let statements = StatementLog()
        try await org.database.pool.writeWithoutTransaction { db in db.trace { statements.append("\($0)") } }
        let result = try await body()
        try await org.database.pool.writeWithoutTransaction { db in db.trace(nil) }
        return (result, statements.lines)
    }

    @Test func upsertByExternalIDReportsCreated() async throws {
        try await LocalOrgFixture.with(schema: try externalIDSchema()) { org in
            let client = org.client
            _ = try await client.create("Account", ["Name": "Old", "External_Id__c": "E-1"])
            let response = try await client.send(
                .PATCH,
                "composite/sobjects/Account/External_Id__c",
                json: [
                    "records": [
                        ["attributes": ["type": "Account"], "External_Id__c": "E-1", "Name": "Updated"],
                        ["attributes": ["type": "Account"], "External_Id__c": "E-2", "Name": "New"],
                    ]
                ]
            )
            let results = try results(response)
            #expect(results.map { $0["created"] } == [false, true])
            #expect(results.map { $0["success"] } == [true, true])
        }
    }

    @Test func deleteByIDsAndRetrieveAlignedWithIDs() async throws {
        try await LocalOrgFixture.with { org in
            let client = org.client
            let first = try await client.create("Account", ["Name": "A"])
            let second = try await client.create("Account", ["Name": "B"])
            let deleted = try await client.send(.DELETE, "composite/sobjects?ids=\(first)&allOrNone=false")
            #expect(try results(deleted).map { $0["success"] } == [true])

            let retrieved = try await client.send(.GET, "composite/sobjects/Account?ids=\(first),\(second)&fields=Name")
            #expect(retrieved.status == 200)
            let records = try #require(try retrieved.json().arrayValue)
            #expect(records.count == 2)
            #expect(records[0] == .null)
            #expect(records[1].objectValue?["Name"] == "B")

            let posted = try await client.send(
                .POST,
                "composite/sobjects/Account",
                json: ["ids": [.string(second)], "fields": ["Name"]]
            )
            #expect(try posted.json().arrayValue?.first?.objectValue?["Name"] == "B")

            let again = try await client.send(.DELETE, "composite/sobjects?ids=\(first)")
            #expect(
                try results(again).first?["errors"]?.arrayValue?.first?.objectValue?["statusCode"]
                    == "ENTITY_IS_DELETED"
            )
        }
    }

    @Test func moreThan200RecordsIs400() async throws {
        try await LocalOrgFixture.with { org in
            let records = OrgJSONValue.array(
                Array(repeating: ["attributes": ["type": "Account"], "Name": "A"], count: 201)
            )
            let response = try await org.client.send(.POST, "composite/sobjects", json: ["records": records])
            #expect(response.status == 400)
            #expect(try response.errorCode() == "EXCEEDED_ID_LIMIT")
        }
    }

    @Test func recordWithoutTypeFailsAlone() async throws {
        try await LocalOrgFixture.with { org in
            let response = try await org.client.send(.POST, "composite/sobjects", json: ["records": [["Name": "A"]]])
            let results = try results(response)
            #expect(results.first?["errors"]?.arrayValue?.first?.objectValue?["statusCode"] == "INVALID_TYPE")
        }
    }
}

/// The SQL a connection ran, from its trace (called on the writer's queue).
private final class StatementLog: @unchecked Sendable {
    // Safe: `storage` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var storage: [String] = []

    func append(_ line: String) { lock.withLock { storage.append(line) } }
    var lines: [String] { lock.withLock { storage } }
}
