import Foundation
import SyncrunTestSupport
import Testing

/// `syncrun org seed` end to end: counts, idempotent `--if-new`, and errors that change nothing.
struct OrgSeedCommandTests {
    private var plan: String {
        RepositoryPaths.examples.appendingPathComponent("contacts/data/plan.json").path
    }

    @Test func seedsTheExampleAndIfNewSkipsAnExistingOrg() async throws {
        try await TemporaryDirectory.with { directory in
            let data = directory.appendingPathComponent("org").path
            let first = try SyncrunProcess.run(["org", "seed", "--data", data, "--if-new", plan])
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stdout == "Account: 20 records\nContact: 50 records\nseeded 70 records into \(data)\n")

            let second = try SyncrunProcess.run(["org", "seed", "--data", data, "--if-new", "--format", "json", plan])
            #expect(second.status == 0, "\(second.stderr)")
            let summary = try #require(
                try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any]
            )
            #expect(summary["skipped"] as? Bool == true)
            #expect(summary["total"] as? Int == 0)

            // Without --if-new the same files are loaded again: 20 more accounts.
            let third = try SyncrunProcess.run(["org", "seed", "--data", data, "--format", "json", plan])
            #expect(third.status == 0, "\(third.stderr)")
            let again = try #require(
                try JSONSerialization.jsonObject(with: Data(third.stdout.utf8)) as? [String: Any]
            )
            #expect(again["total"] as? Int == 70)
            #expect(again["skipped"] as? Bool == false)
        }
    }

    /// `org seed` and `org export` list their objects alike: `{"object", "records"}` in JSON,
    /// `Account: 20 records` in text.
    @Test func seedAndExportListTheirObjectsAlike() async throws {
        try await TemporaryDirectory.with { directory in
            let data = directory.appendingPathComponent("org").path
            let seeded = try SyncrunProcess.run(["org", "seed", "--data", data, "--format", "json", plan])
            #expect(seeded.status == 0, "\(seeded.stderr)")
            let seedJSON = try #require(
                try JSONSerialization.jsonObject(with: Data(seeded.stdout.utf8)) as? [String: Any]
            )
            func objects(_ json: [String: Any]) -> [String] {
                (json["objects"] as? [[String: Any]] ?? []).map { "\($0["object"] ?? "-")=\($0["records"] ?? "-")" }
            }
            let expected = ["Account=20", "Contact=50"]
            #expect(objects(seedJSON) == expected)

            let output = directory.appendingPathComponent("export").path
            let exported = try SyncrunProcess.run([
                "org", "export", "--data", data, "--output", output, "--format", "json",
            ])
            #expect(exported.status == 0, "\(exported.stderr)")
            let exportJSON = try #require(
                try JSONSerialization.jsonObject(with: Data(exported.stdout.utf8)) as? [String: Any]
            )
            #expect(objects(exportJSON) == expected)

            let text = try SyncrunProcess.run(["org", "export", "--data", data, "--output", output])
            #expect(text.status == 0, "\(text.stderr)")
            #expect(text.stdout.hasPrefix("Account: 20 records\nContact: 50 records\nwrote "))
        }
    }

    @Test func anIDSeedGivesTheSameIDsAndFreshOrgsDiffer() async throws {
        try await TemporaryDirectory.with { directory in
            func seededIDs(_ name: String, _ seed: [String]) throws -> String {
                let data = directory.appendingPathComponent(name).path
                let seeded = try SyncrunProcess.run(["org", "seed", "--data", data] + seed + [plan])
                #expect(seeded.status == 0, "\(seeded.stderr)")
                let soql = "SELECT Id FROM Organization"
                let organization = try SyncrunProcess.run(["org", "query", "--data", data, soql])
                let accounts = try SyncrunProcess.run([
                    "org", "query", "--data", data, "SELECT Id FROM Account ORDER BY Id",
                ])
                #expect(organization.status == 0 && accounts.status == 0, "\(organization.stderr)\(accounts.stderr)")
                #expect(accounts.stdout.contains("\"001"))
                return organization.stdout + accounts.stdout
            }
            let first = try seededIDs("a", ["--id-seed", "7"])
            #expect(try seededIDs("b", ["--id-seed", "7"]) == first)
            #expect(try seededIDs("c", ["--id-seed", "8"]) != first)
            #expect(try seededIDs("d", []) != first)
        }
    }

    @Test func unknownReferenceFailsAndWritesNothing() async throws {
        try await TemporaryDirectory.with { directory in
            let records = directory.appendingPathComponent("Contact.json")
            try Data(
                """
                {"records": [{"attributes": {"type": "Contact", "referenceId": "C1"},
                  "LastName": "Nobody", "AccountId": "@MissingRef"}]}
                """.utf8
            ).write(to: records)
            let data = directory.appendingPathComponent("org").path
            let run = try SyncrunProcess.run(["org", "seed", "--data", data, records.path])
            #expect(run.status == 1)
            #expect(run.stderr.hasPrefix("error: "))
            #expect(run.stderr.contains("MissingRef"))

            // Nothing was written: exporting the org's contacts finds none.
            let output = directory.appendingPathComponent("export").path
            let export = try SyncrunProcess.run([
                "org", "export", "--data", data, "--output", output, "--object", "Contact",
            ])
            #expect(export.status == 0, "\(export.stderr)")
            #expect(export.stdout.hasPrefix("Contact: 0 records\n"))
        }
    }
}
