import Foundation
import SyncrunTestSupport
import Testing

/// Issue 31 item 5: words that say what happened and what to do next.
@Suite(.serialized)
struct WordsTests {
    /// The command a conflict line advises (`… keep the local version: syncrun ARGS, then …`), as
    /// arguments, and what follows `then`.
    static func advice(_ label: String, in stderr: String) throws -> (arguments: [String], then: String) {
        let line = try #require(
            stderr.split(separator: "\n").first { $0.contains(label) },
            "no '\(label)' in \(stderr)"
        )
        let command = try #require(line.range(of: "syncrun ")).upperBound
        let then = try #require(line.range(of: ", then syncrun "))
        return (
            line[command..<then.lowerBound].split(separator: " ").map(String.init), String(line[then.upperBound...])
        )
    }

    /// A conflict is said as a conflict, with two commands that resolve it; each does.
    @Test func aConflictIsSaidAsOneWithTheCommandsThatResolveIt() async throws {
        try await RunProject.with { project in
            let first = try project.run()
            #expect(first.status == 0, "\(first.stderr)")
            func conflict(phone: String) throws -> SyncrunProcess.Result {
                try project.syncrun([
                    "store", "mark", "accounts", "--updated", "--where", "Name=Aster Biotech", "--set",
                    "Phone=\(phone)",
                    "--set", "LastModifiedDate=2000-01-01T00:00:00.000+0000",
                ])
                let run = try project.run()
                #expect(run.status == 1)
                #expect(run.stderr.contains("1 conflict: changed on the org since the last sync down"), "\(run.stderr)")
                #expect(!run.stderr.contains("need attention"), "\(run.stderr)")
                #expect(!run.stderr.contains("(s)"), "\(run.stderr)")
                return run
            }
            // Keep the local version: the advised mark, then a run, sends it.
            let kept = try conflict(phone: "555-0100")
            let keep = try Self.advice("keep the local version:", in: kept.stderr)
            #expect(keep.arguments.prefix(3) == ["store", "mark", "accounts"])
            #expect(keep.then == "run")
            try project.syncrun(keep.arguments)
            let sent = try project.run()
            #expect(sent.status == 0, "\(sent.stderr)")
            let phone = "SELECT Phone FROM Account WHERE Name = 'Aster Biotech'"
            #expect(try project.orgRecords(phone).first?["Phone"] as? String == "555-0100")

            // Take the org's version: the advised import, then a full run, drops the local change.
            let taken = try conflict(phone: "555-0199")
            let take = try Self.advice("take the org's version:", in: taken.stderr)
            let line = try #require(taken.stderr.split(separator: "\n").first { $0.contains("take the org's") })
            let echoed = try #require(line.range(of: "echo '")).upperBound
            let stdin = String(line[echoed...].prefix { $0 != "'" })
            let importArguments = try #require(line.range(of: "| syncrun ")).upperBound
            let arguments = line[importArguments...].prefix { $0 != "," }.split(separator: " ").map(String.init)
            #expect(take.then == "run --full")
            try project.syncrun(arguments, stdin: stdin)
            let full = try project.run(["--full"])
            #expect(full.status == 0, "\(full.stderr)")
            #expect(try project.orgRecords(phone).first?["Phone"] as? String == "555-0100")
            let stored = try project.storeRows(
                "SELECT {accounts:Phone}, {accounts:__local__} FROM {accounts} WHERE {accounts:Name} = 'Aster Biotech'"
            )
            #expect(stored.first?.first as? String == "555-0100")
            #expect("\(stored.first?.last ?? "")" == "0" || "\(stored.first?.last ?? "")" == "false")
        }
    }

    /// `1 entry`, `2 entries`; a `--where` that matches nothing says so (exit 0), with a hint for
    /// a misspelt path.
    @Test func countsAreInWordsAndAnEmptyMatchSaysSo() async throws {
        try await RunProject.with { project in
            let first = try project.run()
            #expect(first.status == 0, "\(first.stderr)")
            let one = try project.syncrun(["store", "mark", "accounts", "--updated", "--where", "Name=Aster Biotech"])
            #expect(one.stdout == "accounts: 1 entry marked updated\n")
            let all = try project.syncrun(["store", "mark", "contacts", "--updated"])
            #expect(all.stdout == "contacts: 50 entries marked updated\n")
            let none = try project.syncrun(["store", "mark", "accounts", "--updated", "--where", "Name=Nobody"])
            #expect(
                none.stdout
                    == "accounts: no entries match --where Name=Nobody; nothing was marked "
                    + "('syncrun store export accounts' shows the entries)\n"
            )
            let misspelt = try project.syncrun(["store", "mark", "accounts", "--updated", "--where", "Nam=Acme"])
            #expect(misspelt.stdout.contains("no entries match --where Nam=Acme; did you mean 'Name'?"))
            let soups = try project.syncrun(["store", "soups"])
            #expect(soups.stdout.contains("accounts (TABLE_1): 20 entries;"), "\(soups.stdout)")
        }
    }

    /// `status` before any run names the command that creates sync states, not `store init`.
    @Test func statusBeforeAnyRunSaysToRun() async throws {
        try await RunProject.with { project in
            let status = try SyncrunProcess.run(["status", "--config", project.config])
            #expect(status.status == 1)
            #expect(status.stderr.contains("no sync has run yet"), "\(status.stderr)")
            #expect(status.stderr.contains("'syncrun run'"))
            #expect(!status.stderr.contains("store init"), "\(status.stderr)")
            let named = try SyncrunProcess.run(["status", "accountsDown", "--config", project.config])
            #expect(named.status == 1)
            #expect(!named.stderr.contains("store init"), "\(named.stderr)")
        }
    }

    /// `org --help` describes the group as it is: the local org and commands for any org.
    @Test func orgHelpDescribesTheWholeGroup() throws {
        let help = try SyncrunProcess.run(["org", "--help"])
        #expect(help.status == 0)
        let words = help.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        #expect(words.contains("run and fill the embedded local org; check any org, real or local"), "\(help.stdout)")
        #expect(words.contains("For any org, real"), "\(help.stdout)")
    }

    /// Output on a terminal fits its width: `validate` on a pseudo-terminal 40 columns wide wraps
    /// its lines; piped, the same command keeps them whole.
    @Test func theExecutableWrapsOnlyOnATerminal() async throws {
        try await RunProject.with { project in
            try project.editSyncs(replacing: #""accountsDown","#, with: #""accountsDown", "bogusKey": 1,"#)
            let arguments = "validate --config '\(project.config)'"
            var environment = ProcessInfo.processInfo.environment
            environment["COLUMNS"] = "40"
            let onTerminal = try SyncrunProcess.run(
                ["-qec", "'\(RepositoryPaths.syncrunExecutable.path)' \(arguments)", "/dev/null"],
                environment: environment,
                executable: URL(fileURLWithPath: "/usr/bin/script")
            )
            let lines = onTerminal.stdout.replacingOccurrences(of: "\r\n", with: "\n")
                .split(whereSeparator: { $0 == "\n" || $0 == "\r" })
            #expect(lines.count > 1 && lines.allSatisfy { $0.count <= 40 }, "\(onTerminal.stdout)")
            let piped = try SyncrunProcess.run(["validate", "--config", project.config], environment: environment)
            #expect(piped.stdout.split(separator: "\n").contains { $0.count > 40 }, "\(piped.stdout)")
        }
    }

    /// `org schema pull --output x.yaml` writes YAML (the same schema as the JSON file).
    @Test func aYAMLOutputFileGetsYAML() async throws {
        try await RunProject.with { project in
            let first = try project.run()
            #expect(first.status == 0, "\(first.stderr)")
            var checks: [String] = []
            for name in ["pulled.yaml", "pulled.json"] {
                let file = project.directory.appendingPathComponent(name).path
                let pull = try SyncrunProcess.run([
                    "org", "schema", "pull", "--org", project.org, "--output", file, "--config", project.config,
                ])
                #expect(pull.status == 0, "\(pull.stderr)")
                let text = try String(contentsOfFile: file, encoding: .utf8)
                #expect(text.hasPrefix("{") == (name == "pulled.json"), "\(name): \(text.prefix(80))")
                if name == "pulled.yaml" {
                    #expect(text.contains("\nobjects:\n") || text.hasPrefix("objects:\n"), "\(text.prefix(200))")
                }
                let check = try SyncrunProcess.run(["org", "check", "--schema-file", file, "--config", project.config])
                #expect(check.status == 0, "\(name): \(check.stdout) \(check.stderr)")
                checks.append(check.stdout)
                // The file serves a local org as its schema.
                let seeded = try SyncrunProcess.run([
                    "org", "seed", "--data", project.directory.appendingPathComponent("org-" + name).path,
                    "--schema", file, project.seedPlan,
                ])
                #expect(seeded.status == 0, "\(name): \(seeded.stderr)")
            }
            #expect(checks[0] == checks[1])
        }
    }

    /// A migration's dry run names its phases as dry-run phases (the JSON key stays `phase`).
    @Test func migrateDryRunPhasesAreNamedAsDryRuns() async throws {
        try await MigrateProject.with { project in
            let preview = try project.migrate(["--dry-run"])
            #expect(preview.status == 0, "\(preview.stderr)")
            #expect(preview.stdout.contains(#""phase":"dry-run-write""#), "\(preview.stdout)")
            #expect(!preview.stdout.contains(#""phase":"write""#))
        }
    }
}
