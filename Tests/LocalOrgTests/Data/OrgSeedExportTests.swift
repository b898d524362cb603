import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing

struct OrgSeedExportTests {
    private func write(_ text: String, _ name: String, in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test func seedsTheContactsExamplePlan() async throws {
        try await TemporaryDirectory.with { directory in
            let plan = RepositoryPaths.examples.appendingPathComponent("contacts/data/plan.json")
            try #require(FileManager.default.fileExists(atPath: plan.path))
            let org = try OrgFixtures.makeOrg(in: directory)
            let report = try OrgSeeder(database: org).seed(files: [plan])
            #expect(report.counts.map(\.object) == ["Account", "Contact"])
            let contacts = try #require(report.counts.last?.count)
            #expect(
                try org.query("SELECT COUNT() FROM Contact WHERE AccountId != null", apiVersion: "59.0").totalSize
                    == contacts
            )
        }
    }

    @Test func resolvesForwardReferencesNestedChildrenAndAuditFields() async throws {
        try await TemporaryDirectory.with { directory in
            let contacts = try write(
                """
                {"records": [{"attributes": {"type": "Contact", "referenceId": "ContactRef1"}, "LastName": "Doe",
                  "AccountId": "@AccountRef1", "Description": "@not-a-reference"}]}
                """,
                "Contact.json",
                in: directory
            )
            let accounts = try write(
                """
                {"records": [{"attributes": {"type": "Account", "referenceId": "AccountRef1"}, "Name": "Acme",
                  "CreatedDate": "2030-01-01T00:00:00.000Z", "LastModifiedDate": "2030-01-02T00:00:00.000Z",
                  "Contacts": {"records": [{"attributes": {"type": "Contact", "referenceId": "ContactRef2"}, "LastName": "Roe"}]}}]}
                """,
                "Account.json",
                in: directory
            )
            let org = try OrgFixtures.makeOrg(in: directory.appendingPathComponent("org"))
            let report = try OrgSeeder(database: org).seed(files: [contacts, accounts])
            #expect(report.total == 3)
            let account = try #require(report.references["AccountRef1"])
            #expect(
                try OrgQueryFixture.column(
                    "LastName",
                    "SELECT LastName FROM Contact WHERE AccountId = '\(account)' ORDER BY LastName",
                    org: org
                )
                    == ["Doe", "Roe"]
            )
            let times = try OrgFixtures.json(
                try org.retrieve(
                    "Account",
                    id: account,
                    fields: ["CreatedDate", "LastModifiedDate", "SystemModstamp"],
                    apiVersion: "59.0"
                )
            )
            #expect(times.objectValue?["CreatedDate"] == "2030-01-01T00:00:00.000+0000")
            #expect(times.objectValue?["SystemModstamp"] == "2030-01-02T00:00:00.000+0000")
            // The clock moved past the seeded stamps: a later write stamps strictly later.
            try org.write { try $0.update("Account", id: account, fields: ["Name": "Acme 2"]) }
            #expect(try org.recordVersion("Account", id: account).lastModified > 1_893_542_400_000)
        }
    }

    @Test func seedErrorsChangeNothing() async throws {
        try await TemporaryDirectory.with { directory in
            let good = try write(
                #"{"records": [{"attributes": {"type": "Account", "referenceId": "A"}, "Name": "Acme"}]}"#,
                "a.json",
                in: directory
            )
            let unknownReference = try write(
                #"{"records": [{"attributes": {"type": "Contact", "referenceId": "C"}, "LastName": "Doe", "AccountId": "@Nope"}]}"#,
                "c.json",
                in: directory
            )
            let unknownField = try write(
                #"{"records": [{"attributes": {"type": "Contact", "referenceId": "C"}, "LastName": "Doe", "Foo": 1}]}"#,
                "f.json",
                in: directory
            )
            let badJSON = try write(
                "{\"records\": [\n  {\"attributes\": {\"type\": \"Account\"},\n   \"Name\": \"A\",,}]}",
                "bad.json",
                in: directory
            )
            let org = try OrgFixtures.makeOrg(in: directory.appendingPathComponent("org"))
            let seeder = OrgSeeder(database: org)
            let cases: [(URL, String)] = [
                (
                    unknownReference,
                    "c.json: record 1 (C): field 'AccountId' refers to '@Nope', which no seed record defines as its referenceId"
                ),
                (unknownField, "f.json: record 1 (C): No such column 'Foo' on sobject of type Contact"),
                (badJSON, "\(badJSON.path):3:16: error: invalid JSON: expected a string key"),
            ]
            for (file, message) in cases {
                let error = try OrgFixtures.error { try seeder.seed(files: [good, file]) }
                #expect(error.message == message)
            }
            #expect(try org.query("SELECT COUNT() FROM Account", apiVersion: "59.0").totalSize == 0)
        }
    }

    @Test func exportRoundTripsThroughTheSeeder() async throws {
        try await TemporaryDirectory.with { directory in
            let (org, _) = try OrgQueryFixture.make(in: directory)
            let output = directory.appendingPathComponent("export")
            let report = try OrgExporter(database: org).export(to: output)
            #expect(report.planFile.lastPathComponent == "Account-Contact-plan.json")
            #expect(report.counts.map(\.count) == [4, 4])
            let accounts = try OrgFixtures.json(Data(contentsOf: output.appendingPathComponent("Accounts.json")))
            let second = try #require(accounts.objectValue?["records"]?.arrayValue?[1].objectValue)
            #expect(second["attributes"] == ["type": "Account", "referenceId": "AccountRef2"])
            #expect(second["ParentId"] == "@AccountRef1")

            let copy = try OrgFixtures.makeOrg(in: directory.appendingPathComponent("copy"))
            _ = try OrgSeeder(database: copy).seed(files: [report.planFile])
            let soql = "SELECT Name, Account.Name, CreatedDate, LastModifiedDate FROM Contact ORDER BY LastName"
            let original = try OrgFixtures.json(try org.query(soql, apiVersion: "59.0").recordsJSON)
            let restored = try OrgFixtures.json(try copy.query(soql, apiVersion: "59.0").recordsJSON)
            func strip(_ value: OrgJSONValue) -> [String] {
                (value.arrayValue ?? []).map { record in
                    let object = record.objectValue
                    return [
                        object?["Name"]?.stringValue, object?["Account"]?.objectValue?["Name"]?.stringValue,
                        object?["CreatedDate"]?.stringValue, object?["LastModifiedDate"]?.stringValue,
                    ].map { $0 ?? "null" }.joined(separator: "|")
                }
            }
            #expect(strip(original) == strip(restored))
            #expect(strip(original).count == 4)
        }
    }
}
