import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing

/// `syncrun org check`, `org schema pull` and `org diff`, black-box through the executable, against
/// schema files and against local orgs served from them.
@Suite struct OrgCheckCommandTests {
    /// A config breaking each org rule once against ``schemaB``.
    static let usersyncs = """
        {
          "syncs": [
            {
              "syncName": "accounts", "syncType": "syncDown", "soupName": "accounts",
              "target": {
                "type": "soql",
                "query": "SELECT Id, Name, Rating__c, Score__c, LastModifiedDate FROM Account WHERE RecordTypeId = '012000000000001AAA'"
              },
              "options": {"mergeMode": "OVERWRITE"}
            },
            {
              "syncName": "widgets", "syncType": "syncDown", "soupName": "widgets",
              "target": {"type": "soql", "query": "SELECT Id, LastModifiedDate FROM Widget__c"},
              "options": {"mergeMode": "OVERWRITE"}
            },
            {
              "syncName": "contacts", "syncType": "syncDown", "soupName": "contacts",
              "target": {
                "type": "soql", "query": "SELECT Id, LastName, Birthdate FROM Contact",
                "modificationDateFieldName": "Birthdate"
              },
              "options": {"mergeMode": "OVERWRITE"}
            },
            {
              "syncName": "accountsUp", "syncType": "syncUp", "soupName": "accounts",
              "target": {
                "createFieldlist": ["Name", "Total__c"],
                "updateFieldlist": ["Name", "Code__c"],
                "externalIdFieldName": "Code__c"
              },
              "options": {"mergeMode": "OVERWRITE"}
            },
            {
              "syncName": "accountContacts", "syncType": "syncDown", "soupName": "accounts",
              "target": {
                "type": "parent_children",
                "parent": {"sobjectType": "Account", "soupName": "accounts"},
                "parentFieldlist": ["Id", "Name"],
                "children": {
                  "sobjectType": "Contact", "sobjectTypePlural": "Contacts", "soupName": "contacts",
                  "parentIdFieldName": "AccountId"
                },
                "childrenFieldlist": ["Id", "LastName"],
                "relationshipType": "MASTER_DETAIL"
              },
              "options": {"mergeMode": "OVERWRITE"}
            }
          ]
        }

        """

    /// Org A: what the config was written for (every rule holds).
    static let schemaA = """
        {"mode": "exact", "objects": [
          {"name": "Account", "keyPrefix": "001", "fields": [
            {"name": "Name", "type": "string", "required": true},
            {"name": "Rating__c", "type": "string"},
            {"name": "Score__c", "type": "double"},
            {"name": "Total__c", "type": "currency"},
            {"name": "Code__c", "type": "string", "externalId": true, "unique": true}],
           "recordTypes": [{"developerName": "Business"}, {"developerName": "Partner"}]},
          {"name": "Widget__c", "keyPrefix": "a01", "fields": [{"name": "Name", "type": "string"}]},
          {"name": "Contact", "keyPrefix": "003", "fields": [
            {"name": "LastName", "type": "string", "required": true},
            {"name": "Birthdate", "type": "datetime"},
            {"name": "AccountId", "type": "reference", "referenceTo": "Account", "relationshipOrder": 0,
             "childRelationshipName": "Contacts"}]}
        ]}

        """

    /// Org B: every way a real org differs, once each.
    static let schemaB = """
        {"mode": "exact", "objects": [
          {"name": "Account", "keyPrefix": "001", "fields": [
            {"name": "Name", "type": "string", "required": true},
            {"name": "acme__Score__c", "type": "double"},
            {"name": "Total__c", "type": "currency", "createable": false, "updateable": false},
            {"name": "Code__c", "type": "string", "updateable": false},
            {"name": "Tier__c", "type": "string", "required": true}],
           "recordTypes": [{"developerName": "Business"}]},
          {"name": "Contact", "keyPrefix": "003", "fields": [
            {"name": "LastName", "type": "string", "required": true},
            {"name": "Birthdate", "type": "date"},
            {"name": "AccountId", "type": "reference", "referenceTo": "Account", "childRelationshipName": "Contacts"}]}
        ]}

        """

    /// Writes the config and both schema files into `directory`.
    private static func writeProject(in directory: URL) throws {
        try usersyncs.write(to: directory.appendingPathComponent("usersyncs.json"), atomically: true, encoding: .utf8)
        try schemaA.write(to: directory.appendingPathComponent("a.json"), atomically: true, encoding: .utf8)
        try schemaB.write(to: directory.appendingPathComponent("b.json"), atomically: true, encoding: .utf8)
    }

    /// `LINE:COL` of the `occurrence`-th (1-based) `needle` in the config text.
    private static func position(of needle: String, occurrence: Int = 1) -> String {
        var remaining = occurrence
        for (index, line) in usersyncs.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var searchStart = line.startIndex
            while let range = line[searchStart...].range(of: needle) {
                remaining -= 1
                if remaining == 0 {
                    let column = line.unicodeScalars.distance(from: line.startIndex, to: range.lowerBound) + 1
                    return "\(index + 1):\(column)"
                }
                searchStart = range.upperBound
            }
        }
        return "not found"
    }

    /// One line per rule, at the character it is about.
    static var expectedAgainstB: [String] {
        [
            "usersyncs.json:\(position(of: "Rating__c")): error: syncs[0].target.query: field 'Rating__c' does not "
                + "exist on 'Account' or is not visible to the current user [unknown-field]",
            "usersyncs.json:\(position(of: "Score__c")): error: syncs[0].target.query: field 'Score__c' does not exist "
                + "on 'Account'; did you mean 'acme__Score__c'? (namespace prefix) [namespace-mismatch]",
            "usersyncs.json:\(position(of: "'012000000000001AAA'")): warning: syncs[0].target.query: "
                + "'012000000000001AAA' is a RecordType id, valid in one org only; filter on RecordType.DeveloperName "
                + "instead [org-specific-id]",
            "usersyncs.json:\(position(of: "Widget__c")): error: syncs[1].target.query: sObject 'Widget__c' does not "
                + "exist in this org or is not visible to the current user [unknown-object]",
            "usersyncs.json:\(position(of: "\"Birthdate\"")): error: syncs[2].target.modificationDateFieldName: "
                + "'Contact.Birthdate' is a date field, not a datetime; modificationDateFieldName must name a datetime "
                + "field such as 'LastModifiedDate' [not-datetime]",
            "usersyncs.json:\(position(of: "[\"Name\", \"Total__c\"]")): warning: syncs[3].target.createFieldlist: "
                + "'Account.Tier__c' is required on create in this org but is not in the create field list; creates "
                + "will fail with REQUIRED_FIELD_MISSING unless every record sets it [required-field-missing]",
            "usersyncs.json:\(position(of: "\"Total__c\"")): error: syncs[3].target.createFieldlist[1]: "
                + "'Account.Total__c' is not createable in this org (read-only, formula, auto-number or hidden by "
                + "field-level security); remove it from the create field list [field-not-createable]",
            "usersyncs.json:\(position(of: "\"Code__c\"")): error: syncs[3].target.updateFieldlist[1]: "
                + "'Account.Code__c' is not updateable in this org; remove it from the update field list "
                + "[field-not-updateable]",
            "usersyncs.json:\(position(of: "\"Code__c\"", occurrence: 2)): error: syncs[3].target.externalIdFieldName: "
                + "'Account.Code__c' is neither an external id nor an idLookup field in this org; upserts by it will "
                + "fail [not-external-id]",
            "usersyncs.json:\(position(of: "\"MASTER_DETAIL\"")): error: syncs[4].target.relationshipType: "
                + "relationshipType is 'MASTER_DETAIL' but 'Contact.AccountId' is a lookup (no cascadeDelete) in this "
                + "org; use 'LOOKUP' [relationship-mismatch]",
            "8 errors, 2 warnings",
        ]
    }

    @Test func schemaFileBreakingEachRuleGivesOneDiagnosticPerRule() async throws {
        try await TemporaryDirectory.with(prefix: "org-check") { directory in
            try Self.writeProject(in: directory)
            let result = try SyncrunProcess.run(["org", "check", "--schema-file", "b.json"], in: directory)
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.stdout.split(separator: "\n").map(String.init) == Self.expectedAgainstB)

            let clean = try SyncrunProcess.run(["org", "check", "--schema-file", "a.json"], in: directory)
            // Org A has every object and field; the literal RecordType id is org-specific anywhere (a warning).
            #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
            #expect(clean.stdout.split(separator: "\n").map(String.init) == [Self.expectedAgainstB[2], "1 warning"])
        }
    }

    @Test func jsonFormatIsValidatesArray() async throws {
        try await TemporaryDirectory.with(prefix: "org-check") { directory in
            try Self.writeProject(in: directory)
            let result = try SyncrunProcess.run(
                ["org", "check", "--schema-file", "b.json", "--format", "json"],
                in: directory
            )
            #expect(result.status == 1)
            let array = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
            )
            #expect(array.count == 10)
            #expect(Set(array.compactMap { $0["code"] as? String }).count == 10)
            let keys = Set(array.flatMap { $0.keys })
            #expect(keys == ["file", "line", "column", "severity", "path", "message", "code"])
        }
    }

    @Test func servedLocalOrgGivesTheSameDiagnostics() async throws {
        try await TemporaryDirectory.with(prefix: "org-check") { directory in
            try Self.writeProject(in: directory)
            let schema = try OrgSchema.standard.merging(contentsOf: directory.appendingPathComponent("b.json"))
            try await LocalOrgFixture.with(schema: schema) { org in
                let result = try await SyncrunProcess.runOffThePool(
                    ["org", "check", "--org", org.baseURL.absoluteString, "--access-token", org.accessToken],
                    in: directory
                )
                #expect(result.status == 1, "\(result.stderr)")
                #expect(result.stdout.split(separator: "\n").map(String.init) == Self.expectedAgainstB)
            }
        }
    }

    @Test func usageErrorsExitTwo() async throws {
        try await TemporaryDirectory.with(prefix: "org-check") { directory in
            try Self.writeProject(in: directory)
            let missing = try SyncrunProcess.run(["org", "check", "--schema-file", "nope.json"], in: directory)
            #expect(missing.status == 2)
            #expect(missing.stderr.contains("the schema file 'nope.json' does not exist"))
            let both = try SyncrunProcess.run(
                ["org", "check", "--schema-file", "a.json", "--org", "local:x"],
                in: directory
            )
            #expect(both.status == 2)
        }
    }

    @Test func schemaPullAgreesWithTheServedOrgAndRoundTrips() async throws {
        try await TemporaryDirectory.with(prefix: "org-check") { directory in
            try Self.writeProject(in: directory)
            let schema = try OrgSchema.standard.merging(contentsOf: directory.appendingPathComponent("b.json"))
            let pulled = directory.appendingPathComponent("pulled.json")
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
            let offline = try SyncrunProcess.run(["org", "check", "--schema-file", "pulled.json"], in: directory)
            #expect(offline.status == 1, "\(offline.stderr)")
            #expect(offline.stdout.split(separator: "\n").map(String.init) == Self.expectedAgainstB)

            let first = try Data(contentsOf: pulled)
            let text = String(decoding: first, as: UTF8.self)
            #expect(text.contains("\"mode\" : \"exact\"") || text.contains("\"mode\": \"exact\""))
            #expect(!text.contains("recordTypeId") && !text.contains("012000000000000AAA"))
            for object in ["\"Account\"", "\"Contact\"", "\"User\"", "\"Organization\"", "\"RecordType\""] {
                #expect(text.contains("\"name\" : " + object) || text.contains("\"name\": " + object), "\(object)")
            }
            let rebuilt = try OrgSchema.standard.merging(contentsOf: pulled)
            try await LocalOrgFixture.with(schema: rebuilt) { org in
                let again = try await SyncrunProcess.runOffThePool(
                    [
                        "org", "schema", "pull", "--org", org.baseURL.absoluteString, "--access-token", org.accessToken,
                        "--output", "again.json",
                    ],
                    in: directory
                )
                #expect(again.status == 0, "\(again.stderr)")
                let checked = try await SyncrunProcess.runOffThePool(
                    ["org", "check", "--org", org.baseURL.absoluteString, "--access-token", org.accessToken],
                    in: directory
                )
                #expect(checked.stdout == offline.stdout)
            }
            #expect(try Data(contentsOf: directory.appendingPathComponent("again.json")) == first)
        }
    }

    @Test func diffOfTwoSchemaFilesListsDifferencesAndBreaks() async throws {
        try await TemporaryDirectory.with(prefix: "org-check") { directory in
            try Self.writeProject(in: directory)
            let result = try SyncrunProcess.run(
                ["org", "diff", "--schema-file", "a.json", "--against-schema-file", "b.json", "--format", "json"],
                in: directory
            )
            #expect(result.status == 1, "\(result.stderr)")
            let document = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            )
            let differences = try #require(document["differences"] as? [[String: Any]])
            func has(_ object: String, _ field: String?, _ property: String, _ a: String, _ b: String) -> Bool {
                differences.contains { difference in
                    difference["object"] as? String == object && (difference["field"] as? String) == field
                        && difference["property"] as? String == property && "\(difference["a"] ?? "nil")" == a
                        && "\(difference["b"] ?? "nil")" == b
                }
            }
            #expect(has("Account", "Rating__c", "exists", "1", "0"), "\(differences)")
            #expect(has("Account", "Score__c", "exists", "1", "0"))
            #expect(has("Account", "acme__Score__c", "exists", "0", "1"))
            #expect(has("Account", "Total__c", "createable", "1", "0"))
            #expect(has("Contact", "Birthdate", "type", "datetime", "date"))
            #expect(has("Widget__c", nil, "exists", "1", "0"))
            #expect(
                differences.contains {
                    $0["object"] as? String == "Account" && $0["property"] as? String == "recordTypes"
                        && ($0["a"] as? [String]) == ["Business", "Partner"] && ($0["b"] as? [String]) == ["Business"]
                }
            )
            let breaks = try #require(document["breaks"] as? [[String: Any]])
            #expect(breaks.count == 10)
            #expect(breaks.contains { $0["code"] as? String == "namespace-mismatch" })

            let same = try SyncrunProcess.run(
                ["org", "diff", "--schema-file", "a.json", "--against-schema-file", "a.json"],
                in: directory
            )
            #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
            #expect(same.stdout.hasSuffix("[org-specific-id]\n0 differences, 0 breaks on B\n"), "\(same.stdout)")
        }
    }
}
