import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing

/// `org schema pull` keeps every field type of a real describe, and `org check` understands them
/// (issue 30 item 4): it knows which soup index types can hold each field's values.
@Suite struct OrgCheckFieldTypesTests {
    static let schema = """
        {"objects": [{"name": "Visit__c", "keyPrefix": "a0V", "fields": [
          {"name": "Kind__c", "type": "combobox"},
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

    static let syncs = """
        {"syncs": [{"syncName": "visits", "syncType": "syncDown", "soupName": "visits",
          "target": {"type": "soql", "query": "SELECT Id, Kind__c, Starts__c, Where__c, Photo__c, Spot__c, Who.Name, LastModifiedDate FROM Visit__c"},
          "options": {"mergeMode": "OVERWRITE"}}]}
        """

    static let store = """
        {"soups": [{"soupName": "visits", "indexes": [
          {"path": "Id", "type": "string"}, {"path": "__local__", "type": "string"},
          {"path": "__sync_id__", "type": "integer"},
          {"path": "Kind__c", "type": "full_text"},
          {"path": "Starts__c", "type": "string"},
          {"path": "Where__c", "type": "string"},
          {"path": "Spot__c", "type": "json1"},
          {"path": "Photo__c", "type": "full_text"},
          {"path": "Secret__c", "type": "integer"}]}]}
        """

    @Test func pullKeepsEveryTypeAndCheckKnowsWhichIndexesHoldThem() async throws {
        try await TemporaryDirectory.with(prefix: "org-check-types") { directory in
            try Self.syncs.write(
                to: directory.appendingPathComponent("usersyncs.json"),
                atomically: true,
                encoding: .utf8
            )
            try Self.store.write(
                to: directory.appendingPathComponent("userstore.json"),
                atomically: true,
                encoding: .utf8
            )
            let schema = try OrgSchema.standard.merging(json: Data(Self.schema.utf8), source: "types.json")
            try await LocalOrgFixture.with(schema: schema) { org in
                let pull = try await SyncrunProcess.runOffThePool(
                    [
                        "org", "schema", "pull", "--org", org.baseURL.absoluteString, "--access-token", org.accessToken,
                        "--output", "pulled.json",
                    ],
                    in: directory
                )
                #expect(pull.status == 0, "\(pull.stderr)")
            }
            let pulled = try OrgSchema.standard.merging(contentsOf: directory.appendingPathComponent("pulled.json"))
            let visit = try #require(pulled.object(named: "Visit__c"))
            let types = Dictionary(uniqueKeysWithValues: visit.fields.map { ($0.name, $0.type.wireName) })
            for (name, type) in [
                ("Kind__c", "combobox"), ("Old__c", "anyType"), ("Spot__c", "location"), ("Where__c", "address"),
                ("Photo__c", "base64"), ("Starts__c", "time"), ("Secret__c", "encryptedstring"), ("Data__c", "json"),
            ] {
                #expect(types[name] == type, "\(name)")
            }
            #expect(visit.field(named: "WhoId")?.referenceTo == ["Contact", "Lead"])

            let check = try SyncrunProcess.run(["org", "check", "--schema-file", "pulled.json"], in: directory)
            #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
            let lines = check.stdout.split(separator: "\n").map(String.init)
            #expect(!lines.contains { $0.contains("[unknown-field]") }, "\(lines)")
            let mismatches = lines.filter { $0.hasSuffix("[index-type-mismatch]") }
            #expect(mismatches.count == 3, "\(lines)")
            for fragment in [
                "'Visit__c.Where__c' is an address field; index type 'string' cannot",
                "'Visit__c.Photo__c' is a base64 field; index type 'full_text' cannot",
                "'Visit__c.Secret__c' is an encryptedstring field; index type 'integer' cannot",
            ] {
                #expect(mismatches.contains { $0.contains(fragment) }, "\(fragment)")
            }
            #expect(lines.last == "3 warnings", "\(lines)")
        }
    }
}
