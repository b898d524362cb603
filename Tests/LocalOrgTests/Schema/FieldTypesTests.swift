import Foundation
import SyncrunTestSupport
import Testing

@testable import LocalOrg

/// The field types of real describes a schema file holds (issue 30 item 4): `combobox`, `anyType`,
/// `location`, `address`, `base64`, `time`, `encryptedstring`, `json`, and polymorphic lookups
/// (`Event.WhoId` → Contact, Lead).
struct FieldTypesTests {
    static let schemaJSON = """
        {"objects": [{"name": "Visit__c", "fields": [
          {"name": "Kind__c", "type": "combobox", "picklistValues": ["Call", "Meeting"]},
          {"name": "Old__c", "type": "anyType"},
          {"name": "Spot__c", "type": "location"},
          {"name": "Where__c", "type": "address"},
          {"name": "Photo__c", "type": "base64"},
          {"name": "Starts__c", "type": "time"},
          {"name": "Secret__c", "type": "encryptedstring"},
          {"name": "Data__c", "type": "json"},
          {"name": "WhoId", "type": "reference", "referenceTo": ["Contact", "Lead"], "relationshipName": "Who"}
        ]}]}
        """

    static func schema() throws -> OrgSchema {
        try OrgSchema.standard.merging(json: Data(schemaJSON.utf8), source: "types.json")
    }

    @Test func theSchemaFileHoldsEachTypeAndDescribesItAsARealOrg() async throws {
        try await TemporaryDirectory.with { directory in
            let org = try OrgFixtures.makeOrg(in: directory, schema: try Self.schema())
            let describe = try OrgJSONValue.decode(org.describe("Visit__c", apiVersion: "59.0"))
            let fields = describe.objectValue?["fields"]?.arrayValue?.compactMap(\.objectValue) ?? []
            let byName = Dictionary(uniqueKeysWithValues: fields.map { ($0["name"]?.stringValue ?? "", $0) })
            let expected: [(String, String, String)] = [
                ("Kind__c", "combobox", "xsd:string"), ("Old__c", "anyType", "xsd:anyType"),
                ("Spot__c", "location", "urn:location"), ("Where__c", "address", "urn:address"),
                ("Photo__c", "base64", "xsd:base64Binary"), ("Starts__c", "time", "xsd:time"),
                ("Secret__c", "encryptedstring", "xsd:string"), ("Data__c", "json", "xsd:string"),
            ]
            for (name, type, soapType) in expected {
                #expect(byName[name]?["type"] == .string(type), "\(name)")
                #expect(byName[name]?["soapType"] == .string(soapType), "\(name)")
            }
            // As the recorded Contact describe's OtherAddress: filterable, not sortable, read-only.
            #expect(byName["Where__c"]?["filterable"] == true && byName["Where__c"]?["sortable"] == false)
            #expect(byName["Where__c"]?["createable"] == false && byName["Where__c"]?["updateable"] == false)
            #expect(byName["Photo__c"]?["filterable"] == false && byName["Secret__c"]?["filterable"] == false)
            #expect(byName["Kind__c"]?["length"] == .integer(255))
            #expect(byName["WhoId"]?["referenceTo"] == ["Contact", "Lead"])
            #expect(byName["WhoId"]?["polymorphicForeignKey"] == true)

            let again = try OrgSchema(objects: []).merging(json: org.schema.schemaFileData(), source: "again.json")
            #expect(again.object(named: "Visit__c") == org.schema.object(named: "Visit__c"))
        }
    }

    @Test func writesFollowEachTypesRules() async throws {
        try await TemporaryDirectory.with { directory in
            let org = try OrgFixtures.makeOrg(in: directory, schema: try Self.schema())
            let id = try org.write {
                try $0.create(
                    "Visit__c",
                    fields: [
                        "Name": "V", "Kind__c": "Something else", "Starts__c": "13:30:00.000Z",
                        "Photo__c": "aGVsbG8=", "Secret__c": "s3cret", "Old__c": 5, "Data__c": ["a": 1],
                    ]
                )
            }
            let page = try org.query(
                "SELECT Kind__c, Starts__c, Photo__c, Old__c, Data__c FROM Visit__c WHERE Id = '\(id)'",
                apiVersion: "59.0"
            )
            let record = try #require(try OrgJSONValue.decode(page.recordsJSON).arrayValue?.first?.objectValue)
            #expect(record["Kind__c"] == "Something else")
            #expect(record["Starts__c"] == "13:30:00.000Z")
            #expect(record["Photo__c"] == "aGVsbG8=")
            #expect(record["Old__c"] == "5")
            #expect(record["Data__c"] == #"{"a":1}"#)

            let badTime = try OrgFixtures.error {
                try org.write { try $0.create("Visit__c", fields: ["Name": "T", "Starts__c": "25:00"]) }
            }
            #expect(badTime.errorCode == "JSON_PARSER_ERROR")
            #expect(badTime.fields == ["Starts__c"])
            let compound = try OrgFixtures.error {
                try org.write { try $0.create("Visit__c", fields: ["Name": "A", "Where__c": "1 Main St"]) }
            }
            #expect(compound.errorCode == "INVALID_FIELD_FOR_INSERT_UPDATE")
            let filter = try OrgFixtures.error {
                try org.query("SELECT Id FROM Visit__c WHERE Photo__c = 'x'", apiVersion: "59.0")
            }
            #expect(filter.message == "field 'Photo__c' can not be filtered in a query call")
        }
    }
}
