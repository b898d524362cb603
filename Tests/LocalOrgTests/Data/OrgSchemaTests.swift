import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing

struct OrgSchemaTests {
    @Test(arguments: [
        ("Account", "001"), ("Contact", "003"), ("Lead", "00Q"), ("Opportunity", "006"), ("Case", "500"),
        ("Task", "00T"), ("User", "005"), ("Organization", "00D"),
    ])
    func standardObjectsHaveTheirKeyPrefixes(_ name: String, _ prefix: String) throws {
        let object = try #require(OrgSchema.standard.object(named: name.lowercased()))
        #expect(object.keyPrefix == prefix)
        #expect(object.field(named: "id")?.type == .id)
        #expect(object.field(named: "SystemModstamp")?.isUpdateable == false)
    }

    @Test func standardRelationships() throws {
        let schema = OrgSchema.standard
        let accountID = try #require(schema.object(named: "Contact")?.field(named: "AccountId"))
        #expect(accountID.relationshipName == "Account")
        #expect(accountID.referenceTo == ["Account"])
        #expect(schema.childRelationship(of: "Account", named: "contacts")?.childObject == "Contact")
        #expect(schema.object(named: "Account")?.field(named: "Name")?.isRequiredOnCreate == true)
    }

    private func write(_ text: String, in directory: URL, name: String = "schema.json") throws -> URL {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test func schemaFilesAddCustomObjectsAndFields() async throws {
        try await TemporaryDirectory.with { directory in
            let url = try write(
                """
                {"objects": [
                  {"name": "Thing__c", "fields": [
                    {"name": "Parent__c", "type": "reference", "referenceTo": "Account"},
                    {"name": "Code__c", "type": "string", "length": 20, "externalId": true, "required": true}
                  ]},
                  {"name": "Other__c", "keyPrefix": "a0X"},
                  {"name": "Account", "fields": [{"name": "Region__c", "type": "picklist", "picklistValues": ["EU", "US"]}]}
                ]}
                """,
                in: directory
            )
            let schema = try OrgSchema.standard.merging(contentsOf: url)
            let thing = try #require(schema.object(named: "Thing__c"))
            #expect(thing.keyPrefix == "a01")
            #expect(thing.isCustom)
            #expect(thing.field(named: "Parent__c")?.relationshipName == "Parent__r")
            #expect(thing.field(named: "Code__c")?.isRequiredOnCreate == true)
            #expect(thing.field(named: "OwnerId") != nil)
            #expect(schema.object(named: "Other__c")?.keyPrefix == "a0X")
            #expect(schema.childRelationship(of: "Account", named: "Things__r")?.field == "Parent__c")
            #expect(schema.object(named: "Account")?.field(named: "Region__c")?.picklistValues == ["EU", "US"])

            // The schema is persisted: reopening without one keeps the custom object and its data.
            let dataDirectory = directory.appendingPathComponent("org")
            let org = try OrgFixtures.makeOrg(in: dataDirectory, schema: schema)
            let account = try org.write { try $0.create("Account", fields: ["Name": "Acme", "Region__c": "EU"]) }
            _ = try org.write {
                try $0.create("Thing__c", fields: ["Name": "T", "Code__c": "X1", "Parent__c": .string(account)])
            }
            let reopened = try OrgFixtures.makeOrg(in: dataDirectory)
            #expect(reopened.schema == schema)
            #expect(
                try OrgQueryFixture.column(
                    "Name",
                    "SELECT Name, (SELECT Code__c FROM Things__r) FROM Account WHERE Region__c = 'EU'",
                    org: reopened
                ) == ["Acme"]
            )
            #expect(
                try OrgQueryFixture.column(
                    "Code__c",
                    "SELECT Code__c FROM Thing__c WHERE Parent__r.Name = 'Acme'",
                    org: reopened
                ) == ["X1"]
            )
        }
    }

    @Test(arguments: [
        (
            #"{"objects": [{"name": "Thing__c", "fields": [{"name": "X__c", "type": "strng"}]}]}"#,
            "schema.json: object 'Thing__c' field 'X__c': unknown type 'strng'; expected one of string, textarea, email, phone, url, picklist, multipicklist, boolean, int, double, currency, percent, date, datetime, reference, combobox, encryptedstring, base64, time, anyType, json, address, location"
        ),
        (
            #"{"objects": [{"name": "Thing__c", "fieldz": []}]}"#,
            "schema.json: objects[0]: unknown key 'fieldz'; expected one of changeDataCapture, createable, custom, deepCloneable, "
                + "deletable, feedEnabled, fields, keyPrefix, label, labelPlural, mergeable, mruEnabled, name, "
                + "queryable, recordTypes, updateable, writable"
        ),
        (
            #"{"objects": [{"name": "Thing__c", "fields": [{"name": "P__c", "type": "reference", "referenceTo": "Acount"}]}]}"#,
            "schema.json: object 'Thing__c' field 'P__c': referenceTo names 'Acount', which is not an object of the schema"
        ),
        (
            #"{"objects": [{"name": "Thing__c", "keyPrefix": "001"}]}"#,
            "schema.json: object 'Thing__c': keyPrefix '001' is already used by 'Account'"
        ),
        (#"{"objects": [}"#, "schema.json: invalid JSON: unexpected character '}' at [line:1, column:14]"),
    ])
    func schemaFileErrorsNameTheProblem(_ text: String, _ message: String) async throws {
        try await TemporaryDirectory.with { directory in
            let url = try write(text, in: directory)
            let error = try OrgFixtures.error { try OrgSchema.standard.merging(contentsOf: url) }
            #expect(error.message == message)
        }
    }

    @Test func yamlSchemaFilesLoadLikeTheirJSONTranscription() async throws {
        try await TemporaryDirectory.with { directory in
            let json = try write(
                #"""
                {"objects": [{"name": "Thing__c", "keyPrefix": "a07", "fields": [
                  {"name": "Code__c", "type": "string", "externalId": true, "length": 40},
                  {"name": "On__c", "type": "boolean", "defaultValue": false},
                  {"name": "Parent__c", "type": "reference", "referenceTo": "Account", "relationshipName": "Parent__r"}]}]}
                """#,
                in: directory,
                name: "schema.json"
            )
            let yaml = try write(
                """
                objects:
                  - name: Thing__c
                    keyPrefix: a07
                    fields:
                      - {name: Code__c, type: string, externalId: true, length: 40}
                      - {name: On__c, type: boolean, defaultValue: false}
                      - {name: Parent__c, type: reference, referenceTo: Account, relationshipName: Parent__r}
                """,
                in: directory,
                name: "schema.yaml"
            )
            let fromJSON = try OrgSchema.standard.merging(contentsOf: json)
            let fromYAML = try OrgSchema.standard.merging(contentsOf: yaml)
            #expect(fromYAML == fromJSON)
            #expect(fromYAML.objects.contains { $0.name == "Thing__c" && $0.keyPrefix == "a07" })
        }
    }

    @Test func yamlSchemaErrorsNameFileLineAndColumn() async throws {
        try await TemporaryDirectory.with { directory in
            let url = try write("objects:\n  - name: Thing__c\n    fields: [\n", in: directory, name: "schema.yml")
            let error = try OrgFixtures.error { try OrgSchema.standard.merging(contentsOf: url) }
            #expect(error.message.hasPrefix("schema.yml:"))
            #expect(error.message.contains("invalid YAML"))
        }
    }

    @Test func describeIsGeneratedFromTheSchema() async throws {
        try await TemporaryDirectory.with { directory in
            let org = try OrgFixtures.makeOrg(in: directory)
            let describe = try #require(
                try OrgFixtures.json(try org.describe("contact", apiVersion: "59.0")).objectValue
            )
            #expect(describe["name"] == "Contact")
            #expect(describe["keyPrefix"] == "003")
            let fieldsList = describe["fields"]?.arrayValue?.compactMap(\.objectValue)
            let fields = try #require(fieldsList)
            let accountField = fields.first(where: { $0["name"] == "AccountId" })
            let accountID = try #require(accountField)
            #expect(accountID["relationshipName"] == "Account")
            #expect(accountID["referenceTo"] == ["Account"])
            let createdDate = fields.first(where: { $0["name"] == "CreatedDate" })
            #expect(createdDate?["createable"] == false)
            let account = try #require(
                try OrgFixtures.json(try org.describe("Account", apiVersion: "59.0")).objectValue
            )
            let childrenList = account["childRelationships"]?.arrayValue?.compactMap(\.objectValue)
            let children = try #require(childrenList)
            let hasContacts = children.contains(where: {
                $0["relationshipName"] == "Contacts" && $0["field"] == "AccountId"
            })
            #expect(hasContacts)
            let global = try #require(try OrgFixtures.json(org.describeGlobal(apiVersion: "59.0")).objectValue)
            let first = try #require(global["sobjects"]?.arrayValue?.first?.objectValue)
            #expect(first["urls"]?.objectValue?["rowTemplate"] == "/services/data/v59.0/sobjects/Account/{ID}")
            let missing = try OrgFixtures.error { try org.describe("Nope", apiVersion: "59.0") }
            #expect(missing.status == 404)
        }
    }

    @Test func searchFindsNamesAcrossObjects() async throws {
        try await TemporaryDirectory.with { directory in
            let (org, _) = try OrgQueryFixture.make(in: directory)
            let result = try OrgFixtures.json(
                try org.search(
                    "FIND {acm*} IN ALL FIELDS RETURNING Account(Id, Name), Contact(Name WHERE LastName = 'Doe')",
                    apiVersion: "59.0"
                )
            )
            let recordsList = result.objectValue?["searchRecords"]?.arrayValue?.compactMap(\.objectValue)
            let records = try #require(recordsList)
            let names = records.map { $0["Name"] }
            #expect(names == ["Acme", "Jane Doe"])
            let bad = try OrgFixtures.error { try org.search("FIND acme", apiVersion: "59.0") }
            #expect(bad.errorCode == "MALFORMED_SEARCH")
        }
    }
}
