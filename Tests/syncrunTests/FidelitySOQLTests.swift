import Foundation
import SyncrunTestSupport
import Testing

/// Issue 19 item 2, through the executable: the SOQL strings of MobileSync's own target tests
/// (`SoqlSyncDownTargetTest`, `SOQLMutatorTest`) pass `validate` (forms an org would refuse get a
/// warning, never an error), `plan`, and a run and a resync against the local org.
@Suite(.serialized)
struct FidelitySOQLTests {
    /// (sync name, query, cleanGhosts).
    static let queries: [(name: String, query: String, cleanGhosts: Bool)] = [
        ("plain", "SELECT Name FROM Account WHERE Name = 'James Bond'", true),
        (
            "childSubquery",
            "SELECT Name, (SELECT Contact.LastName FROM Account.Contacts) FROM Account WHERE Name = 'James Bond' LIMIT 10",
            false
        ),
        (
            "semiJoin",
            "SELECT Name FROM Account WHERE Id IN (SELECT Id FROM Account WHERE Name = 'James Bond' LIMIT 10)",
            true
        ),
        (
            "both",
            "SELECT Name, (SELECT Contact.LastName FROM Account.Contacts) from Account where Id IN "
                + "(SELECT Id FROM Account WHERE Name = 'James Bond' LIMIT 10)",
            false
        ),
        ("fromField", "SELECT From_customer__c FROM Account WHERE Name = 'James Bond' LIMIT 10", false),
        (
            "mutator",
            "select Id, Name from Account where Id in (select Id from Account) and Name like 'Mad Max' limit 1000",
            false
        ),
        // MobileSync's own case filters on Account.Description, a long text area: real orgs refuse
        // that (INVALID_FIELD, "can not be filtered"), and so does the local org since its describes
        // follow real ones. The nesting of the parentheses is what the case checks, so it filters on
        // a text field the schema below adds.
        (
            "nested",
            "select Name from Account where ((Name = 'James Bond') or (Name = 'Batman')) and "
                + "(Tagline__c like '%savior%') order by Name",
            true
        ),
        ("orNull", "select Id from Account where Id != null or Name != null", true),
        ("contacts", "select FirstName, LastName from Contact", true),
    ]

    static var syncs: String {
        let entries = queries.map { entry in
            let soup = entry.name == "contacts" ? "contacts" : "accounts"
            return """
                {"syncName": "\(entry.name)", "syncType": "syncDown", "soupName": "\(soup)",
                 "target": {"type": "soql", "query": "\(entry.query)"},
                 "options": {"mergeMode": "OVERWRITE", "cleanGhosts": \(entry.cleanGhosts)}}
                """
        }
        return #"{"syncs": ["# + entries.joined(separator: ",\n") + "]}"
    }

    static let schema =
        #"{"objects": [{"name": "Account", "fields": [{"name": "From_customer__c", "type": "string"}, {"name": "Tagline__c", "type": "string"}]}]}"#

    static let data: [(file: String, object: String, text: String)] = [
        (
            "Account.json", "Account",
            """
            {"records": [
              {"attributes": {"type": "Account", "referenceId": "Bond"}, "Name": "James Bond",
               "Tagline__c": "a savior, shaken", "From_customer__c": "yes"},
              {"attributes": {"type": "Account", "referenceId": "Bat"}, "Name": "Batman",
               "Tagline__c": "the savior of Gotham"},
              {"attributes": {"type": "Account", "referenceId": "Max"}, "Name": "Mad Max"},
              {"attributes": {"type": "Account", "referenceId": "Other"}, "Name": "Someone Else"}
            ]}
            """
        ),
        (
            "Contact.json", "Contact",
            """
            {"records": [
              {"attributes": {"type": "Contact", "referenceId": "C1"}, "FirstName": "M", "LastName": "Moneypenny",
               "AccountId": "@Bond"},
              {"attributes": {"type": "Contact", "referenceId": "C2"}, "FirstName": "Q", "LastName": "Boothroyd",
               "AccountId": "@Bond"}
            ]}
            """
        ),
    ]

    @Test func mobileSyncsQueriesValidatePlanRunAndResync() async throws {
        try await FidelityProject.with(syncs: Self.syncs, schema: Self.schema, data: Self.data) { project in
            // validate: no error; the forms an org refuses are warnings, on the syncs that hold them.
            let validated = try project.syncrun(["validate", "--format", "json"])
            #expect(validated.status == 0, "\(validated.stdout)\(validated.stderr)")
            let diagnostics = try #require(
                try JSONSerialization.jsonObject(with: Data(validated.stdout.utf8)) as? [[String: Any]]
            )
            #expect(!diagnostics.contains { $0["severity"] as? String == "error" }, "\(diagnostics)")
            let refused = diagnostics.filter { $0["code"] as? String == "soql-org-refuses" }
            let refusedSyncs = Set(refused.compactMap { ($0["path"] as? String)?.split(separator: ".").first })
            #expect(refusedSyncs == ["syncs[2]", "syncs[3]", "syncs[5]"], "\(refused)")

            let plan = try project.syncrun(["plan", "--format", "json"])
            #expect(plan.status == 0, "\(plan.stderr)")
            for entry in Self.queries { #expect(plan.stdout.contains("syncDown:\(entry.name)")) }

            let first = try project.runDone()
            let bond = ["plain", "childSubquery", "semiJoin", "both", "fromField"]
            for name in bond { #expect(try first.count("fetched", of: "syncDown:\(name)") == 1, "\(name)") }
            #expect(try first.count("fetched", of: "syncDown:mutator") == 1)
            #expect(try first.count("fetched", of: "syncDown:nested") == 2)
            #expect(try first.count("fetched", of: "syncDown:orNull") == 4)
            #expect(try first.count("fetched", of: "syncDown:contacts") == 2)
            #expect(try project.storeRecords("accounts").count == 4)

            // A resync puts the watermark filter in front of each condition and still runs.
            let again = try project.runDone()
            #expect(again.statuses.allSatisfy { $0.hasSuffix("=DONE") })
            #expect(try project.storeRecords("accounts").count == 4)
        }
    }
}
