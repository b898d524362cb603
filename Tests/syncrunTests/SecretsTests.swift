import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing

/// The one cross-command secrets check (issue 20 item 4): every command that touches an org runs
/// with a known access token, refresh token (SFDX auth URL) and client secret, at
/// `--log-level debug` and with `--junit` where there is one; none of them appears in standard
/// output, standard error, the store, the org's request log, the JUnit report or any file a
/// command writes. Issues that add token sources or commands add their cases here.
@Suite(.serialized)
struct SecretsTests {
    static let accessToken = "known-access-token-3f9c1b7e5d"
    static let refreshToken = "known-refresh-token-5b7c9d1144"
    static let clientSecret = "known-client-secret-8d2e4a61f0"

    /// Every secret; tokens the local org issues (`ORGID!AQ…`) are caught by their marker.
    static let secrets = [accessToken, refreshToken, clientSecret, "force://", "!AQ"]

    /// One way of reaching the org: its label and the arguments that select it.
    private struct Source {
        var label: String
        var arguments: [String]
    }

    private static func sources(_ org: LocalOrgFixture, in directory: URL) throws -> [Source] {
        let base = org.baseURL.absoluteString
        let authURL = directory.appendingPathComponent("auth-url.txt")
        try "force://PlatformCLI::\(refreshToken)@127.0.0.1:\(org.endpoint.port)\n"
            .write(to: authURL, atomically: true, encoding: .utf8)
        let secretFile = directory.appendingPathComponent("client-secret.txt")
        try clientSecret.write(to: secretFile, atomically: true, encoding: .utf8)
        return [
            Source(label: "access-token", arguments: ["--org", base, "--access-token", accessToken]),
            Source(label: "sfdx-auth-url", arguments: ["--sfdx-auth-url-file", authURL.path, "--login-url", base]),
            Source(
                label: "client-credentials",
                arguments: ["--client-id", "syncrun-ci", "--client-secret-file", secretFile.path, "--login-url", base]
            ),
        ]
    }

    @Test func noCommandWritesATokenOrSecretAnywhere() async throws {
        try await RunProject.with { project in
            let log = project.directory.appendingPathComponent("org-requests.jsonl")
            let configuration = LocalOrgConfiguration(
                accessToken: Self.accessToken,
                refreshToken: Self.refreshToken,
                pageSize: 5,
                requestLogURL: log,
                clientSecret: Self.clientSecret
            )
            try await LocalOrgFixture.with(configuration: configuration) { org in
                _ = try OrgSeeder(database: org.database).seed(files: [URL(fileURLWithPath: project.seedPlan)])
                let outputs = project.directory.appendingPathComponent("outputs")
                try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
                var texts: [String] = []
                var files = [log, project.storeFile]
                var ran: [String] = []

                func run(_ arguments: [String], label: String, expectSuccess: Bool = true) async throws {
                    let result = try await SyncrunProcess.runOffThePool(
                        arguments + ["--log-level", "debug"],
                        environment: RealOrgAuthTests.cleanEnvironment
                    )
                    if expectSuccess {
                        #expect(result.status == 0, "\(label) \(arguments.prefix(2)): \(result.stderr)")
                    }
                    texts += [result.stdout, result.stderr]
                    ran.append("\(label): \(arguments.prefix(2).joined(separator: " "))")
                }

                let config = ["--config", project.config]
                let base = org.baseURL.absoluteString
                for source in try Self.sources(org, in: project.directory) {
                    let junit = outputs.appendingPathComponent("junit-\(source.label).xml")
                    let schema = outputs.appendingPathComponent("schema-\(source.label).json")
                    files += [junit, schema]
                    let label = source.label
                    let org = source.arguments
                    try await run(["run", "--format", "json", "--junit", junit.path] + config + org, label: label)
                    try await run(["run", "--dry-run", "--format", "json"] + config + org, label: label)
                    try await run(["sync", "accountsDown", "--format", "json"] + config + org, label: label)
                    try await run(["resync", "contactsDown", "--format", "json"] + config + org, label: label)
                    try await run(["clean-ghosts", "accountsDown", "--format", "json"] + config + org, label: label)
                    try await run(["org", "whoami", "--format", "json"] + config + org, label: label)
                    // `org check` exits 1 when the config disagrees with the org; either way, no secret.
                    try await run(
                        ["org", "check", "--format", "json"] + config + org,
                        label: label,
                        expectSuccess: false
                    )
                    try await run(
                        ["org", "schema", "pull", "--objects", "Account,Contact", "--output", schema.path] + config
                            + org,
                        label: label
                    )
                    try await run(
                        ["org", "diff", "--against-schema-file", schema.path, "--format", "json"] + config + org,
                        label: label,
                        expectSuccess: false
                    )
                    // A failing request (a refused token) still names no secret.
                    try await run(
                        ["org", "whoami", "--format", "json", "--org", base, "--access-token", Self.accessToken + "x"]
                            + config,
                        label: label,
                        expectSuccess: false
                    )
                }
                // Commands on the store and on the org's data directory.
                try await run(["plan", "--format", "json"] + config, label: "store")
                try await run(["status", "--format", "json"] + config, label: "store", expectSuccess: false)
                try await run(["store", "export", "accounts"] + config, label: "store")
                try await run(["store", "query", "SELECT {accounts:_soup} FROM {accounts}"] + config, label: "store")
                let dataDirectory = org.dataDirectory.path
                try await run(["org", "query", "--data", dataDirectory, "SELECT Id, Name FROM Account"], label: "data")
                let exported = outputs.appendingPathComponent("export")
                try await run(["org", "export", "--data", dataDirectory, "--output", exported.path], label: "data")
                let seeded = project.directory.appendingPathComponent("seeded-org")
                try await run(["org", "seed", "--data", seeded.path, project.seedPlan], label: "data")
                for directory in [exported, seeded] {
                    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
                    files += names.map { directory.appendingPathComponent($0) }
                }

                // The checks saw real runs: requests were logged and the JUnit reports written.
                let logged = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                #expect(logged.split(separator: "\n").count > 50)
                #expect(logged.contains("/services/oauth2/token"))
                #expect(texts.contains { $0.contains("Org request") }, "no debug request lines")
                for source in ["access-token", "sfdx-auth-url", "client-credentials"] {
                    #expect(
                        FileManager.default.fileExists(
                            atPath: outputs.appendingPathComponent("junit-\(source).xml").path
                        )
                    )
                }
                #expect(ran.count == 3 * 10 + 7)
                try RealOrgAuthTests.expectNoSecrets(in: texts, files: files, secrets: Self.secrets)
            }
        }
    }

    // MARK: - Issue 27: files that are not configs, URL user-info, query strings, trace logs

    static let password = "known-url-password-71c3e9"
    static let pemLine = "MIIEowIBAAKCAQEAknownPEMbodyLine0123456789abcdef"
    /// Credentials sent in query strings to the local org, by parameter name.
    static let queryStringSecrets = [
        "refresh_token": "qs-refresh-token-0a1b2c", "client_secret": "qs-client-secret-3d4e5f",
        "password": "qs-password-6a7b8c", "code": "qs-code-9d0e1f", "assertion": "qs-assertion-2a3b4c",
        "client_assertion": "qs-client-assertion-5d6e", "access_token": "qs-access-token-7f8a",
        "token": "qs-token-9b0c",
    ]
    /// A record value of the example's seed, as text and as the hex bytes of a trace dump.
    static let recordValues = ["Aster Biotech", "4173746572204269", "41 73 74 65 72 20 42 69"]

    /// Runs a command-line tool other than syncrun (curl) off the cooperative pool.
    private static func tool(_ arguments: [String]) async throws -> SyncrunProcess.Result {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    with: Result {
                        try SyncrunProcess.run(arguments, executable: URL(fileURLWithPath: "/usr/bin/env"))
                    }
                )
            }
        }
    }

    @Test func noFileArgumentQueryStringOrTraceLogPrintsASecretOrARecordValue() async throws {
        try await RunProject.with { project in
            let log = project.directory.appendingPathComponent("org-requests.jsonl")
            let configuration = LocalOrgConfiguration(
                accessToken: Self.accessToken,
                refreshToken: Self.refreshToken,
                pageSize: 5,
                requestLogURL: log,
                clientSecret: Self.clientSecret
            )
            try await LocalOrgFixture.with(configuration: configuration) { org in
                _ = try OrgSeeder(database: org.database).seed(files: [URL(fileURLWithPath: project.seedPlan)])
                let manager = FileManager.default
                var texts: [String] = []
                var records: [String] = []

                func run(_ arguments: [String], expect status: Int32, saying: String? = nil) async throws {
                    let result = try await SyncrunProcess.runOffThePool(
                        arguments,
                        environment: RealOrgAuthTests.cleanEnvironment
                    )
                    #expect(result.status == status, "\(arguments.prefix(3)): \(result.stdout) \(result.stderr)")
                    if let saying {
                        #expect((result.stdout + result.stderr).contains(saying), "\(arguments): \(result.stderr)")
                    }
                    texts += [result.stdout, result.stderr]
                }

                // A usersyncs.yaml that is a symbolic link to a file holding an SFDX auth URL.
                let authURLFile = project.directory.appendingPathComponent("auth-url.txt")
                try "force://PlatformCLI::\(Self.refreshToken)@acme.my.salesforce.com\n"
                    .write(to: authURLFile, atomically: true, encoding: .utf8)
                let linked = project.directory.appendingPathComponent("linked")
                try manager.createDirectory(at: linked, withIntermediateDirectories: false)
                try manager.createSymbolicLink(
                    at: linked.appendingPathComponent("usersyncs.yaml"),
                    withDestinationURL: authURLFile
                )
                // A project file that is really a PEM key, next to a valid config.
                let keyed = project.directory.appendingPathComponent("keyed")
                try manager.createDirectory(at: keyed, withIntermediateDirectories: false)
                for name in ["userstore.json", "usersyncs.json"] {
                    try manager.copyItem(
                        at: project.directory.appendingPathComponent(name),
                        to: keyed.appendingPathComponent(name)
                    )
                }
                try
                    "-----BEGIN RSA PRIVATE KEY-----\n\(Self.pemLine)\nknownPEMsecondLine+/==\n-----END RSA PRIVATE KEY-----\n"
                    .write(to: keyed.appendingPathComponent("syncrun.yaml"), atomically: true, encoding: .utf8)
                let base = org.baseURL.absoluteString
                let withUserInfo = base.replacingOccurrences(of: "://", with: "://syncrun:\(Self.password)@")

                for format in ["text", "json"] {
                    try await run(
                        ["validate", "--config", linked.path, "--format", format],
                        expect: 1,
                        saying: "this file is not a config: it holds an SFDX auth URL"
                    )
                    // A project file that is not one is a config error (1, issue 31's one contract).
                    for command in [["org", "whoami"], ["run"]] {
                        try await run(
                            command + ["--config", keyed.path, "--format", format],
                            expect: 1,
                            saying: "this file is not a config: it holds a PEM block"
                        )
                    }
                    for command in [["org", "whoami"], ["run", "--config", project.config]] {
                        try await run(
                            command + ["--org", withUserInfo, "--access-token", Self.accessToken, "--format", format],
                            expect: 2,
                            saying: "holds a URL with a user name or password"
                        )
                    }
                }

                // Credentials in query strings: the request log keeps SOQL, never their values.
                let token =
                    "\(base)/services/oauth2/token?grant_type=refresh_token&client_id=x&"
                    + ["refresh_token", "client_secret", "client_assertion"]
                    .map { "\($0)=\(Self.queryStringSecrets[$0] ?? "")" }.joined(separator: "&")
                let query =
                    "\(base)/services/data/v62.0/query?q=SELECT+Id+FROM+Account&"
                    + ["password", "code", "assertion", "access_token", "token"]
                    .map { "\($0)=\(Self.queryStringSecrets[$0] ?? "")" }.joined(separator: "&")
                _ = try await Self.tool(["curl", "-s", "-o", "/dev/null", "-X", "POST", token])
                _ = try await Self.tool(["curl", "-s", "-o", "/dev/null", query])

                // Trace level, with a sync that fetches and one that sends record values.
                for format in ["text", "json"] {
                    let result = try await SyncrunProcess.runOffThePool(
                        [
                            "run", "--config", project.config, "--org", base, "--access-token", Self.accessToken,
                            "--format", format, "--log-level", "trace",
                        ],
                        environment: RealOrgAuthTests.cleanEnvironment
                    )
                    #expect(result.status == 0, "\(result.stderr)")
                    #expect(result.stderr.contains("Sending request"), "trace was not on")
                    texts += [result.stdout, result.stderr]
                    records += [result.stdout, result.stderr]
                    let mark = try await SyncrunProcess.runOffThePool(
                        [
                            "store", "mark", "accounts", "--updated", "--where", "Name=Aster Biotech", "--set",
                            "Phone=555-0199", "--config", project.config,
                        ],
                        environment: RealOrgAuthTests.cleanEnvironment
                    )
                    #expect(mark.status == 0, "\(mark.stderr)")
                }

                let logged = try String(contentsOf: log, encoding: .utf8)
                #expect(logged.contains("q=SELECT+Id+FROM+Account"), "\(logged)")
                #expect(logged.contains("refresh_token=REDACTED"), "\(logged)")
                #expect(logged.contains("password=REDACTED"), "\(logged)")
                // The sync up sent the marked record (its PATCH is in the log).
                #expect(logged.contains("\"method\":\"PATCH\""), "\(logged)")
                try RealOrgAuthTests.expectNoSecrets(
                    in: texts,
                    files: [log],
                    secrets: Self.secrets + [Self.password, Self.pemLine, "knownPEMsecondLine", "PlatformCLI"]
                        + Array(Self.queryStringSecrets.values)
                )
                for text in records {
                    for value in Self.recordValues + ["555-0199"] {
                        #expect(!text.contains(value), "a record value reached a trace log")
                    }
                }
            }
        }
    }
}
