import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing

/// `syncrun` against an org reached the way Salesforce users reach real ones (sf alias, auth URL,
/// JWT, client credentials, access token), played by a local org in this process over HTTP.
@Suite(.serialized)
struct RealOrgAuthTests {
    /// The environment without any org or token variables of the machine running the tests.
    static var cleanEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in ["SF_TARGET_ORG", "SFDX_AUTH_URL", "SF_ACCESS_TOKEN", "SSL_CERT_FILE", "SYNCRUN_SF"] {
            environment[name] = nil
        }
        // No real sf is ever consulted.
        environment["SYNCRUN_SF"] = "/nonexistent/sf"
        return environment
    }

    /// A local org seeded with the contacts example, with a movable clock, one-hour tokens, a
    /// forced page size of 5, a request log, and `trigger` called before each request.
    static func withOrg<T: Sendable>(
        in directory: URL,
        trigger: RequestTrigger? = nil,
        clock: MovableClock = MovableClock(),
        _ body: (LocalOrgFixture, URL) async throws -> T
    ) async throws -> T {
        let log = directory.appendingPathComponent("org-requests.jsonl")
        let jwt = try TestKeys.makeJWTKeyPair(in: directory)
        var configuration = LocalOrgConfiguration(
            refreshToken: "rt-\(UUID().uuidString.prefix(8))",
            pageSize: 5,
            requestLogURL: log,
            jwtBearer: JWTBearerSettings(certificatePEM: jwt.certificatePEM, clientID: "syncrun-ci"),
            clientSecret: "cc-secret-value",
            tokenTTL: .seconds(3600)
        )
        if let trigger {
            configuration.requestObserver = { method, target in trigger.observe(method, target) }
        }
        return try await LocalOrgFixture.with(
            configuration: configuration,
            databaseConfiguration: OrgDatabase.Configuration(now: clock.now)
        ) { org in
            _ = try OrgSeeder(database: org.database).seed(
                files: [RepositoryPaths.examples.appendingPathComponent("contacts/data/plan.json")])
            return try await body(org, log)
        }
    }

    /// The request log's entries as (method, path, status).
    static func requests(_ log: URL) throws -> [(method: String, path: String, status: Int?)] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return try text.split(separator: "\n").map { line in
            let entry = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return (entry["method"] as? String ?? "", entry["path"] as? String ?? "", entry["status"] as? Int)
        }
    }

    static func tokenRequests(_ log: URL) throws -> Int {
        try requests(log).count { $0.path.hasPrefix("/services/oauth2/token") }
    }

    static func authURLArguments(_ org: LocalOrgFixture, in directory: URL) throws -> [String] {
        let file = directory.appendingPathComponent("auth-url.txt")
        let port = org.endpoint.port
        try "force://PlatformCLI::\(org.endpoint.refreshToken)@127.0.0.1:\(port)\n"
            .write(to: file, atomically: true, encoding: .utf8)
        return ["--sfdx-auth-url-file", file.path, "--login-url", org.baseURL.absoluteString]
    }

    @Test func aTokenThatExpiresMidSyncDownAndMidSyncUpIsRenewedOnceWithExactTotals() async throws {
        try await RunProject.with { project in
            let clock = MovableClock()
            let trigger = RequestTrigger(clock: clock)
            try await Self.withOrg(in: project.directory, trigger: trigger, clock: clock) { org, log in
                let auth = try Self.authURLArguments(org, in: project.directory)
                let junit = project.directory.appendingPathComponent("junit.xml").path
                // The token expires as the second page of the accounts sync down is asked for.
                trigger.arm { _, target in target.contains("/query/") }
                let first = try await SyncrunProcess.runOffThePool(
                    ["run", "--config", project.config, "--format", "json", "--junit", junit] + auth,
                    environment: Self.cleanEnvironment
                )
                #expect(first.status == 0, "\(first.stderr)")
                let summary = try RunSummary(first)
                #expect(try summary.count("created", of: "syncDown:accountsDown") == 20)
                #expect(try summary.count("created", of: "syncDown:contactsDown") == 50)
                #expect(trigger.firedCount == 1)
                #expect(try Self.tokenRequests(log) == 2)
                #expect(try Self.requests(log).count { $0.status == 401 } == 1)

                // Local changes, then a token that expires at the first write of the sync up.
                _ = try project.syncrun(
                    [
                        "store", "mark", "accounts", "--updated", "--where", "Name=Aster Biotech", "--set",
                        "Phone=555-0199",
                    ])
                _ = try project.syncrun(
                    ["store", "import", "contacts", "-"],
                    stdin: #"[{"attributes":{"type":"Contact"},"FirstName":"Ada","LastName":"Expiry"}]"#
                )
                _ = try project.syncrun(["store", "mark", "contacts", "--created", "--where", "LastName=Expiry"])
                trigger.arm { _, target in target.contains("/composite/sobjects") }
                let second = try await SyncrunProcess.runOffThePool(
                    ["run", "--config", project.config, "--format", "json"] + auth,
                    environment: Self.cleanEnvironment
                )
                #expect(second.status == 0, "\(second.stderr)")
                let again = try RunSummary(second)
                #expect(try again.count("updated", of: "syncUp:accountsUp") == 1)
                #expect(try again.count("created", of: "syncUp:contactsUp") == 1)
                #expect(trigger.firedCount == 2)
                #expect(try Self.tokenRequests(log) == 4)
                #expect(try Self.requests(log).count { $0.status == 401 } == 2)
                let phone = try org.database.query(
                    "SELECT Phone FROM Account WHERE Name = 'Aster Biotech'",
                    apiVersion: "62.0"
                )
                #expect(String(decoding: phone.recordsJSON, as: UTF8.self).contains("555-0199"))
            }
        }
    }

    @Test func aRenewalThatFailsEndsTheRunWithTheFixAndLeavesLocalChangesLocal() async throws {
        try await RunProject.with { project in
            let clock = MovableClock()
            let trigger = RequestTrigger(clock: clock)
            try await Self.withOrg(in: project.directory, trigger: trigger, clock: clock) { org, log in
                let orgID = org.database.organizationID
                let firstSF = try FakeSalesforceCLI(in: project.directory.appendingPathComponent("sf1"))
                // 'qa' is no org of the example's project file, so it is an sf alias.
                let down = try await SyncrunProcess.runOffThePool(
                    ["run", "--config", project.config, "--org", "qa", "--format", "json"],
                    environment: firstSF.environment(alias: "qa", org: org.endpoint, orgID: orgID)
                )
                #expect(down.status == 0, "\(down.stderr)")
                _ = try project.syncrun(
                    [
                        "store", "mark", "accounts", "--updated", "--where", "Name=Aster Biotech", "--set",
                        "Phone=555-0142",
                    ])
                _ = try project.syncrun(
                    ["store", "mark", "contacts", "--updated", "--where", "LastName=Thompson", "--set", "Title=CFO"])
                let dirtyBefore = try Self.dirtyCount(project)
                #expect(dirtyBefore >= 2)

                // sf hands out one good token, then cannot refresh its login any more.
                let secondSF = try FakeSalesforceCLI(in: project.directory.appendingPathComponent("sf2"))
                trigger.arm { _, target in target.contains("/composite/sobjects") }
                let up = try await SyncrunProcess.runOffThePool(
                    ["run", "--config", project.config, "--org", "qa", "--format", "json"],
                    environment: secondSF.environment(
                        mode: "expire-after-first",
                        alias: "qa",
                        org: org.endpoint,
                        orgID: orgID
                    )
                )
                #expect(up.status == 1)
                let said = up.stdout + up.stderr
                #expect(said.contains("the org 'qa' rejected the access token, also with a new token, for "), "\(said)")
                #expect(
                    said.contains(
                        "(INVALID_SESSION_ID: Session expired or invalid); log in again with 'sf org login web -o qa' "
                            + "and run again"
                    )
                )
                #expect(secondSF.calls("token") >= 2)
                #expect(try Self.dirtyCount(project) == dirtyBefore)
                #expect(try Self.requests(log).count { $0.method == "PATCH" && $0.status == 200 } == 0)
                try Self.expectNoSecrets(
                    in: [down.stdout, down.stderr, up.stdout, up.stderr],
                    files: [log, project.storeFile],
                    secrets: [org.endpoint.refreshToken, org.accessToken]
                )
            }
        }
    }

    @Test func tokensAndSecretsAppearInNoOutputLogStoreOrReport() async throws {
        try await RunProject.with { project in
            try await Self.withOrg(in: project.directory) { org, log in
                let auth = try Self.authURLArguments(org, in: project.directory)
                let junit = project.directory.appendingPathComponent("junit.xml")
                let secretFile = project.directory.appendingPathComponent("secret.txt")
                try "cc-secret-value".write(to: secretFile, atomically: true, encoding: .utf8)
                var outputs: [String] = []
                for arguments in [
                    ["run", "--config", project.config, "--format", "json", "--junit", junit.path] + auth,
                    [
                        "run", "--config", project.config, "--format", "text", "--client-id", "syncrun-ci",
                        "--client-secret-file", secretFile.path, "--login-url", org.baseURL.absoluteString,
                    ],
                    ["org", "whoami", "--format", "json"] + auth,
                    [
                        "run", "--config", project.config, "--org", "https://127.0.0.1:1", "--access-token",
                        org.accessToken,
                    ],
                ] {
                    let result = try await SyncrunProcess.runOffThePool(arguments, environment: Self.cleanEnvironment)
                    outputs += [result.stdout, result.stderr]
                }
                try Self.expectNoSecrets(
                    in: outputs,
                    files: [log, junit, project.storeFile],
                    secrets: [org.endpoint.refreshToken, org.accessToken, "cc-secret-value", "force://"]
                )
            }
        }
    }

    @Test func whoamiNamesTheOrgUserAndTokenSourceOfEverySource() async throws {
        try await TemporaryDirectory.with { directory in
            try await Self.withOrg(in: directory) { org, _ in
                let base = org.baseURL.absoluteString
                let jwtKey = directory.appendingPathComponent("jwt.key").path
                let secretFile = directory.appendingPathComponent("secret.txt")
                try "cc-secret-value".write(to: secretFile, atomically: true, encoding: .utf8)
                let sf = try FakeSalesforceCLI(in: directory)
                let sfEnvironment = sf.environment(org: org.endpoint, orgID: org.database.organizationID)
                var tokenEnvironment = Self.cleanEnvironment
                tokenEnvironment["SF_ACCESS_TOKEN"] = org.accessToken
                let cases: [(String, [String], [String: String])] = [
                    ("sfdx-auth-url", try Self.authURLArguments(org, in: directory), Self.cleanEnvironment),
                    (
                        "jwt",
                        [
                            "--jwt-key-file", jwtKey, "--client-id", "syncrun-ci", "--username",
                            "admin@localorg.invalid",
                            "--login-url", base,
                        ], Self.cleanEnvironment
                    ),
                    (
                        "client-credentials",
                        [
                            "--client-id", "syncrun-ci", "--client-secret-file", secretFile.path,
                            "--login-url", base,
                        ], Self.cleanEnvironment
                    ),
                    ("access-token", ["--org", base], tokenEnvironment),
                    ("sf:dev", ["--org", "dev"], sfEnvironment),
                    (
                        "local", ["--org", "local:" + directory.appendingPathComponent("other-org").path],
                        Self.cleanEnvironment
                    ),
                ]
                for (label, arguments, environment) in cases {
                    let result = try await SyncrunProcess.runOffThePool(
                        ["org", "whoami", "--format", "json", "--config", directory.path] + arguments,
                        environment: environment
                    )
                    #expect(result.status == 0, "\(label): \(result.stderr)")
                    let answer = try #require(
                        try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
                        "\(label)"
                    )
                    #expect(
                        Set(answer.keys)
                            == ["orgId", "userId", "username", "instanceUrl", "apiVersion", "tokenSource", "apiUsage"]
                    )
                    #expect(answer["tokenSource"] as? String == label)
                    #expect(answer["username"] as? String == "admin@localorg.invalid")
                    let usage = try #require(answer["apiUsage"] as? [String: Int], "\(label)")
                    #expect(usage["max"] == 100_000)
                    #expect(usage["used"].map { $0 > 0 } == true)
                    if label != "local" {
                        #expect(answer["orgId"] as? String == org.database.organizationID)
                        #expect(answer["userId"] as? String == org.database.userID)
                        #expect(answer["instanceUrl"] as? String == base)
                    }
                }
                let text = try await SyncrunProcess.runOffThePool(
                    ["org", "whoami", "--config", directory.path, "--org", "dev"],
                    environment: sfEnvironment
                )
                #expect(text.status == 0)
                #expect(text.stdout.contains("token source: sf:dev"))

                var expired = sfEnvironment
                expired["FAKE_SF_MODE"] = "expired"
                let refused = try await SyncrunProcess.runOffThePool(
                    ["org", "whoami", "--config", directory.path, "--org", "dev"],
                    environment: expired
                )
                #expect(refused.status == 1)
                #expect(refused.stderr.contains("log in again with 'sf org login web -o dev'"), "\(refused.stderr)")
                let unknown = try await SyncrunProcess.runOffThePool(
                    ["org", "whoami", "--config", directory.path, "--org", "nope"],
                    environment: sfEnvironment
                )
                #expect(unknown.status == 2)
                #expect(unknown.stderr.contains("'nope' is not an org the Salesforce CLI knows"), "\(unknown.stderr)")
            }
        }
    }

    @Test func orgResolutionErrorsAreUsageErrorsWithTheFix() async throws {
        try await TemporaryDirectory.with { directory in
            let none = try await SyncrunProcess.runOffThePool(
                ["org", "whoami", "--config", directory.path],
                environment: Self.cleanEnvironment
            )
            #expect(none.status == 2)
            #expect(
                none.stderr.contains(
                    "no org given: pass --org ORG, or set one of SF_TARGET_ORG, SFDX_AUTH_URL, 'defaultOrg' in "
                        + "syncrun.yaml, or sf's target-org ('sf config set target-org ALIAS')"
                ),
                "\(none.stderr)"
            )
            let both = try await SyncrunProcess.runOffThePool(
                ["org", "whoami", "--org", "dev", "--sfdx-auth-url-file", "x"],
                environment: Self.cleanEnvironment
            )
            #expect(both.status == 2)
            #expect(
                both.stderr.contains("--sfdx-auth-url-file define an org of their own; give either them or --org 'dev'")
            )
            let unreadable = try await SyncrunProcess.runOffThePool(
                ["org", "whoami", "--sfdx-auth-url-file", directory.appendingPathComponent("missing").path],
                environment: Self.cleanEnvironment
            )
            #expect(unreadable.status == 2)
            #expect(unreadable.stderr.contains("cannot read the auth URL from"), "\(unreadable.stderr)")
            let noSF = try await SyncrunProcess.runOffThePool(
                ["org", "whoami", "--org", "dev"],
                environment: Self.cleanEnvironment
            )
            #expect(noSF.status == 2)
            #expect(
                noSF.stderr.contains("cannot run the Salesforce CLI: no executable '/nonexistent/sf'"),
                "\(noSF.stderr)"
            )
            let sf = try FakeSalesforceCLI(in: directory)
            try await Self.withOrg(in: directory) { org, _ in
                // Nothing set but sf's own target-org: that alias is the org.
                let sfEnvironment = sf.environment(
                    alias: "qa",
                    org: org.endpoint,
                    orgID: org.database.organizationID,
                    targetOrg: "qa"
                )
                let fromSF = try await SyncrunProcess.runOffThePool(
                    ["org", "whoami", "--format", "json", "--config", directory.path],
                    environment: sfEnvironment
                )
                #expect(fromSF.status == 0, "\(fromSF.stderr)")
                #expect(fromSF.stdout.contains(#""tokenSource":"sf:qa""#))
                #expect(sf.calls("config") == 1)
            }
            var target = Self.cleanEnvironment
            target["SF_TARGET_ORG"] = "local:" + directory.appendingPathComponent("org").path
            let fromEnvironment = try await SyncrunProcess.runOffThePool(
                ["org", "whoami", "--format", "json"],
                environment: target
            )
            #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")
            #expect(fromEnvironment.stdout.contains(#""tokenSource":"local""#))
        }
    }

    @Test func aPrivateCertificateAuthorityIsTrustedWithCAFile() async throws {
        try await TemporaryDirectory.with { directory in
            let tls = try TestKeys.makeTLS(in: directory)
            let configuration = LocalOrgConfiguration(refreshToken: "rt-tls", tls: tls.settings)
            try await LocalOrgFixture.with(configuration: configuration) { org in
                let file = directory.appendingPathComponent("auth-url.txt")
                try "force://PlatformCLI::rt-tls@127.0.0.1:\(org.endpoint.port)".write(
                    to: file,
                    atomically: true,
                    encoding: .utf8
                )
                let arguments = ["org", "whoami", "--format", "json", "--sfdx-auth-url-file", file.path]
                let untrusted = try await SyncrunProcess.runOffThePool(arguments, environment: Self.cleanEnvironment)
                #expect(untrusted.status == 1)
                #expect(untrusted.stderr.hasPrefix("error: "), "\(untrusted.stderr)")
                let trusted = try await SyncrunProcess.runOffThePool(
                    arguments + ["--ca-file", tls.certificateFile],
                    environment: Self.cleanEnvironment
                )
                #expect(trusted.status == 0, "\(trusted.stderr)")
                #expect(trusted.stdout.contains(#""tokenSource":"sfdx-auth-url""#))
                var environment = Self.cleanEnvironment
                environment["SSL_CERT_FILE"] = tls.certificateFile
                let fromEnvironment = try await SyncrunProcess.runOffThePool(arguments, environment: environment)
                #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")
            }
        }
    }

    @Test func theQuickStartRunsWithNoOrgFlag() async throws {
        try await RunProject.with { project in
            let result = try await SyncrunProcess.runOffThePool(
                ["run", "--config", project.config, "--format", "json"],
                environment: Self.cleanEnvironment
            )
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try RunSummary(result).status == "DONE")
            #expect(result.stderr.contains("seeded a new local org"))
            #expect(FileManager.default.fileExists(atPath: project.orgDirectory + "/org.sqlite"))
        }
    }

    @Test func aLiteralTokenInTheProjectFileIsAPositionedError() async throws {
        try await TemporaryDirectory.with { directory in
            try """
            defaultOrg: prod
            orgs:
              prod:
                url: https://acme.my.salesforce.com
                accessToken: 00D000000000001!AQ4AQFakeTokenValue1234567890
            """.write(to: directory.appendingPathComponent("syncrun.yaml"), atomically: true, encoding: .utf8)
            let result = try await SyncrunProcess.runOffThePool(
                ["org", "whoami", "--config", directory.path],
                environment: Self.cleanEnvironment
            )
            // A config error (the project file's), exit 1 under issue 31's one contract.
            #expect(result.status == 1)
            #expect(
                result.stderr.contains(
                    "syncrun.yaml:5:5: error: orgs.prod.accessToken: 'accessToken' would hold a secret in the project "
                        + "file; secrets go in a file or an environment variable: use accessTokenEnv"
                ),
                "\(result.stderr)"
            )
            #expect(!result.stderr.contains("FakeTokenValue"))
        }
    }

    @Test func aStoreOfAnotherOrgIsRefusedBeforeAnyWrite() async throws {
        try await RunProject.with { project in
            let first = try project.run()
            #expect(first.status == 0, "\(first.stderr)")
            // Make the store belong to another org, as if it had been synced with one.
            let sql = "UPDATE syncrun_org_binding SET org_id = '00D5g000004AbCdEAK', org_name = 'prod'"
            let update = Process()
            update.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            update.arguments = ["sqlite3", project.storeFile.path, sql]
            try update.run()
            update.waitUntilExit()
            #expect(update.terminationStatus == 0)
            _ = try project.syncrun(
                ["store", "mark", "accounts", "--updated", "--where", "Name=Aster Biotech", "--set", "Phone=1"])
            let before = try Self.dump(project.storeFile)
            let log = project.directory.appendingPathComponent("refused.jsonl")
            let refused = try project.run(["--request-log", log.path])
            #expect(refused.status == 2)
            #expect(refused.stderr.contains("belongs to org 00D5g000004AbCdEAK"), "\(refused.stderr)")
            #expect(refused.stderr.contains("first synced as 'prod'"))
            #expect(refused.stderr.contains("nothing was written"))
            #expect(try Self.dump(project.storeFile) == before)
            #expect(try Self.requests(log).isEmpty)
        }
    }

    @Test func twoFreshLocalOrgsHaveTheirOwnIdsAndAStoreOfOneIsRefusedByTheOther() async throws {
        try await RunProject.with { project in
            let otherOrg = project.directory.appendingPathComponent(".syncrun/other-org").path
            func whoami(_ org: String) throws -> [String: Any] {
                let result = try SyncrunProcess.run(
                    ["org", "whoami", "--org", org, "--format", "json"],
                    environment: Self.cleanEnvironment
                )
                #expect(result.status == 0, "\(result.stderr)")
                return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            }
            func accountIDs(_ directory: String) throws -> Set<String> {
                let result = try SyncrunProcess.run(["org", "query", "--data", directory, "SELECT Id FROM Account"])
                #expect(result.status == 0, "\(result.stderr)")
                let rows = try #require(
                    try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
                )
                return Set(rows.compactMap { $0["Id"] as? String })
            }
            // Both orgs seeded from the same data plan.
            let first = try project.run()
            #expect(first.status == 0, "\(first.stderr)")
            let seeded = try await SyncrunProcess.runOffThePool(["org", "seed", "--data", otherOrg, project.seedPlan])
            #expect(seeded.status == 0, "\(seeded.stderr)")

            let idsOfFirst = try accountIDs(project.orgDirectory)
            let idsOfOther = try accountIDs(otherOrg)
            #expect(idsOfFirst.count == 20 && idsOfOther.count == 20)
            #expect(idsOfFirst.isDisjoint(with: idsOfOther))
            let firstOrgID = try #require(try whoami(project.org)["orgId"] as? String)
            let otherOrgID = try #require(try whoami("local:" + otherOrg)["orgId"] as? String)
            #expect(firstOrgID != otherOrgID)

            let before = try Self.dump(project.storeFile)
            let log = project.directory.appendingPathComponent("other-requests.jsonl")
            let refused = try await SyncrunProcess.runOffThePool(
                [
                    "run", "--config", project.config, "--org", "local:" + otherOrg, "--format", "json",
                    "--request-log", log.path,
                ],
                environment: Self.cleanEnvironment
            )
            #expect(refused.status == 2, "\(refused.stderr)")
            #expect(refused.stderr.contains(firstOrgID), "\(refused.stderr)")
            #expect(refused.stderr.contains(otherOrgID), "\(refused.stderr)")
            #expect(try Self.dump(project.storeFile) == before)
            #expect(try Self.requests(log).isEmpty)
        }
    }

    @Test func aStoreMadeBeforeBindingAdoptsTheOrgOfItsNextSyncOnce() async throws {
        try await RunProject.with { project in
            #expect(try project.run().status == 0)
            let drop = Process()
            drop.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            // A store of a syncrun before bindings is also one before versioned tables (and the
            // tables that came later, such as watch positions).
            drop.arguments = [
                "sqlite3", project.storeFile.path,
                "DROP TABLE syncrun_org_binding; DROP TABLE syncrun_watch_positions; DROP TABLE grdb_migrations",
            ]
            try drop.run()
            drop.waitUntilExit()
            let adopted = try project.run()
            #expect(adopted.status == 0)
            #expect(adopted.stderr.contains("was made before stores recorded their org; it now belongs to org"))
            let next = try project.run()
            #expect(next.status == 0)
            #expect(!next.stderr.contains("was made before stores recorded their org"))
        }
    }

    /// Every row of the store as SQL (`sqlite3 .dump`), to compare contents across a run.
    static func dump(_ store: URL) throws -> String {
        let output = store.deletingLastPathComponent().appendingPathComponent("dump-\(UUID().uuidString).sql")
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", store.path, ".output \(output.path)", ".dump"]
        try process.run()
        process.waitUntilExit()
        let text = try String(contentsOf: output, encoding: .utf8)
        #expect(text.contains("INSERT INTO"))
        return text
    }

    static func dirtyCount(_ project: RunProject) throws -> Int {
        var total = 0
        for soup in ["accounts", "contacts"] {
            let rows = try project.storeRows("SELECT count(*) FROM {\(soup)} WHERE {\(soup):__local__} = 'true'")
            total += rows.first?.first as? Int ?? 0
        }
        return total
    }

    /// Fails if any output or file holds a secret or anything shaped like a local org token.
    static func expectNoSecrets(in outputs: [String], files: [URL], secrets: [String]) throws {
        var texts = outputs
        for file in files where FileManager.default.fileExists(atPath: file.path) {
            let data = try Data(contentsOf: file)
            texts.append(String(decoding: data, as: UTF8.self))
            for suffix in ["-wal", "-journal"] {
                let companion = URL(fileURLWithPath: file.path + suffix)
                if let extra = try? Data(contentsOf: companion) { texts.append(String(decoding: extra, as: UTF8.self)) }
            }
        }
        for text in texts {
            for secret in secrets { #expect(!text.contains(secret), "a secret leaked") }
            // Every token the local org issues is ORGID15!AQ…
            #expect(!text.contains("!AQ"), "a token leaked")
        }
    }
}

/// Acts once on the first request that matches, from the local org's request observer: moves the
/// clock past the token lifetime so the request is answered 401.
///
/// `@unchecked Sendable` is sound: `match` and `count` are only used while `lock` is held.
final class RequestTrigger: @unchecked Sendable {
    private let lock = NSLock()
    private let clock: MovableClock
    private var match: (@Sendable (String, String) -> Bool)?
    private var count = 0

    init(clock: MovableClock) {
        self.clock = clock
    }

    /// Fires at the next request matching `match`.
    func arm(_ match: @escaping @Sendable (String, String) -> Bool) {
        lock.lock()
        defer { lock.unlock() }
        self.match = match
    }

    /// How many times it fired.
    var firedCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }

    func observe(_ method: String, _ target: String) {
        lock.lock()
        defer { lock.unlock() }
        guard let match, match(method, target) else { return }
        self.match = nil
        count += 1
        clock.advance(by: 3601)
    }
}
