import Foundation
import SyncrunTestSupport
import Testing

/// `syncrun org query` with `SELECT COUNT()`: the count, not an empty record list.
struct OrgQueryCountTests {
    @Test func aCountQueryPrintsTheTotalSizeInBothFormats() async throws {
        try await TemporaryDirectory.with { directory in
            let data = directory.appendingPathComponent("org").path
            let plan = RepositoryPaths.examples.appendingPathComponent("contacts/data/plan.json").path
            let seeded = try SyncrunProcess.run(["org", "seed", "--data", data, plan])
            #expect(seeded.status == 0, "\(seeded.stderr)")
            let json = try SyncrunProcess.run(["org", "query", "--data", data, "SELECT COUNT() FROM Contact"])
            #expect(json.status == 0, "\(json.stderr)")
            #expect(json.stdout == "{\"totalSize\":50}\n")
            let lines = try SyncrunProcess.run([
                "org", "query", "--data", data, "--format", "jsonl", "SELECT COUNT() FROM Account WHERE Name != null",
            ])
            #expect(lines.stdout == "{\"totalSize\":20}\n")
            let records = try SyncrunProcess.run(["org", "query", "--data", data, "SELECT Id FROM Account LIMIT 1"])
            #expect(records.stdout.hasPrefix("[\n  {\"Id\":"))
        }
    }
}
