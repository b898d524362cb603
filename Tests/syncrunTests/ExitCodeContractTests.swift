import Foundation
import SyncrunTestSupport
import Testing

/// Issue 31 item 1: one exit-code contract for every command (0 success, 1 a failure, 2 a usage
/// error or a refusal before anything ran), checked by running every command against each kind
/// of failure.
@Suite(.serialized)
struct ExitCodeContractTests {
    /// One row of the table: a command line (the project's `--config` is added where the command
    /// takes it) and the words its output (standard error or output) must hold.
    struct Row {
        var arguments: [String]
        var takesConfig = true
        var says: String?
    }

    /// An environment that names no org and never consults a real `sf`.
    static var cleanEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in ["SF_TARGET_ORG", "SFDX_AUTH_URL", "SF_ACCESS_TOKEN", "SSL_CERT_FILE", "SYNCRUN_SF"] {
            environment[name] = nil
        }
        environment["SYNCRUN_SF"] = "/nonexistent/sf"
        return environment
    }

    /// Runs every row and expects `status` (and the row's words on standard error).
    static func expect(_ rows: [Row], status: Int32, config: String, _ kind: String) throws {
        for row in rows {
            let arguments = row.arguments + (row.takesConfig ? ["--config", config] : [])
            let result = try SyncrunProcess.run(arguments, environment: cleanEnvironment)
            let line = "\(kind): syncrun \(arguments.joined(separator: " "))"
            #expect(result.status == status, "\(line) exited \(result.status): \(result.stderr)")
            if let says = row.says {
                #expect((result.stderr + result.stdout).contains(says), "\(line): \(result.stderr)\(result.stdout)")
            }
        }
    }

    /// A usersyncs.json with a comma missing gives 1 from every command that reads the config
    /// (`run` gave 2, `status` and the store commands did not read it).
    @Test func aBrokenConfigIsAFailureEverywhere() async throws {
        try await RunProject.with { project in
            try project.editSyncs(replacing: #""accountsDown","#, with: #""accountsDown""#)
            let org = ["--org", project.org, "--seed", project.seedPlan]
            let schema = project.directory.appendingPathComponent("schema.json").path
            try #"{"objects": []}"#.write(toFile: schema, atomically: true, encoding: .utf8)
            let says = "usersyncs.json"
            let rows = [
                Row(arguments: ["validate"]), Row(arguments: ["plan"]), Row(arguments: ["run"] + org),
                Row(arguments: ["sync"] + org), Row(arguments: ["resync", "accountsDown"] + org),
                Row(arguments: ["clean-ghosts", "accountsDown"] + org), Row(arguments: ["status"]),
                Row(arguments: ["status", "accountsDown"]), Row(arguments: ["store", "init"]),
                Row(arguments: ["store", "soups"]), Row(arguments: ["store", "query", "SELECT 1"]),
                Row(arguments: ["store", "export", "accounts"]),
                Row(arguments: ["store", "mark", "accounts", "--updated"]),
                Row(arguments: ["store", "import", "accounts", schema]),
                Row(arguments: ["org", "check", "--schema-file", schema]),
                Row(arguments: ["org", "diff", "--schema-file", schema, "--against-schema-file", schema]),
                Row(arguments: ["org", "schema", "pull", "--org", project.org, "--output", schema + ".out"]),
                Row(arguments: ["migrate", "--from", project.org, "--to", "local:" + project.orgDirectory + "2"]),
            ].map { Row(arguments: $0.arguments, says: says) }
            try Self.expect(rows, status: 1, config: project.config, "broken config")
        }
    }

    /// A name typed wrong is a usage error (2) with a suggestion, before anything runs.
    @Test func anUnknownNameIsAUsageErrorWithASuggestion() async throws {
        try await RunProject.with { project in
            let org = ["--org", project.org, "--seed", project.seedPlan]
            let down = "did you mean 'accountsDown'?"
            try Self.expect(
                [
                    Row(arguments: ["plan", "--only", "accountDown"], says: down),
                    Row(arguments: ["run", "--only", "accountDown"] + org, says: down),
                    Row(arguments: ["sync", "accountDown"] + org, says: down),
                    Row(arguments: ["resync", "accountDown"] + org, says: down),
                    Row(arguments: ["clean-ghosts", "accountDown"] + org, says: down),
                    Row(arguments: ["status", "accountDown"], says: down),
                    Row(
                        arguments: [
                            "migrate", "--only", "accountUp", "--from", project.org, "--to", project.org + "2",
                        ],
                        says: "did you mean 'accountsUp'?"
                    ),
                ],
                status: 2,
                config: project.config,
                "unknown name"
            )
            // Nothing ran: no store was created by the refused commands.
            #expect(!FileManager.default.fileExists(atPath: project.storeFile.path))
            // An org of the project file typed wrong (then taken for an sf alias, which fails).
            try Self.expect(
                [
                    Row(
                        arguments: ["run", "--org", "locl"],
                        says: "did you mean 'local'? (an org of the project file)"
                    ),
                    Row(arguments: ["org", "whoami", "--org", "locl"], says: "did you mean 'local'?"),
                ],
                status: 2,
                config: project.config,
                "unknown org name"
            )

            let first = try project.run()
            #expect(first.status == 0, "\(first.stderr)")
            let soup = "did you mean 'accounts'?"
            try Self.expect(
                [
                    Row(arguments: ["status", "accountDown"], says: down),
                    Row(arguments: ["store", "mark", "acounts", "--updated"], says: soup),
                    Row(arguments: ["store", "export", "acounts"], says: soup),
                    Row(arguments: ["store", "query", "SELECT {acounts:Name} FROM {acounts}"], says: soup),
                    Row(arguments: ["store", "import", "acounts", "-"], says: soup),
                    Row(
                        arguments: [
                            "org", "export", "--data", project.orgDirectory, "--output", project.config + "/export",
                            "--object", "Acount",
                        ],
                        takesConfig: false,
                        says: "did you mean 'Account'?"
                    ),
                    Row(
                        arguments: [
                            "org", "schema", "pull", "--org", project.org, "--objects", "Contact,Acount", "--output",
                            project.config + "/pulled.json",
                        ],
                        says: "did you mean 'Account'?"
                    ),
                ],
                status: 2,
                config: project.config,
                "unknown name"
            )
        }
    }

    /// Every command: an unknown flag is a usage error (2).
    @Test func aBadFlagIsAUsageErrorForEveryCommand() throws {
        // Each with its required arguments, so the unknown flag is what is wrong.
        let commands: [[String]] = [
            ["validate"], ["plan"], ["run"], ["sync"], ["resync", "a"], ["clean-ghosts", "a"], ["status"],
            ["store", "init"], ["store", "soups"], ["store", "import", "s", "f"], ["store", "export", "s"],
            ["store", "query", "q"], ["store", "mark", "s", "--updated"], ["org", "serve", "--data", "d"],
            ["org", "seed", "--data", "d", "f"], ["org", "export", "--data", "d", "--output", "o"],
            ["org", "query", "--data", "d", "q"],
            ["org", "whoami"], ["org", "check"], ["org", "schema", "pull", "--output", "f"],
            ["org", "diff", "--schema-file", "a", "--against-schema-file", "b"],
            ["migrate", "--from", "a", "--to", "b"],
        ]
        // `org export` validates its --data folder first (still exit 2, another usage error).
        try Self.expect(
            commands.map {
                Row(
                    arguments: $0 + ["--no-such-flag"],
                    takesConfig: false,
                    says: $0.starts(with: ["org", "export"]) ? nil : "--no-such-flag"
                )
            },
            status: 2,
            config: "",
            "bad flag"
        )
    }

    /// An org that cannot be resolved (an http URL with no token) is a usage error (2).
    @Test func anUnresolvableOrgIsAUsageError() async throws {
        try await RunProject.with { project in
            let url = "http://127.0.0.1:9"
            let says = "access token"
            try Self.expect(
                [
                    Row(arguments: ["run", "--org", url], says: says),
                    Row(arguments: ["sync", "--org", url], says: says),
                    Row(arguments: ["resync", "accountsDown", "--org", url], says: says),
                    Row(arguments: ["clean-ghosts", "accountsDown", "--org", url], says: says),
                    Row(arguments: ["org", "whoami", "--org", url], says: says),
                    Row(arguments: ["org", "check", "--org", url], says: says),
                    Row(arguments: ["org", "schema", "pull", "--org", url, "--output", "x.json"], says: says),
                    Row(arguments: ["migrate", "--from", url, "--to", project.org], says: says),
                ],
                status: 2,
                config: project.config,
                "unresolvable org"
            )
        }
    }

    /// A store bound to another org is refused (2); a failed step and a conflict are failures (1).
    @Test func aStoreOfAnotherOrgIsRefusedAndFailuresAndConflictsExitOne() async throws {
        try await RunProject.with { project in
            let first = try project.run()
            #expect(first.status == 0, "\(first.stderr)")
            let other = ["--org", project.org + "-other", "--seed", project.seedPlan]
            try Self.expect(
                [
                    Row(arguments: ["run"] + other, says: "belongs to org"),
                    Row(arguments: ["sync"] + other, says: "belongs to org"),
                    Row(arguments: ["resync", "accountsDown"] + other, says: "belongs to org"),
                    Row(arguments: ["clean-ghosts", "accountsDown"] + other, says: "belongs to org"),
                ],
                status: 2,
                config: project.config,
                "store bound to another org"
            )

            // A conflict: the local change is older than the server's version.
            try project.syncrun([
                "store", "mark", "accounts", "--updated", "--where", "Name=Aster Biotech", "--set", "Phone=555-0100",
                "--set", "LastModifiedDate=2000-01-01T00:00:00.000+0000",
            ])
            let org = ["--org", project.org]
            try Self.expect(
                [Row(arguments: ["sync", "accountsUp"] + org, says: "1 conflict")],
                status: 1,
                config: project.config,
                "conflict"
            )
            try Self.expect(
                [Row(arguments: ["run"] + org, says: "1 conflict")],
                status: 1,
                config: project.config,
                "conflict"
            )

            // A failed step: the query names a field the org does not have.
            try project.editSyncs(
                replacing: "BillingCountry, LastModifiedDate FROM Account",
                with: "Bogus__c, LastModifiedDate FROM Account"
            )
            try Self.expect(
                [
                    Row(arguments: ["run", "--replace"] + org, says: "Bogus__c"),
                    Row(arguments: ["resync", "accountsDown", "--replace"] + org, says: "Bogus__c"),
                ],
                status: 1,
                config: project.config,
                "failed step"
            )
        }
    }

    /// A migration refused for safety (records could be created twice) is a refusal (2).
    @Test func aRefusedMigrationIsAUsageError() async throws {
        try await MigrateProject.with { project in
            try project.editSyncs {
                $0.replacingOccurrences(of: #""matchFields": ["Name"]"#, with: #""matchFields": []"#)
            }
            let refused = try project.migrate()
            #expect(refused.status == 2, "\(refused.stderr)")
            #expect(refused.stderr.contains("--allow-duplicates"), "\(refused.stderr)")
        }
    }

    /// The contract is written once: `syncrun --help` and README's table say the same words.
    @Test func helpAndReadmeStateTheSameContract() throws {
        let help = try SyncrunProcess.run(["--help"])
        #expect(help.status == 0)
        let readme = try String(
            contentsOf: RepositoryPaths.root.appendingPathComponent("README.md"),
            encoding: .utf8
        )
        func words(_ text: String) -> String {
            text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        }
        let helpWords = words(help.stdout)
        let meanings = [
            "success (warnings allowed)",
            "a failure: a config error, a check that found problems (validate, org check, org diff), a step that "
                + "failed or stopped, or left records failed or conflicted",
            "a usage error or a refusal before anything ran: bad flags or arguments, an unknown name, an org that "
                + "cannot be resolved, a store bound to another org, a sync whose stored definition differs from the "
                + "config (without --replace), a migration refused for safety",
        ]
        for (status, meaning) in meanings.enumerated() {
            #expect(helpWords.contains("\(status) \(meaning)"), "--help lacks: \(status) \(meaning)\n\(help.stdout)")
            #expect(readme.contains("| \(status) | \(meaning) |"), "README lacks: | \(status) | \(meaning) |")
        }
    }
}
