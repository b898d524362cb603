import Foundation
import SyncrunTestSupport
import Testing

/// `examples/briefcase` end to end through the executable: the org's briefcase comes from the
/// example's schema file, the data from the contacts example's seed plan.
@Suite(.serialized)
struct BriefcaseExampleTests {
    static let covered = ["Energy", "Utilities", "Construction", "Engineering", "Manufacturing"]

    @Test func theExamplePrimesTheBriefcaseThenSendsAndResyncsOnlyWhatChanged() async throws {
        try await TemporaryDirectory.with { directory in
            let project = directory.appendingPathComponent("briefcase")
            try FileManager.default.copyItem(
                at: RepositoryPaths.examples.appendingPathComponent("briefcase"),
                to: project
            )
            try? FileManager.default.removeItem(at: project.appendingPathComponent(".syncrun"))
            let org = project.appendingPathComponent(".syncrun/org").path
            let seed = RepositoryPaths.examples.appendingPathComponent("contacts/data/plan.json").path
            let schema = project.appendingPathComponent("org/schema.yaml").path
            func run() throws -> SyncrunProcess.Result {
                try SyncrunProcess.run([
                    "run", "--config", project.path, "--org", "local:" + org, "--schema", schema, "--seed", seed,
                    "--format", "json",
                ])
            }
            func storeRows(_ sql: String) throws -> [String] {
                let result = try SyncrunProcess.run(["store", "query", "--config", project.path, sql])
                #expect(result.status == 0, "\(result.stderr)")
                return result.stdout.split(separator: "\n").map(String.init)
            }

            let first = try run()
            #expect(first.status == 0, "\(first.stderr)")
            let summary = try RunSummary(first)
            #expect(summary.status == "DONE")
            #expect(
                summary.steps.map { $0["step"] as? String } == [
                    "syncUp:contactsUp", "syncDown:fieldSales", "cleanGhosts:fieldSales",
                ]
            )
            let line = try #require(first.stdout.split(separator: "\n").last)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let usage = try #require(object["apiUsage"] as? [String: Int], "\(line)")
            #expect(usage["max"] == 100_000 && usage["used"] == 4 && usage["remaining"] == 99_996)
            // 5 accounts of the covered industries and their 13 contacts, out of 20 and 50.
            #expect(try summary.count("created", of: "syncDown:fieldSales") == 18)
            let industries = try storeRows("SELECT {accounts:Industry} FROM {accounts} ORDER BY {accounts:Industry}")
            #expect(industries == Self.covered.sorted().map { "[\"\($0)\"]" })
            #expect(try storeRows("SELECT count(*) FROM {contacts}") == ["[13]"])

            // A contact edited offline goes up first, then only what changed comes back down.
            let marked = try SyncrunProcess.run([
                "store", "mark", "contacts", "--updated", "--where", "LastName=Garcia", "--set", "Phone=555-0199",
                "--config", project.path,
            ])
            #expect(marked.status == 0, "\(marked.stderr)")
            let second = try run()
            #expect(second.status == 0, "\(second.stderr)")
            let again = try RunSummary(second)
            #expect(try again.count("updated", of: "syncUp:contactsUp") == 1)
            let fetched = try #require(try again.step("syncDown:fieldSales")["fetched"] as? Int)
            #expect(fetched >= 1 && fetched < 18, "an incremental resync, not a full one: \(fetched)")
            let phones = try SyncrunProcess.run([
                "org", "query", "--data", org, "SELECT Phone FROM Contact WHERE LastName = 'Garcia'",
            ])
            #expect(phones.stdout.contains("555-0199"), "\(phones.stdout)")
        }
    }
}
