import Foundation
import LocalOrg
import Logging
import OrgAccess
import OrgClient
import SyncrunCLI
import SyncrunTestSupport
import Testing

/// Every token source against the local org, over HTTP and over TLS: the first token, the
/// identity, and one renewal after the token expires.
struct TokenSourceTests {
    enum Transport: String, CaseIterable, CustomTestStringConvertible {
        case http, tls
        var testDescription: String { rawValue }
    }

    static let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    /// A local org (HTTP or TLS) with a movable clock, a one-hour token lifetime, a request log, the
    /// refresh token `sf-refresh`, the client `syncrun-ci` / `s3cret` and a JWT certificate.
    struct Setup: Sendable {
        let org: LocalOrgFixture
        let clock: MovableClock
        let directory: URL
        let caFile: String?
        let jwtKeyFile: String
        let requestLog: URL

        var baseURL: String { org.baseURL.absoluteString }
        var orgID: String { org.database.organizationID }
        var userID: String { org.database.userID }

        func connector(_ environment: [String: String] = [:]) -> OrgConnector {
            OrgConnector(environment: environment, trustedCertificatesFile: caFile, logger: TokenSourceTests.logger)
        }

        /// Requests to the token endpoint so far.
        func tokenRequests() throws -> Int {
            let text = (try? String(contentsOf: requestLog, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").filter { $0.contains("/services/oauth2/token") }.count
        }

        func writeFile(_ name: String, _ text: String) throws -> String {
            let url = directory.appendingPathComponent(name)
            try text.write(to: url, atomically: true, encoding: .utf8)
            return url.path
        }
    }

    static func withSetup<T: Sendable>(_ transport: Transport, _ body: (Setup) async throws -> T) async throws -> T {
        try await TemporaryDirectory.with { directory in
            let clock = MovableClock()
            let jwt = try TestKeys.makeJWTKeyPair(in: directory)
            let tls = transport == .tls ? try TestKeys.makeTLS(in: directory) : nil
            let requestLog = directory.appendingPathComponent("requests.jsonl")
            let configuration = LocalOrgConfiguration(
                refreshToken: "sf-refresh",
                requestLogURL: requestLog,
                jwtBearer: JWTBearerSettings(certificatePEM: jwt.certificatePEM, clientID: "syncrun-ci"),
                tls: tls?.settings,
                clientSecret: "s3cret",
                tokenTTL: .seconds(3600)
            )
            return try await LocalOrgFixture.with(
                configuration: configuration,
                databaseConfiguration: OrgDatabase.Configuration(now: clock.now)
            ) { org in
                try await body(
                    Setup(
                        org: org,
                        clock: clock,
                        directory: directory,
                        caFile: tls?.certificateFile,
                        jwtKeyFile: jwt.keyFile,
                        requestLog: requestLog
                    )
                )
            }
        }
    }

    /// Connects, checks the identity, expires the token, and checks that exactly one new token
    /// is fetched for a request made after that.
    static func checkSource(
        _ setup: Setup,
        _ source: TokenSource,
        environment: [String: String] = [:],
        tokenRequestsPerLogin: Int = 1
    ) async throws {
        let definition = OrgDefinition(name: "test-org", source: source)
        try await setup.connector(environment).withConnection(to: definition) { connection in
            let info = try await connection.client.userInfo()
            #expect(info.organizationID == setup.orgID)
            #expect(info.userID == setup.userID)
            #expect(info.username == "admin@localorg.invalid")
            #expect(connection.instanceURL == setup.baseURL)
            let before = try setup.tokenRequests()
            setup.clock.advance(by: 3601)
            _ = try await connection.client.limits()
            #expect(connection.client.statistics().tokenRenewals == 1)
            #expect(try setup.tokenRequests() == before + tokenRequestsPerLogin)
        }
    }

    @Test(arguments: Transport.allCases)
    func sfdxAuthURL(_ transport: Transport) async throws {
        try await Self.withSetup(transport) { setup in
            let host = setup.org.baseURL.host() ?? "127.0.0.1"
            let file = try setup.writeFile(
                "auth-url",
                "force://PlatformCLI::sf-refresh@\(host):\(setup.org.endpoint.port)\n"
            )
            // Over HTTP the auth URL's https://HOST is overridden, as --login-url does.
            let loginURL = transport == .http ? setup.baseURL : nil
            try await Self.checkSource(setup, .sfdxAuthURL(.file(file), loginURL: loginURL))
            #expect(try setup.tokenRequests() == 2)
        }
    }

    @Test(arguments: Transport.allCases)
    func jwtBearer(_ transport: Transport) async throws {
        try await Self.withSetup(transport) { setup in
            let credentials = JWTBearerCredentials(
                keyFile: setup.jwtKeyFile,
                clientID: "syncrun-ci",
                username: "admin@localorg.invalid",
                loginURL: setup.baseURL
            )
            try await Self.checkSource(setup, .jwtBearer(credentials))
        }
    }

    @Test(arguments: Transport.allCases)
    func clientCredentials(_ transport: Transport) async throws {
        try await Self.withSetup(transport) { setup in
            let secret = try setup.writeFile("secret", "s3cret\n")
            let credentials = ClientCredentials(clientID: "syncrun-ci", secret: .file(secret), loginURL: setup.baseURL)
            try await Self.checkSource(setup, .clientCredentials(credentials))
        }
    }

    @Test(arguments: Transport.allCases, ["current", "old"])
    func salesforceCLI(_ transport: Transport, mode: String) async throws {
        try await Self.withSetup(transport) { setup in
            let sf = try FakeSalesforceCLI(in: setup.directory)
            var environment = sf.environment(mode: mode, org: setup.org.endpoint, orgID: setup.orgID)
            environment["SSL_CERT_FILE"] = setup.caFile
            // sf logs in with its own refresh grant: one token request per sf answer.
            try await Self.checkSource(setup, .salesforceCLI(alias: "dev"), environment: environment)
            #expect(sf.calls("display") == (mode == "old" ? 2 : 1))
            #expect(sf.calls("token") == (mode == "old" ? 0 : 2))
        }
    }

    @Test func concurrentRequestsThatSeeTheSameExpiryShareOneRenewal() async throws {
        try await Self.withSetup(.http) { setup in
            let secret = try setup.writeFile("secret", "s3cret")
            let credentials = ClientCredentials(clientID: "syncrun-ci", secret: .file(secret), loginURL: setup.baseURL)
            let definition = OrgDefinition(name: "ci", source: .clientCredentials(credentials))
            try await setup.connector().withConnection(to: definition) { connection in
                let client = connection.client
                _ = try await client.limits()
                #expect(try setup.tokenRequests() == 1)
                setup.clock.advance(by: 3601)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<12 {
                        group.addTask { _ = try await client.limits() }
                    }
                    try await group.waitForAll()
                }
                #expect(client.statistics().tokenRenewals == 1)
                #expect(try setup.tokenRequests() == 2)
                let log = try String(contentsOf: setup.requestLog, encoding: .utf8)
                let served = log.split(separator: "\n").filter {
                    $0.contains("/limits") && $0.contains(#""status":200"#)
                }
                #expect(served.count == 13)
            }
        }
    }

    @Test func accessTokenConnectsAndCannotRenew() async throws {
        try await Self.withSetup(.http) { setup in
            let definition = OrgDefinition(
                name: setup.baseURL,
                source: .accessToken(instanceURL: setup.baseURL, token: .value(setup.org.accessToken))
            )
            try await setup.connector().withConnection(to: definition) { connection in
                let info = try await connection.client.userInfo()
                #expect(info.organizationID == setup.orgID)
                setup.clock.advance(by: 3601)
                let error = await #expect(throws: OrgClientError.self) { _ = try await connection.client.limits() }
                #expect(error?.code == .authentication)
                #expect(
                    error?.message.hasPrefix("the org '\(setup.baseURL)' rejected the access token for GET") == true
                )
                #expect(error?.message.contains("pass it with --access-token or SF_ACCESS_TOKEN") == true)
                #expect(error?.message.contains(setup.org.accessToken) == false)
            }
        }
    }

    @Test func localSourceRenewsWithItsOwnRefreshGrant() async throws {
        try await TemporaryDirectory.with { directory in
            let definition = OrgDefinition(
                name: "local:x",
                source: .local(LocalOrgSettings(directory: directory.appendingPathComponent("org").path))
            )
            let connector = OrgConnector(
                environment: [:],
                localOrgLauncher: LocalOrgServerLauncher(),
                logger: Self.logger
            )
            try await connector.withConnection(to: definition) { connection in
                let info = try await connection.client.userInfo()
                #expect(connection.identity?.organizationID == info.organizationID)
                #expect(connection.definition.source.label == "local")
            }
        }
    }

    /// OrgAccess links no local org server: a connector given no launcher refuses `local:DIR`
    /// orgs, saying so, and creates nothing.
    @Test func aConnectorWithoutALauncherRefusesLocalOrgs() async throws {
        try await TemporaryDirectory.with { directory in
            let orgDirectory = directory.appendingPathComponent("org")
            let definition = OrgDefinition(
                name: "local:x",
                source: .local(LocalOrgSettings(directory: orgDirectory.path))
            )
            let error = await #expect(throws: OrgAccessError.self) {
                try await OrgConnector(environment: [:], logger: Self.logger).withConnection(to: definition) { _ in }
            }
            #expect(error?.code == .unavailable)
            #expect(
                error?.message.hasPrefix("cannot open the local org in '\(orgDirectory.path)': this program") == true
            )
            #expect(!FileManager.default.fileExists(atPath: orgDirectory.path))
        }
    }

    @Test func expiredSalesforceCLILoginFailsAfterOneRenewalNamingTheFix() async throws {
        try await Self.withSetup(.http) { setup in
            let sf = try FakeSalesforceCLI(in: setup.directory)
            let environment = sf.environment(mode: "expired", org: setup.org.endpoint, orgID: setup.orgID)
            let definition = OrgDefinition(name: "dev", source: .salesforceCLI(alias: "dev"))
            try await setup.connector(environment).withConnection(to: definition) { connection in
                let error = await #expect(throws: OrgClientError.self) { _ = try await connection.client.limits() }
                #expect(
                    error?.message
                        == "the org 'dev' rejected the access token, also with a new token, for GET "
                        + "'/services/data/v62.0/limits' (INVALID_SESSION_ID: Session expired or invalid); log in "
                        + "again with 'sf org login web -o dev' and run again"
                )
            }
            #expect(sf.calls("token") == 2)
        }
    }

    @Test func unknownAliasAndMissingSfAreUnresolvable() async throws {
        try await Self.withSetup(.http) { setup in
            let sf = try FakeSalesforceCLI(in: setup.directory)
            let environment = sf.environment(org: setup.org.endpoint, orgID: setup.orgID)
            let unknown = OrgDefinition(name: "nope", source: .salesforceCLI(alias: "nope"))
            let error = await #expect(throws: OrgAccessError.self) {
                try await setup.connector(environment).withConnection(to: unknown) { _ in }
            }
            #expect(error?.code == .unresolvable)
            #expect(
                error?.message
                    == "'nope' is not an org the Salesforce CLI knows: No authorization information found for nope.; "
                    + "log in with 'sf org login web -o nope' ('sf org list' shows your orgs), or name an org of the "
                    + "project file"
            )
            var noSF = environment
            noSF["SYNCRUN_SF"] = nil
            noSF["PATH"] = setup.directory.path
            let missing = await #expect(throws: OrgAccessError.self) {
                try await setup.connector(noSF).withConnection(to: unknown) { _ in }
            }
            #expect(missing?.code == .unresolvable)
            #expect(missing?.message.hasPrefix("cannot run the Salesforce CLI: no executable 'sf' on PATH") == true)
        }
    }

    @Test func refusedGrantsAreRefusalsNamingTheOrg() async throws {
        try await Self.withSetup(.http) { setup in
            let secret = try setup.writeFile("secret", "wrong")
            let credentials = ClientCredentials(clientID: "syncrun-ci", secret: .file(secret), loginURL: setup.baseURL)
            let definition = OrgDefinition(name: "ci", source: .clientCredentials(credentials))
            let error = await #expect(throws: OrgAccessError.self) {
                try await setup.connector().withConnection(to: definition) { _ in }
            }
            #expect(error?.code == .refused)
            #expect(
                error?.message.hasPrefix("cannot log in to 'ci' (client-credentials): the login server refused") == true
            )
            #expect(error?.message.contains("wrong") == false)
        }
    }

    @Test func plainHTTPLoginIsOnlyForLoopback() async throws {
        let definition = OrgDefinition(
            name: "x",
            source: .sfdxAuthURL(.value("force://id::rt@example.com"), loginURL: "http://example.com")
        )
        let error = await #expect(throws: OrgAccessError.self) {
            try await OrgConnector(environment: [:], logger: Self.logger).withConnection(to: definition) { _ in }
        }
        #expect(error?.code == .unresolvable)
        #expect(error?.message.contains("uses http:// on a host that is not loopback") == true)
    }
}
