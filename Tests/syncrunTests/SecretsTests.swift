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
}
