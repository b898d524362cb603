import Foundation
import Migration
import Testing

/// A data-tree plan read as a `--from dir:` set (`DirectorySet.readPlan`): referenceIds as ids,
/// `@Ref` values as the rows they name, scalars as text, and clear refusals.
struct DataTreeSetTests {
    private func folder(_ files: [String: String]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tree-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: url.appendingPathComponent(name)) }
        return url
    }

    @Test func referencesBecomeTheReferencedRowsIdsAndScalarsTheirText() throws {
        let url = try folder([
            "Account-Contact-plan.json": """
            [{"sobject": "Account", "saveRefs": true, "resolveRefs": false, "files": ["Account.json"]},
             {"sobject": "Contact", "saveRefs": false, "resolveRefs": true, "files": ["Contact.json"]}]
            """,
            "Account.json": """
            {"records": [{"attributes": {"type": "Account", "referenceId": "AccRef1"}, "Name": "@Acme",
              "NumberOfEmployees": 42, "IsPartner": true, "AnnualRevenue": 3.5, "Site": null}]}
            """,
            "Contact.json": """
            {"records": [{"attributes": {"type": "Contact", "referenceId": "ConRef1"}, "LastName": "Hopper",
              "AccountId": "@AccRef1"}, {"attributes": {"type": "Contact", "referenceId": "ConRef2"},
              "Email": "x@example.com"}]}
            """,
        ])
        let set = DirectorySet(path: url.path)
        let accounts = try #require(try set.readPlan("Account"))
        #expect(accounts.header == ["Id", "Name", "NumberOfEmployees", "IsPartner", "AnnualRevenue", "Site"])
        // resolveRefs false: an "@" value is a value.
        #expect(accounts.rows.map(\.values) == [["AccRef1", "@Acme", "42", "true", "3.5", nil]])
        let contacts = try #require(try set.read("Contact", syncUp: nil))
        #expect(contacts.header == ["Id", "LastName", "AccountId", "Email"])
        #expect(
            contacts.rows.map(\.values) == [
                ["ConRef1", "Hopper", "AccRef1", nil], ["ConRef2", nil, nil, "x@example.com"],
            ]
        )
        #expect(contacts.rows.map(\.line) == [1, 2])
        #expect(try set.readPlan("Lead") == nil)
    }

    @Test func badPlansAreRefusedWithTheFileAndRecord() throws {
        let nested = try folder([
            "plan.json": #"[{"sobject": "Account", "resolveRefs": true, "files": ["Account.json"]}]"#,
            "Account.json": """
            {"records": [{"attributes": {"type": "Account", "referenceId": "A1"}, "Name": "A",
              "Contacts": {"records": []}}]}
            """,
        ])
        #expect(throws: MigrationError.self) { try DirectorySet(path: nested.path).readPlan("Account") }
        do {
            _ = try DirectorySet(path: nested.path).readPlan("Account")
        } catch {
            #expect("\(error)".contains("Account.json:1 (Contacts)") && "\(error)".contains("--plan"), "\(error)")
        }
        let noReference = try folder([
            "plan.json": #"[{"sobject": "Account", "files": ["Account.json"]}]"#,
            "Account.json": #"{"records": [{"attributes": {"type": "Account"}, "Name": "A"}]}"#,
        ])
        #expect(throws: MigrationError.self) { try DirectorySet(path: noReference.path).readPlan("Account") }
        let broken = try folder(["plan.json": "[{\"sobject\": \"Account\",\n \"files\": [}]"])
        do {
            _ = try DirectorySet(path: broken.path).readPlan("Account")
            Issue.record("a plan that is not JSON was read")
        } catch {
            #expect("\(error)".contains("plan.json:2:"), "\(error)")
        }
    }
}
