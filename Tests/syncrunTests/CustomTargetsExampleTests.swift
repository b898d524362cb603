import Foundation
import SyncrunTestSupport
import Testing

/// `examples/custom-targets` end to end: the example's own executable (the stock command tree over
/// SyncrunCLI with two plug-ins registered) against a local org seeded with the contacts example's
/// plan (50 contacts owned by the org's user); the stock `syncrun` refuses the same config.
@Suite(.serialized)
struct CustomTargetsExampleTests {
    static let example = RepositoryPaths.executable(named: "custom-targets-example")

    @Test func theExamplesPluginsSyncDownAndUpAndTheStockExecutableNamesThem() async throws {
        try await TemporaryDirectory.with { directory in
            let project = directory.appendingPathComponent("custom-targets")
            try FileManager.default.copyItem(
                at: RepositoryPaths.examples.appendingPathComponent("custom-targets"),
                to: project
            )
            try? FileManager.default.removeItem(at: project.appendingPathComponent(".syncrun"))
            let org = project.appendingPathComponent(".syncrun/org").path
            let seed = RepositoryPaths.examples.appendingPathComponent("contacts/data/plan.json").path
            func example(_ arguments: [String]) throws -> SyncrunProcess.Result {
                try SyncrunProcess.run(arguments, executable: Self.example)
            }
            func run(_ extra: [String] = []) throws -> SyncrunProcess.Result {
                try example(
                    ["run", "--config", project.path, "--org", "local:" + org, "--seed", seed, "--page-size", "20"]
                        + extra + ["--format", "json"]
                )
            }

            let stock = try SyncrunProcess.run(["validate", "--config", project.path])
            #expect(stock.status == 1)
            let said = stock.stdout + stock.stderr
            #expect(said.contains("custom target class 'OwnedContactsSyncDownTarget'"), "\(said)")
            #expect(said.contains("links the SyncrunCLI library"), "\(said)")
            let valid = try example(["validate", "--config", project.path])
            #expect(valid.status == 0, "\(valid.stderr)")

            let first = try run()
            #expect(first.status == 0, "\(first.stderr)")
            let summary = try RunSummary(first)
            #expect(try summary.count("created", of: "syncDown:myContactsDown") == 50)
            // The identity call, then three query pages of 20.
            #expect(try summary.step("syncDown:myContactsDown")["requests"] as? Int == 4)

            func mark(_ arguments: [String]) throws {
                let marked = try SyncrunProcess.run(
                    ["store", "mark", "contacts"] + arguments + ["--config", project.path]
                )
                #expect(marked.status == 0 && marked.stdout.contains("1 entr"), "\(marked.stdout) \(marked.stderr)")
            }
            try mark(["--updated", "--where", "LastName=Thompson", "--set", "Title=Chair"])
            try mark(["--updated", "--where", "Email=liam.nguyen@blueharbor.example", "--set", "Email=not an email"])

            let preview = try run(["--dry-run"])
            #expect(preview.status == 0, "\(preview.stderr)")
            #expect(preview.stdout.contains("\"org\":{\"created\":0,\"deleted\":0,\"updated\":2}"), "\(preview.stdout)")

            let second = try run()
            #expect(second.status == 1, "a refused record makes the run exit 1: \(second.stderr)")
            let again = try RunSummary(second)
            #expect(try again.count("updated", of: "syncUp:contactsUp") == 1)
            #expect(try again.count("failed", of: "syncUp:contactsUp") == 1)
            let titles = try SyncrunProcess.run([
                "org", "query", "--data", org, "SELECT Title, Email FROM Contact WHERE LastName = 'Thompson'",
            ])
            #expect(titles.stdout.contains("Chair"), "\(titles.stdout)")
            let refused = try SyncrunProcess.run([
                "store", "query", "--config", project.path,
                "SELECT {contacts:__last_error__} FROM {contacts} WHERE {contacts:Email} = 'not an email'",
            ])
            #expect(refused.stdout.contains("INVALID_EMAIL_ADDRESS"), "\(refused.stdout) \(refused.stderr)")
            let server = try SyncrunProcess.run([
                "org", "query", "--data", org, "SELECT Id FROM Contact WHERE Email = 'not an email'",
            ])
            #expect(server.status == 0 && server.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        }
    }
}
