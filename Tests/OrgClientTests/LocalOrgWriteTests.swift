import Foundation
import LocalOrg
import OrgClient
import SyncrunTestSupport
import Testing

/// Record writes, composite and collections against the real local org.
struct LocalOrgWriteTests {
    /// The standard schema plus an external-ID field on Account.
    static var schemaWithExternalID: OrgSchema {
        var schema = OrgSchema.standard
        if var account = schema.object(named: "Account") {
            account.addOrReplace(
                OrgField(name: "External_Id__c", type: .string, length: 40, isExternalID: true, isUnique: true)
            )
            schema.addOrReplace(account)
        }
        return schema
    }

    @Test func createsRetrievesUpdatesAndDeletes() async throws {
        try await LocalOrgFixture.with { org in
            try await org.withClient { client, _, _ in
                let id = try await client.create("Account", fields: ["Name": "Acme", "NumberOfEmployees": 12])
                #expect(id.count == 18)
                #expect(id.hasPrefix("001"))
                var record = try await client.retrieve("Account", id: id, fields: ["Name", "NumberOfEmployees"]).parse()
                #expect(record["Name"] == "Acme")
                #expect(record["NumberOfEmployees"]?.integerValue == 12)

                try await client.update("Account", id: id, fields: ["Name": "Acme Corp", "NumberOfEmployees": .null])
                record = try await client.retrieve("Account", id: id, fields: []).parse()
                #expect(record["Name"] == "Acme Corp")
                #expect(record["NumberOfEmployees"] == .null)

                try await client.delete("Account", id: id)
                let error = await #expect(throws: OrgClientError.self) { try await client.delete("Account", id: id) }
                #expect(error?.code == .notFound)
                #expect(error?.httpStatus == 404)
                #expect(["ENTITY_IS_DELETED", "NOT_FOUND"].contains(error?.serverErrorCode ?? ""))
                let missing = await #expect(throws: OrgClientError.self) {
                    _ = try await client.retrieve("Account", id: id, fields: ["Name"])
                }
                #expect(missing?.code == .notFound)
            }
        }
    }

    @Test func aCreateWithoutARequiredFieldFails() async throws {
        try await LocalOrgFixture.with { org in
            try await org.withClient { client, _, _ in
                let error = await #expect(throws: OrgClientError.self) {
                    _ = try await client.create("Account", fields: ["Industry": "Banking"])
                }
                #expect(error?.code == .badRequest)
                #expect(error?.serverErrorCode == "REQUIRED_FIELD_MISSING")
                #expect(error?.serverErrors.first?.fields == ["Name"])
            }
        }
    }

    @Test func upsertsByExternalID() async throws {
        try await LocalOrgFixture.with(schema: Self.schemaWithExternalID) { org in
            try await org.withClient { client, _, _ in
                let created = try await client.upsert(
                    "Account",
                    externalIDField: "External_Id__c",
                    externalID: "EXT/1 a",
                    fields: ["Name": "First"]
                )
                #expect(created.isCreated)
                let updated = try await client.upsert(
                    "Account",
                    externalIDField: "External_Id__c",
                    externalID: "EXT/1 a",
                    fields: ["Name": "Second"]
                )
                #expect(!updated.isCreated)
                #expect(updated.id == created.id)
                let record = try await client.retrieve("Account", id: created.id, fields: ["Name", "External_Id__c"])
                    .parse()
                #expect(record["Name"] == "Second")
                #expect(record["External_Id__c"] == "EXT/1 a")
            }
        }
    }

    @Test func upsertBeforeAPI46LooksTheIDUp() async throws {
        try await LocalOrgFixture.with(schema: Self.schemaWithExternalID) { org in
            try await org.withClient(apiVersion: "45.0") { client, _, _ in
                let created = try await client.upsert(
                    "Account",
                    externalIDField: "External_Id__c",
                    externalID: "E1",
                    fields: ["Name": "A"]
                )
                #expect(created.isCreated)
                let updated = try await client.upsert(
                    "Account",
                    externalIDField: "External_Id__c",
                    externalID: "E1",
                    fields: ["Name": "B"]
                )
                #expect(updated == UpsertResult(id: created.id, isCreated: false))
            }
        }
    }

    @Test func anUpdateAfterAConcurrentChangeIsAConflict() async throws {
        let now = MutableDate(Date(timeIntervalSince1970: 1_709_658_251))
        let databaseConfiguration = OrgDatabase.Configuration(now: { now.value })
        try await LocalOrgFixture.with(databaseConfiguration: databaseConfiguration) { org in
            try await org.withClient { client, _, _ in
                let id = try await client.create("Account", fields: ["Name": "Acme"])
                let readAt = now.value.addingTimeInterval(5)
                // Someone else changes the record after we read it.
                now.value = now.value.addingTimeInterval(10)
                try await client.update("Account", id: id, fields: ["Industry": "Banking"])
                now.value = now.value.addingTimeInterval(10)

                let error = await #expect(throws: OrgClientError.self) {
                    try await client.update("Account", id: id, fields: ["Name": "Mine"], ifUnmodifiedSince: readAt)
                }
                #expect(error?.code == .conflict)
                #expect(error?.httpStatus == 412)
                #expect(error?.attempts == 1)
                let record = try await client.retrieve("Account", id: id, fields: ["Name"]).parse()
                #expect(record["Name"] == "Acme")

                try await client.update("Account", id: id, fields: ["Name": "Mine"], ifUnmodifiedSince: now.value)
                let after = try await client.retrieve("Account", id: id, fields: ["Name"]).parse()
                #expect(after["Name"] == "Mine")
            }
        }
    }

    @Test func collectionsReportPerRecordResults() async throws {
        try await LocalOrgFixture.with(schema: Self.schemaWithExternalID) { org in
            try await org.withClient { client, _, _ in
                let created = try await client.collection(
                    .create([
                        SObjectRecord(objectType: "Account", fields: ["Name": "A"]),
                        SObjectRecord(objectType: "Account", fields: ["Industry": "Banking"]),
                        SObjectRecord(objectType: "Contact", fields: ["LastName": "Doe"]),
                    ]),
                    allOrNone: false
                )
                #expect(created.map(\.isSuccess) == [true, false, true])
                #expect(created[1].errors.first?.errorCode == "REQUIRED_FIELD_MISSING")
                #expect(created[1].errors.first?.fields == ["Name"])
                let accountID = try #require(created[0].id)
                let contactID = try #require(created[2].id)

                let updated = try await client.collection(
                    .update([
                        SObjectRecord(objectType: "Account", id: accountID, fields: ["Name": "A2"]),
                        SObjectRecord(objectType: "Contact", id: contactID, fields: ["LastName": .null]),
                    ]),
                    allOrNone: false
                )
                #expect(updated.map(\.isSuccess) == [true, false])

                let upserted = try await client.collection(
                    .upsert(
                        objectType: "Account",
                        externalIDField: "External_Id__c",
                        records: [
                            SObjectRecord(objectType: "Account", fields: ["Name": "U1", "External_Id__c": "X1"]),
                            SObjectRecord(objectType: "Account", fields: ["Name": "U2", "External_Id__c": "X2"]),
                        ]
                    ),
                    allOrNone: true
                )
                #expect(upserted.map(\.isCreated) == [true, true])

                let fetched = try await client.retrieveCollection(
                    "Account",
                    ids: [accountID, "001000000000000AAA"],
                    fields: ["Id", "Name"]
                )
                #expect(fetched.count == 2)
                #expect(fetched[0]?["Name"] == "A2")
                #expect(fetched[1] == nil)

                let deleted = try await client.collection(.delete(ids: [accountID, accountID]), allOrNone: false)
                #expect(deleted.map(\.isSuccess) == [true, false])
            }
        }
    }

    @Test func allOrNoneCollectionsRollBack() async throws {
        try await LocalOrgFixture.with { org in
            try await org.withClient { client, _, _ in
                let results = try await client.collection(
                    .create([
                        SObjectRecord(objectType: "Account", fields: ["Name": "A"]),
                        SObjectRecord(objectType: "Account", fields: [:]),
                    ]),
                    allOrNone: true
                )
                #expect(results.map(\.isSuccess) == [false, false])
                #expect(results[0].errors.first?.errorCode == "ALL_OR_NONE_OPERATION_ROLLED_BACK")
                let page = try await client.queryFirstPage("SELECT Id FROM Account", options: .init())
                #expect(page.totalSize == 0)
            }
        }
    }

    @Test func compositeResolvesReferences() async throws {
        try await LocalOrgFixture.with { org in
            try await org.withClient { client, _, _ in
                let responses = try await client.composite(
                    [
                        .create("Account", fields: ["Name": "Acme"], referenceID: "acct"),
                        .create(
                            "Contact",
                            fields: ["LastName": "Doe", "AccountId": "@{acct.id}"],
                            referenceID: "con"
                        ),
                        .retrieve("Contact", id: "@{con.id}", fields: ["AccountId"], referenceID: "read"),
                    ],
                    allOrNone: true
                )
                #expect(responses.map(\.referenceID) == ["acct", "con", "read"])
                #expect(responses.map(\.statusCode) == [201, 201, 200])
                let accountID = try #require(responses[0].id)
                #expect(responses[2].body["AccountId"]?.stringValue == accountID)

                let rolledBack = try await client.composite(
                    [
                        .create("Account", fields: ["Name": "Kept?"], referenceID: "ok"),
                        .create("Account", fields: [:], referenceID: "bad"),
                    ],
                    allOrNone: true
                )
                #expect(rolledBack.allSatisfy { !$0.isSuccess })
                #expect(rolledBack[1].errors.first?.errorCode == "REQUIRED_FIELD_MISSING")
                let page = try await client.queryFirstPage("SELECT Id FROM Account", options: .init())
                #expect(page.totalSize == 1)
            }
        }
    }

    @Test func compositeBatchRunsIndependentSubrequests() async throws {
        try await LocalOrgFixture.with { org in
            try await org.withClient { client, _, _ in
                let id = try await client.create("Account", fields: ["Name": "Acme"])
                let responses = try await client.compositeBatch(
                    [
                        BatchSubrequest(method: .patch, path: "sobjects/Account/\(id)", body: ["Name": "Acme Corp"]),
                        BatchSubrequest(method: .get, path: "sobjects/Account/\(id)?fields=Name"),
                        BatchSubrequest(method: .get, path: "sobjects/Account/001000000000000AAA"),
                    ],
                    haltOnError: false
                )
                #expect(responses.map(\.statusCode) == [204, 200, 404])
                #expect(responses[1].result["Name"] == "Acme Corp")
                #expect(!responses[2].errors.isEmpty)
            }
        }
    }
}

/// A date the test moves while the org reads it.
final class MutableDate: @unchecked Sendable {
    // Safe: `stored` is only touched while `lock` is held.
    private let lock = NSLock()
    private var stored: Date

    init(_ date: Date) {
        stored = date
    }

    var value: Date {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
