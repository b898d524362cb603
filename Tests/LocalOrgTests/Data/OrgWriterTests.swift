import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing

struct OrgWriterTests {
    static let customSchema = """
        {"objects": [
          {"name": "Invoice__c", "fields": [
            {"name": "Number__c", "type": "string", "externalId": true, "unique": true},
            {"name": "Legacy__c", "type": "string", "externalId": true},
            {"name": "Amount__c", "type": "currency"},
            {"name": "Account__c", "type": "reference", "referenceTo": "Account"}
          ]}
        ]}
        """

    private func makeOrg(_ directory: URL, clock: TestClock = TestClock(OrgFixtures.fixedNow)) throws -> OrgDatabase {
        let file = directory.appendingPathComponent("schema.json")
        try Data(Self.customSchema.utf8).write(to: file)
        return try OrgFixtures.makeOrg(
            in: directory.appendingPathComponent("org"),
            schema: try OrgSchema.standard.merging(contentsOf: file),
            clock: clock
        )
    }

    static let createErrors: [(String, OrgJSONObject, Int, String, String, [String])] = [
        (
            "Account", ["Industry": "Banking"], 400, "REQUIRED_FIELD_MISSING", "Required fields are missing: [Name]",
            ["Name"]
        ),
        (
            "Contact", ["FirstName": "A"], 400, "REQUIRED_FIELD_MISSING", "Required fields are missing: [LastName]",
            ["LastName"]
        ),
        (
            "Account", ["Name": "A", "Foo": 1], 400, "INVALID_FIELD", "No such column 'Foo' on sobject of type Account",
            ["Foo"]
        ),
        (
            "Account", ["Name": "A", "CreatedDate": "2024-01-01T00:00:00Z", "IsDeleted": true], 400,
            "INVALID_FIELD_FOR_INSERT_UPDATE",
            "Unable to create/update fields: CreatedDate, IsDeleted. Please check the security settings of this field and verify that it is read/write for your profile or permission set.",
            ["CreatedDate", "IsDeleted"]
        ),
        (
            "Account", ["Name": "A", "NumberOfEmployees": "many"], 400, "JSON_PARSER_ERROR",
            "Cannot deserialize instance of int from string value for field 'NumberOfEmployees'", ["NumberOfEmployees"]
        ),
        (
            "Account", ["Name": .string(String(repeating: "x", count: 256))], 400, "STRING_TOO_LONG",
            "Account Name: data value too large (max length=255)", ["Name"]
        ),
        (
            "Contact", ["LastName": "A", "Email": "nope"], 400, "INVALID_EMAIL_ADDRESS", "Email: invalid email address",
            ["Email"]
        ),
        (
            "Contact", ["LastName": "A", "AccountId": "xyz"], 400, "MALFORMED_ID", "AccountId: invalid ID value 'xyz'",
            ["AccountId"]
        ),
        (
            "Contact", ["LastName": "A", "AccountId": "001Lo0000000zzzIAA"], 400, "INVALID_CROSS_REFERENCE_KEY",
            "invalid cross reference id: AccountId does not point to an existing record (001Lo0000000zzzIAA)",
            ["AccountId"]
        ),
        ("Nope__c", ["Name": "A"], 404, "NOT_FOUND", "The requested resource does not exist", []),
        (
            "Organization", ["Name": "A"], 400, "INVALID_TYPE_FOR_OPERATION",
            "entity type Organization does not support this operation", []
        ),
    ]

    @Test(arguments: createErrors)
    func createRejects(
        _ object: String,
        fields: OrgJSONObject,
        status: Int,
        code: String,
        message: String,
        errorFields: [String]
    )
        async throws
    {
        try await TemporaryDirectory.with { directory in
            let org = try makeOrg(directory)
            let error = try OrgFixtures.error { try org.write { try $0.create(object, fields: fields) } }
            #expect(error.status == status)
            #expect(error.errorCode == code)
            #expect(error.message == message)
            #expect(error.fields == errorFields)
            #expect(try org.query("SELECT COUNT() FROM Account", apiVersion: "59.0").totalSize == 0)
        }
    }

    @Test func lookupsMustPointAtTheRightType() async throws {
        try await TemporaryDirectory.with { directory in
            let org = try makeOrg(directory)
            let contact = try org.write { try $0.create("Contact", fields: ["LastName": "Doe"]) }
            let error = try OrgFixtures.error {
                try org.write { try $0.create("Contact", fields: ["LastName": "X", "AccountId": .string(contact)]) }
            }
            #expect(error.errorCode == "INVALID_CROSS_REFERENCE_KEY")
            #expect(error.message == "Account ID: id value of incorrect type: \(contact)")
        }
    }

    @Test func uniqueValuesAreEnforcedAndUpsertMatchesExternalIDs() async throws {
        try await TemporaryDirectory.with { directory in
            let org = try makeOrg(directory)
            let first = try org.write {
                try $0.upsert("Invoice__c", externalIDField: "Number__c", value: "INV-1", fields: ["Amount__c": 10])
            }
            #expect(first.created)
            let again = try org.write {
                try $0.upsert("Invoice__c", externalIDField: "number__c", value: "inv-1", fields: ["Amount__c": 12.5])
            }
            #expect(again == OrgUpsertResult(id: first.id, created: false))
            let duplicate = try OrgFixtures.error {
                try org.write { try $0.create("Invoice__c", fields: ["Number__c": "INV-1"]) }
            }
            #expect(duplicate.errorCode == "DUPLICATE_VALUE")
            #expect(
                duplicate.message == "duplicate value found: Number__c duplicates value on record with id: \(first.id)"
            )

            let a = try org.write { try $0.create("Invoice__c", fields: ["Legacy__c": "L"]) }
            let b = try org.write { try $0.create("Invoice__c", fields: ["Legacy__c": "L"]) }
            let several = try OrgFixtures.error {
                try org.write { try $0.upsert("Invoice__c", externalIDField: "Legacy__c", value: "L", fields: [:]) }
            }
            #expect(several.status == 300)
            #expect(several.matchingRecords?.ids == [a, b])
            #expect(
                String(decoding: several.responseBody(apiVersion: "59.0"), as: UTF8.self)
                    == #"["/services/data/v59.0/sobjects/Invoice__c/\#(a)","/services/data/v59.0/sobjects/Invoice__c/\#(b)"]"#
            )
            let unknown = try OrgFixtures.error {
                try org.write { try $0.upsert("Invoice__c", externalIDField: "Nope__c", value: "L", fields: [:]) }
            }
            #expect(unknown.status == 404)
            let notExternal = try OrgFixtures.error {
                try org.write { try $0.upsert("Invoice__c", externalIDField: "Amount__c", value: "1", fields: [:]) }
            }
            #expect(
                notExternal.message
                    == "Field name provided, Amount__c is not an External ID or indexed field for Invoice__c"
            )
            let record = try OrgFixtures.json(
                try org.retrieve("Invoice__c", externalIDField: "Number__c", value: "INV-1", apiVersion: "59.0")
            )
            #expect(record.objectValue?["Amount__c"] == 12.5)
        }
    }

    @Test func updateAndDeleteOfMissingOrDeletedRecords() async throws {
        try await TemporaryDirectory.with { directory in
            let org = try makeOrg(directory)
            let id = try org.write { try $0.create("Account", fields: ["Name": "Acme"]) }
            let missing = try OrgFixtures.error {
                try org.write { try $0.update("Account", id: "001Lo0000000zzzIAA", fields: ["Name": "B"]) }
            }
            #expect(missing.status == 404)
            #expect(missing.errorCode == "NOT_FOUND")
            #expect(missing.message == "The requested resource does not exist")
            try org.write { try $0.delete("Account", id: id) }
            for attempt in [
                { try org.write { try $0.update("Account", id: id, fields: ["Name": "B"]) } },
                { try org.write { try $0.delete("Account", id: id) } },
                { _ = try org.retrieve("Account", id: id, apiVersion: "59.0") },
            ] {
                let error = try OrgFixtures.error(attempt)
                #expect(error.status == 404)
                #expect(error.errorCode == "ENTITY_IS_DELETED")
                #expect(error.message == "entity is deleted")
            }
            #expect(try org.recordVersion("Account", id: id).isDeleted)
        }
    }

    @Test func updatesClearFieldsWithNullAndRejectClearingRequiredOnes() async throws {
        try await TemporaryDirectory.with { directory in
            let org = try makeOrg(directory)
            let id = try org.write { try $0.create("Account", fields: ["Name": "Acme", "Industry": "Banking"]) }
            try org.write { try $0.update("Account", id: id, fields: ["Industry": nil, "Id": .string(id)]) }
            let record = try OrgFixtures.json(
                try org.retrieve("Account", id: id, fields: ["Name", "Industry"], apiVersion: "59.0")
            )
            #expect(record.objectValue?["Industry"] == .null)
            #expect(record.objectValue?.keys == ["attributes", "Name", "Industry"])
            let error = try OrgFixtures.error {
                try org.write { try $0.update("Account", id: id, fields: ["Name": nil]) }
            }
            #expect(error.errorCode == "REQUIRED_FIELD_MISSING")
        }
    }

    @Test func ifUnmodifiedSinceFailsAfterAConcurrentChange() async throws {
        try await TemporaryDirectory.with { directory in
            let clock = TestClock(OrgFixtures.fixedNow)
            let org = try makeOrg(directory, clock: clock)
            let id = try org.write { try $0.create("Account", fields: ["Name": "Acme"]) }
            let read = try org.recordVersion("Account", id: id)
            clock.advance(by: 5)
            try org.write {
                try $0.update(
                    "Account",
                    id: id,
                    fields: ["Name": "Mine"],
                    preconditions: [.ifUnmodifiedSince(read.lastModifiedDate)]
                )
            }
            clock.advance(by: 5)
            try org.write { try $0.update("Account", id: id, fields: ["Name": "Theirs"]) }
            let error = try OrgFixtures.error {
                try org.write {
                    try $0.update(
                        "Account",
                        id: id,
                        fields: ["Name": "Mine again"],
                        preconditions: [.ifUnmodifiedSince(read.lastModifiedDate)]
                    )
                }
            }
            #expect(error.status == 412)
            #expect(error.errorCode == "PRECONDITION_FAILED")
            let stale = try OrgFixtures.error {
                try org.write {
                    try $0.update("Account", id: id, fields: ["Name": "X"], preconditions: [.ifMatch([read.etag])])
                }
            }
            #expect(stale.status == 412)
            let current = try org.recordVersion("Account", id: id)
            try org.write {
                try $0.update("Account", id: id, fields: ["Name": "Y"], preconditions: [.ifMatch([current.etag])])
            }
        }
    }

    @Test func modificationStampsStrictlyIncreaseUnderRapidWrites() async throws {
        try await TemporaryDirectory.with { directory in
            let org = try makeOrg(directory)
            let id = try org.write { try $0.create("Account", fields: ["Name": "Acme"]) }
            var stamps: [Int64] = []
            for round in 0..<200 {
                try org.write { try $0.update("Account", id: id, fields: ["Name": .string("Acme \(round)")]) }
                stamps.append(try org.recordVersion("Account", id: id).lastModified)
            }
            #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 })
            #expect((stamps.first ?? 0) > OrgFixtures.milliseconds(OrgFixtures.fixedNow))
        }
    }

    @Test func savepointsRollBackOnlyTheFailingRecord() async throws {
        try await TemporaryDirectory.with { directory in
            let org = try makeOrg(directory)
            let results: [Bool] = try org.write { writer in
                [["Name": "A"], ["Industry": "no name"], ["Name": "C"]].map { (fields: OrgJSONObject) in
                    (try? writer.savepoint { try writer.create("Account", fields: fields) }) != nil
                }
            }
            #expect(results == [true, false, true])
            #expect(
                try OrgQueryFixture.column("Name", "SELECT Name FROM Account ORDER BY Name", org: org) == ["A", "C"]
            )
            _ = try? org.write { writer in
                try writer.create("Account", fields: ["Name": "D"])
                try writer.create("Account", fields: ["Nope": 1])
            }
            #expect(try org.query("SELECT COUNT() FROM Account", apiVersion: "59.0").totalSize == 2)
        }
    }

    @Test func retrieveManyAlignsWithIDs() async throws {
        try await TemporaryDirectory.with { directory in
            let org = try makeOrg(directory)
            let id = try org.write { try $0.create("Account", fields: ["Name": "Acme"]) }
            let data = try org.retrieve(
                "Account",
                ids: [id, "001Lo0000000zzzIAA"],
                fields: ["Name"],
                apiVersion: "59.0"
            )
            let items = try #require(try OrgFixtures.json(data).arrayValue)
            #expect(items.count == 2)
            #expect(items[0].objectValue?["Name"] == "Acme")
            #expect(items[1] == .null)
            let recent = try OrgFixtures.json(try org.recentlyViewed("Account", apiVersion: "59.0"))
            #expect(recent.arrayValue?.first?.objectValue?["Id"] == .string(id))
        }
    }
}

struct OrgReplicationFeedTests {
    @Test func deletedAndUpdatedFeedsListChangesInTheWindow() async throws {
        try await TemporaryDirectory.with { directory in
            let clock = TestClock(OrgFixtures.fixedNow)
            let org = try OrgFixtures.makeOrg(in: directory, clock: clock)
            let kept = try org.write { try $0.create("Account", fields: ["Name": "Kept"]) }
            let gone = try org.write { try $0.create("Account", fields: ["Name": "Gone"]) }
            clock.advance(by: 60)
            try org.write { try $0.delete("Account", id: gone) }
            let start = OrgFixtures.fixedNow.addingTimeInterval(-10)
            let end = OrgFixtures.fixedNow.addingTimeInterval(3600)
            let deleted = try #require(
                try OrgFixtures.json(org.deletedRecords("Account", start: start, end: end)).objectValue
            )
            let deletedIDs = deleted["deletedRecords"]?.arrayValue?.map { $0.objectValue?["id"] }
            #expect(deletedIDs == [.string(gone)])
            #expect(
                deleted["deletedRecords"]?.arrayValue?.first?.objectValue?["deletedDate"]
                    == "2024-03-05T17:05:11.000+0000"
            )
            let updated = try #require(
                try OrgFixtures.json(org.updatedRecords("Account", start: start, end: end)).objectValue
            )
            #expect(updated["ids"] == .array([.string(kept)]))
        }
    }
}
