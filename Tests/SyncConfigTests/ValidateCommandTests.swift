import Foundation
import SyncrunTestSupport
import Testing

/// `syncrun validate` end to end: the built executable's output and exit status.
struct ValidateCommandTests {
    /// Runs the built `syncrun` with `arguments` in `directory`.
    private func syncrun(_ arguments: [String], in directory: URL) throws -> SyncrunProcess.Result {
        try SyncrunProcess.run(arguments, in: directory)
    }

    private func write(_ files: [String: String], to directory: URL) throws {
        for (name, content) in files {
            try Data(content.utf8).write(to: directory.appendingPathComponent(name))
        }
    }

    private let store = """
        {"soups": [{"soupName": "accounts", "indexes": [
          {"path": "Id", "type": "string"}, {"path": "__local__", "type": "string"}]}]}
        """

    @Test func cleanConfigPrintsOKAndExitsZero() async throws {
        try await TemporaryDirectory.with { directory in
            try write(
                [
                    "userstore.json": store,
                    "usersyncs.yaml": """
                    syncs:
                      - syncName: accountsDown
                        syncType: syncDown
                        soupName: accounts
                        target: {type: soql, query: "SELECT Id, Name, LastModifiedDate FROM Account"}
                        options: {mergeMode: OVERWRITE}
                    """,
                ],
                to: directory
            )
            let run = try syncrun(["validate"], in: directory)
            #expect(run.status == 0)
            #expect(run.stdout == "OK: 1 sync, 1 soup\n")
            #expect(run.stderr.isEmpty)
        }
    }

    @Test func errorsAndWarningsAreListedThenSummarised() async throws {
        try await TemporaryDirectory.with { directory in
            try write(
                [
                    "userstore.json": store,
                    "usersyncs.json": """
                    {"syncs": [
                      {"syncName": "a", "syncType": "syncUp", "soupName": "acounts", "target": {}},
                      {"syncName": "b", "syncType": "syncDown", "soupName": "accounts",
                       "target": {"type": "soql", "query": "SELECT Id, LastModifiedDate FROM"},
                       "options": {"mergeMode": "OVERWRITE"}}
                    ]}
                    """,
                ],
                to: directory
            )
            let run = try syncrun(["validate", "--config", "."], in: directory)
            #expect(run.status == 1)
            #expect(
                run.stdout == """
                    usersyncs.json:2:3: warning: syncs[0]: no 'mergeMode' in 'options'; using 'OVERWRITE' (set "mergeMode" to "OVERWRITE" or "LEAVE_IF_CHANGED" to make the choice explicit) [missing-merge-mode]
                    usersyncs.json:2:55: error: syncs[0].soupName: soup 'acounts' is not declared in 'userstore.json'; did you mean 'accounts'? [undeclared-soup]
                    usersyncs.json:4:73: error: syncs[1].target.query: invalid SOQL: expected an object name after 'FROM', found end of query [soql-syntax]
                    2 errors, 1 warning in 2 files

                    """
            )
        }
    }

    @Test func jsonFormatPrintsTheArrayOnly() async throws {
        try await TemporaryDirectory.with { directory in
            try write(["usersyncs.json": #"{"syncs": [{"syncName": "a", "syncType": "up"}]}"#], to: directory)
            let run = try syncrun(["validate", "--syncs-config", "usersyncs.json", "--format", "json"], in: directory)
            #expect(run.status == 1)
            let array = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]]
            let entries = try #require(array)
            #expect(
                entries.map { $0["code"] as? String } == [
                    "missing-key", "missing-key", "missing-merge-mode", "unknown-sync-type",
                ]
            )
            #expect(
                entries.allSatisfy {
                    Set($0.keys) == ["file", "line", "column", "severity", "path", "code", "message"]
                }
            )
            #expect(entries.first?["file"] as? String == "usersyncs.json")
            #expect(entries.last?["line"] as? Int == 1)
            #expect(entries.last?["column"] as? Int == 42)
            #expect(entries.last?["path"] as? String == "syncs[0].syncType")
        }
    }

    @Test func warningsOnlyExitZero() async throws {
        try await TemporaryDirectory.with { directory in
            try write(
                [
                    "usersyncs.json":
                        #"{"syncs": [{"syncName": "a", "syncType": "syncUp", "soupName": "s", "target": {}}]}"#
                ],
                to: directory
            )
            let run = try syncrun(["validate"], in: directory)
            #expect(run.status == 0)
            #expect(run.stdout.hasSuffix("1 warning in 1 file\n"))
        }
    }

    @Test func usageErrorsExitTwo() async throws {
        try await TemporaryDirectory.with { directory in
            let missingFile = try syncrun(["validate", "--syncs-config", "nope.json"], in: directory)
            #expect(missingFile.status == 2)
            #expect(missingFile.stderr == "error: the file 'nope.json' named by --syncs-config does not exist\n")

            let empty = try syncrun(["validate"], in: directory)
            #expect(empty.status == 2)
            #expect(
                empty.stderr
                    == "error: no config files in '.'; expected userstore, usersyncs, globalstore or globalsyncs with the extension .json, .yaml or .yml (or name files with --store-config / --syncs-config)\n"
            )

            let badFormat = try syncrun(["validate", "--format", "xml"], in: directory)
            #expect(badFormat.status == 2)
        }
    }

    @Test func sdkFixturesValidate() async throws {
        let fixtures = RepositoryPaths.sdkFixtures
        let run = try syncrun(
            [
                "validate", "--store-config", fixtures.appendingPathComponent("explorer-userstore.json").path,
                "--syncs-config", fixtures.appendingPathComponent("explorer-usersyncs.json").path,
            ],
            in: fixtures
        )
        #expect(run.status == 0)
        #expect(run.stdout.hasSuffix("2 warnings in 2 files\n"))
    }

    /// Issue 27 item 8: a directory named like a config file is an error (exit 1), never an
    /// empty config ("OK: 0 syncs").
    @Test(arguments: ["usersyncs.json", "userstore.json", "usersyncs.yaml", "userstore.yml"])
    func aDirectoryNamedLikeAConfigFileIsAnError(name: String) async throws {
        try await TemporaryDirectory.with { directory in
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent(name),
                withIntermediateDirectories: false
            )
            // Alone, and next to a valid config file.
            for others in [
                [:], name.hasPrefix("userstore") ? ["usersyncs.json": #"{"syncs": []}"#] : ["userstore.json": store],
            ] {
                try write(others, to: directory)
                for format in ["text", "json"] {
                    let result = try syncrun(["validate", "--format", format], in: directory)
                    #expect(result.status == 1, "\(others.keys) \(format): \(result.stdout) \(result.stderr)")
                    #expect(result.stdout.contains("'\(name)' is a directory, not a config file"), "\(result.stdout)")
                    #expect(format == "json" || result.stdout.contains("[not-a-config]"))
                }
            }
        }
    }
}
