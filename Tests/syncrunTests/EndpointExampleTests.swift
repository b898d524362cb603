import Foundation
import SyncrunTestSupport
import Testing

/// `examples/endpoint` end to end through the executable: the local org serves the example's JSON
/// endpoint over Account (its schema file), the data comes from the contacts example's seed plan.
@Suite(.serialized)
struct EndpointExampleTests {
    @Test func theExampleSyncsThroughTheDeclaredEndpoint() async throws {
        try await TemporaryDirectory.with { directory in
            let project = directory.appendingPathComponent("endpoint")
            try FileManager.default.copyItem(
                at: RepositoryPaths.examples.appendingPathComponent("endpoint"),
                to: project
            )
            try? FileManager.default.removeItem(at: project.appendingPathComponent(".syncrun"))
            let org = project.appendingPathComponent(".syncrun/org").path
            let seed = RepositoryPaths.examples.appendingPathComponent("contacts/data/plan.json").path
            let schema = project.appendingPathComponent("org/schema.yaml").path
            func run(_ extra: [String] = []) throws -> SyncrunProcess.Result {
                try SyncrunProcess.run(
                    ["run", "--config", project.path, "--org", "local:" + org, "--schema", schema, "--seed", seed]
                        + extra + ["--format", "json"]
                )
            }

            let plan = try SyncrunProcess.run(["plan", "--config", project.path])
            #expect(plan.status == 0, "\(plan.stderr)")
            #expect(plan.stdout.contains("sends update: PATCH /services/apexrest/accounts/{Id}\n"))

            let first = try run()
            #expect(first.status == 0, "\(first.stderr)")
            let summary = try RunSummary(first)
            #expect(summary.status == "DONE")
            #expect(try summary.count("created", of: "syncDown:accountsDown") == 20)
            #expect(try summary.step("syncDown:accountsDown")["requests"] as? Int == 4)

            let marked = try SyncrunProcess.run([
                "store", "mark", "accounts", "--updated", "--where", "Name=Aster Biotech", "--set", "Industry=Energy",
                "--config", project.path,
            ])
            #expect(marked.status == 0 && marked.stdout.contains("1 entr"), "\(marked.stdout) \(marked.stderr)")

            let preview = try run(["--dry-run"])
            #expect(preview.status == 0, "\(preview.stderr)")
            #expect(preview.stdout.contains("\"org\":{\"created\":0,\"deleted\":0,\"updated\":1}"), "\(preview.stdout)")

            let second = try run()
            #expect(second.status == 0, "\(second.stderr)")
            let again = try RunSummary(second)
            #expect(try again.count("updated", of: "syncUp:accountsUp") == 1)
            #expect(try again.count("conflicts", of: "syncUp:accountsUp") == 0)
            let fetched = try #require(try again.step("syncDown:accountsDown")["fetched"] as? Int)
            #expect(fetched >= 1 && fetched < 20, "an incremental resync, not a full one: \(fetched)")
            let industries = try SyncrunProcess.run([
                "org", "query", "--data", org, "SELECT Industry FROM Account WHERE Name = 'Aster Biotech'",
            ])
            #expect(industries.stdout.contains("Energy"), "\(industries.stdout)")
        }
    }
}
