import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing

/// The local org behaves as its describe says (issue 30 item 2): clauses refuse fields the
/// describe marks not filterable, sortable or groupable; deletes empty the optional lookups left
/// pointing at the deleted record; restricted picklists refuse other values.
struct DescribeBehaviourTests {
    static let queries: [(String, String)] = [
        ("SELECT Id FROM Account WHERE Description = 'x'", "field 'Description' can not be filtered in a query call"),
        (
            "SELECT Id FROM Account WHERE Description LIKE 'x%'",
            "field 'Description' can not be filtered in a query call"
        ),
        (
            "SELECT Id FROM Contact WHERE Account.Description != null",
            "field 'Description' can not be filtered in a query call"
        ),
        ("SELECT Id FROM Case ORDER BY Description", "field 'Description' can not be sorted in a query call"),
        (
            "SELECT Id, (SELECT Id FROM Contacts ORDER BY Description) FROM Account",
            "field 'Description' can not be sorted in a query call"
        ),
        ("SELECT Name FROM Opportunity GROUP BY Amount", "field 'Amount' can not be grouped in a query call"),
        ("SELECT Subject FROM Case GROUP BY CreatedDate", "field 'CreatedDate' can not be grouped in a query call"),
    ]

    @Test(arguments: queries)
    func clausesRefuseFieldsTheDescribeDoesNotAllow(_ soql: String, message: String) async throws {
        try await TemporaryDirectory.with { directory in
            let org = try OrgFixtures.makeOrg(in: directory)
            let error = try OrgFixtures.error { try org.query(soql, apiVersion: OrgFixtures.apiVersion) }
            #expect(error.status == 400)
            #expect(error.errorCode == "INVALID_FIELD")
            #expect(error.message == message)
        }
    }

    @Test func clausesStillTakeFieldsTheDescribeAllows() async throws {
        try await TemporaryDirectory.with { directory in
            let org = try OrgFixtures.makeOrg(in: directory)
            _ = try org.write { try $0.create("Account", fields: ["Name": "Acme", "BillingStreet": "1 Main St"]) }
            let page = try org.query(
                "SELECT Id FROM Account WHERE BillingStreet = '1 Main St' ORDER BY BillingStreet, CreatedDate",
                apiVersion: OrgFixtures.apiVersion
            )
            #expect(page.totalSize == 1)
        }
    }

    @Test func deletingARecordEmptiesTheOptionalLookupsPointingAtIt() async throws {
        try await TemporaryDirectory.with { directory in
            let clock = TestClock(OrgFixtures.fixedNow)
            let org = try OrgFixtures.makeOrg(in: directory, clock: clock)
            let account = try org.write { try $0.create("Account", fields: ["Name": "Acme"]) }
            let parent = try org.write { try $0.create("Account", fields: ["Name": "Parent"]) }
            try org.write { try $0.update("Account", id: account, fields: ["ParentId": .string(parent)]) }
            let manager = try org.write { try $0.create("Contact", fields: ["LastName": "Boss"]) }
            let report = try org.write {
                try $0.create("Contact", fields: ["LastName": "Report", "ReportsToId": .string(manager)])
            }
            let before = try org.query(
                "SELECT SystemModstamp, LastModifiedDate FROM Contact WHERE Id = '\(report)'",
                apiVersion: OrgFixtures.apiVersion
            )
            clock.advance(by: 60)
            try org.write { try $0.delete("Contact", id: manager) }
            try org.write { try $0.delete("Account", id: parent) }

            let contact = try OrgFixtures.json(
                try org.query(
                    "SELECT ReportsToId, SystemModstamp, LastModifiedDate FROM Contact WHERE Id = '\(report)'",
                    apiVersion: OrgFixtures.apiVersion
                ).recordsJSON
            ).arrayValue?.first?.objectValue
            #expect(contact?["ReportsToId"] == .null)
            let old = try OrgFixtures.json(before.recordsJSON).arrayValue?.first?.objectValue
            #expect(contact?["LastModifiedDate"] == old?["LastModifiedDate"])
            #expect(contact?["SystemModstamp"] != old?["SystemModstamp"])
            #expect(
                try OrgFixtures.values(
                    "ParentId",
                    in: try org.query("SELECT ParentId FROM Account WHERE Id = '\(account)'", apiVersion: "59.0")
                        .recordsJSON
                ) == [.null]
            )
            // The deleted record keeps its own values in the Recycle Bin.
            let deleted = try org.query(
                "SELECT Id FROM Contact WHERE IsDeleted = true",
                includeDeleted: true,
                apiVersion: "59.0"
            )
            #expect(try OrgFixtures.ids(deleted.recordsJSON) == [manager])
        }
    }

    /// Contact's `childRelationships` say Case.ContactId is `restrictedDelete` (recorded real describe).
    @Test func aContactWithACaseCannotBeDeleted() async throws {
        try await TemporaryDirectory.with { directory in
            let org = try OrgFixtures.makeOrg(in: directory)
            let contact = try org.write { try $0.create("Contact", fields: ["LastName": "Doe"]) }
            _ = try org.write { try $0.create("Case", fields: ["Subject": "Help", "ContactId": .string(contact)]) }
            let error = try OrgFixtures.error { try org.write { try $0.delete("Contact", id: contact) } }
            #expect(error.errorCode == "DELETE_FAILED")
            #expect(try org.query("SELECT COUNT() FROM Contact", apiVersion: "59.0").totalSize == 1)
        }
    }

    @Test func restrictedPicklistsRefuseOtherValues() async throws {
        try await TemporaryDirectory.with { directory in
            let file = directory.appendingPathComponent("schema.json")
            try Data(
                """
                {"objects": [{"name": "Ticket__c", "fields": [
                  {"name": "Tier__c", "type": "picklist", "picklistValues": ["Gold", "Silver"], "restrictedPicklist": true},
                  {"name": "Tags__c", "type": "multipicklist", "picklistValues": ["A", "B"], "restrictedPicklist": true},
                  {"name": "Open__c", "type": "picklist", "picklistValues": ["Gold"]}
                ]}]}
                """.utf8
            ).write(to: file)
            let org = try OrgFixtures.makeOrg(
                in: directory.appendingPathComponent("org"),
                schema: try OrgSchema.standard.merging(contentsOf: file)
            )
            _ = try org.write {
                try $0.create(
                    "Ticket__c",
                    fields: ["Name": "T", "Tier__c": "Gold", "Tags__c": "A;B", "Open__c": "Any"]
                )
            }
            for (field, value) in [("Tier__c", "Bronze"), ("Tier__c", "gold"), ("Tags__c", "A;C")] {
                let error = try OrgFixtures.error {
                    try org.write { try $0.create("Ticket__c", fields: ["Name": "T", field: .string(value)]) }
                }
                #expect(error.errorCode == "INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST")
                #expect(error.fields == [field])
                #expect(!error.message.contains(value))
            }
            let describe = try OrgFixtures.json(
                try #require(OrgSchema.standard.merging(contentsOf: file).describeData("Ticket__c"))
            )
            let tier = describe.objectValue?["fields"]?.arrayValue?.compactMap(\.objectValue)
                .first { $0["name"] == "Tier__c" }
            #expect(tier?["restrictedPicklist"] == true)
        }
    }
}
