import Foundation
import LocalOrg
import Logging
import OrgAccess
import OrgClient
import SoupStore
import SyncConfig
import SyncLedger
import SyncrunSession
import SyncrunTestSupport
import Testing

/// The store's binding to its org, as a library caller meets it: a ``SyncSession`` (or a
/// ``MigrationSession``) is only ever made after the check passed, so a store bound to one org
/// cannot be reached through the session for another, in a run or in a dry run.
struct StoreBindingTests {
    static let logger = Logger(label: "session.tests", factory: { _ in SwiftLogNoOpLogHandler() })

    /// A config whose store config declares `soups` (each indexed on `Id`).
    static func config(soups: [String], in directory: URL) throws -> LoadedConfig {
        let url = directory.appendingPathComponent("userstore-\(soups.joined(separator: "-")).json")
        let declared = soups.map { #"{"soupName": "\#($0)", "indexes": [{"path": "Id", "type": "string"}]}"# }
        try Data(#"{"soups": [\#(declared.joined(separator: ", "))]}"#.utf8).write(to: url)
        let loaded = try ConfigLoader().load(storeConfig: url, syncsConfig: nil)
        #expect(!loaded.hasErrors, "\(loaded.diagnostics)")
        return loaded
    }

    /// The org of `fixture` by its URL and access token (no login that tells the identity, so the
    /// session asks the org who it is).
    static func definition(_ name: String, _ fixture: LocalOrgFixture) -> OrgDefinition {
        OrgDefinition(
            name: name,
            source: .accessToken(instanceURL: fixture.baseURL.absoluteString, token: .value(fixture.accessToken))
        )
    }

    static func binding(of store: SoupStore) throws -> StoreOrgBinding? {
        try store.read { try $0.orgBinding() }
    }

    static func hasSoup(_ name: String, in store: SoupStore) throws -> Bool {
        try store.read { try $0.hasSoup(name) }
    }

    static func requests(_ url: URL) throws -> [RequestLogEntry] {
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return try text.split(separator: "\n").map {
            try JSONDecoder().decode(RequestLogEntry.self, from: Data($0.utf8))
        }
    }

    /// Two local orgs with request logs, and a temporary directory for the store and configs.
    static func withTwoOrgs(
        _ body: (URL, (LocalOrgFixture, URL), (LocalOrgFixture, URL)) async throws -> Void
    ) async throws {
        try await TemporaryDirectory.with { directory in
            let logA = directory.appendingPathComponent("a.jsonl")
            let logB = directory.appendingPathComponent("b.jsonl")
            try await LocalOrgFixture.with(configuration: LocalOrgConfiguration(requestLogURL: logA)) { orgA in
                try await LocalOrgFixture.with(configuration: LocalOrgConfiguration(requestLogURL: logB)) { orgB in
                    try #require(orgA.database.organizationID != orgB.database.organizationID)
                    try await body(directory, (orgA, logA), (orgB, logB))
                }
            }
        }
    }

    @Test(arguments: [false, true])
    func aStoreOfOneOrgIsRefusedForAnotherBeforeAnyRequestOrWrite(dryRun: Bool) async throws {
        try await Self.withTwoOrgs { directory, a, b in
            let storePath = directory.appendingPathComponent("store.db").path
            let connector = OrgConnector(environment: [:], logger: Self.logger)
            let first = try Self.config(soups: ["accounts"], in: directory)
            let bound = try await SyncSession.with(
                config: first,
                org: Self.definition("org-a", a.0),
                connector: connector,
                options: SyncSession.Options(storePath: storePath, logger: Self.logger),
                notify: { _ in }
            ) { session in try Self.binding(of: session.store) }
            #expect(bound?.orgID == a.0.database.organizationID)

            // The second config adds a soup, so a session that got past the check would write.
            let second = try Self.config(soups: ["accounts", "contacts"], in: directory)
            let reached = Reached()
            let error = await #expect(throws: SyncSessionError.self) {
                try await SyncSession.with(
                    config: second,
                    org: Self.definition("org-b", b.0),
                    connector: connector,
                    options: SyncSession.Options(storePath: storePath, dryRun: dryRun, logger: Self.logger),
                    notify: { _ in }
                ) { session in
                    reached.mark()
                    _ = try session.engine.recoverInterruptedRuns()
                }
            }
            #expect(error?.kind == .refused)
            let message = error?.message ?? ""
            #expect(message.contains("belongs to org \(a.0.database.organizationID)"), "\(message)")
            #expect(message.contains("not to org \(b.0.database.organizationID)"), "\(message)")
            #expect(message.contains("nothing was written"), "\(message)")
            #expect(!reached.value)

            // Org B was asked who it is, and nothing else; the store is as org A left it.
            // (The identity call of a bare access token: `GET /services/data/vNN.N/`.)
            let asked = try Self.requests(b.1)
            #expect(asked.map(\.method) == ["GET"], "\(asked)")
            #expect(
                asked.allSatisfy {
                    $0.path.split(separator: "/") == ["services", "data", "v\(OrgEndpoint.defaultAPIVersion)"]
                },
                "\(asked)"
            )
            let store = try SoupStore.ledgerReadOnly(path: storePath)
            #expect(try Self.binding(of: store)?.orgID == a.0.database.organizationID)
            #expect(try Self.hasSoup("contacts", in: store) == false)
        }
    }

    /// The identity call is made once per token and instance: the binding records a digest of the
    /// checked token (never the token), and a later session with that token asks the org nothing
    /// before its own requests; another org's token is still asked, and refused.
    @Test func aTokenCheckedOnceIsNotAskedAgainButAnotherOrgsStillIs() async throws {
        try await Self.withTwoOrgs { directory, a, b in
            let storePath = directory.appendingPathComponent("store.db").path
            let connector = OrgConnector(environment: [:], logger: Self.logger)
            let config = try Self.config(soups: ["accounts"], in: directory)
            var asked: [Int] = []
            for _ in 0..<2 {
                try await SyncSession.with(
                    config: config,
                    org: Self.definition("org-a", a.0),
                    connector: connector,
                    options: SyncSession.Options(storePath: storePath, logger: Self.logger),
                    notify: { _ in }
                ) { _ in }
                asked.append(try Self.requests(a.1).count)
            }
            let log = try Self.requests(a.1)
            #expect(asked == [1, 1], "\(log)")
            let binding = try #require(try Self.binding(of: SoupStore.ledgerReadOnly(path: storePath)))
            let digest = try #require(binding.credentialDigest)
            #expect(digest.count == 64)
            #expect(!digest.contains(a.0.accessToken))
            let file = try Data(contentsOf: URL(fileURLWithPath: storePath))
            #expect(file.range(of: Data(a.0.accessToken.utf8)) == nil)

            let error = await #expect(throws: SyncSessionError.self) {
                try await SyncSession.with(
                    config: config,
                    org: Self.definition("org-b", b.0),
                    connector: connector,
                    options: SyncSession.Options(storePath: storePath, logger: Self.logger),
                    notify: { _ in }
                ) { _ in }
            }
            #expect(error?.kind == .refused)
            #expect(try Self.requests(b.1).map(\.method) == ["GET"])
        }
    }

    @Test func theSameOrgOpensItsStoreAgainAndGetsTheConfigsNewSoups() async throws {
        try await Self.withTwoOrgs { directory, a, _ in
            let storePath = directory.appendingPathComponent("store.db").path
            let connector = OrgConnector(environment: [:], logger: Self.logger)
            for soups in [["accounts"], ["accounts", "contacts"]] {
                let config = try Self.config(soups: soups, in: directory)
                try await SyncSession.with(
                    config: config,
                    org: Self.definition("org-a", a.0),
                    connector: connector,
                    options: SyncSession.Options(storePath: storePath, logger: Self.logger),
                    notify: { _ in }
                ) { session in
                    let hasContacts = try Self.hasSoup("contacts", in: session.store)
                    #expect(hasContacts == soups.contains("contacts"))
                }
            }
        }
    }

    @Test func aStagingStoreOfAnotherSourceIsRefusedBeforeTheMigrationStarts() async throws {
        try await Self.withTwoOrgs { directory, a, b in
            let storePath = directory.appendingPathComponent("staging.db").path
            let connector = OrgConnector(environment: [:], logger: Self.logger)
            // A sync store of org B at the staging path: the migration from A to B must not use it.
            _ = try await SyncSession.with(
                config: try Self.config(soups: ["accounts"], in: directory),
                org: Self.definition("org-b", b.0),
                connector: connector,
                options: SyncSession.Options(storePath: storePath, logger: Self.logger),
                notify: { _ in }
            ) { _ in }
            let reached = Reached()
            let error = await #expect(throws: SyncSessionError.self) {
                try await MigrationSession.with(
                    from: Self.definition("org-a", a.0),
                    to: Self.definition("org-b", b.0),
                    connector: connector,
                    options: MigrationSession.Options(
                        configDirectory: directory.path,
                        storePath: storePath,
                        resume: false,
                        dryRun: false,
                        logger: Self.logger
                    ),
                    notify: { _ in }
                ) { _ in reached.mark() }
            }
            #expect(error?.kind == .refused)
            #expect(error?.message.contains("belongs to org \(b.0.database.organizationID)") == true)
            #expect(!reached.value)
        }
    }

    @Test func migratingAnOrgIntoItselfIsRefused() async throws {
        try await Self.withTwoOrgs { directory, a, _ in
            let error = await #expect(throws: SyncSessionError.self) {
                try await MigrationSession.with(
                    from: Self.definition("org-a", a.0),
                    to: Self.definition("again", a.0),
                    connector: OrgConnector(environment: [:], logger: Self.logger),
                    options: MigrationSession.Options(
                        configDirectory: directory.path,
                        storePath: nil,
                        resume: false,
                        dryRun: false,
                        logger: Self.logger
                    ),
                    notify: { _ in }
                ) { _ in }
            }
            #expect(
                error?.message
                    == "--from 'org-a' and --to 'again' are the same org (\(a.0.database.organizationID)); "
                    + "migrate moves records between two orgs"
            )
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(".syncrun").path))
        }
    }

    /// `org check` and `schema pull` read an org's shape: describes only, no identity call.
    @Test func anOrgOpenedForItsShapeIsOnlyDescribed() async throws {
        try await Self.withTwoOrgs { _, a, _ in
            let names = try await OrgDescriber.with(
                Self.definition("org-a", a.0),
                connector: OrgConnector(environment: [:], logger: Self.logger),
                notify: { _ in }
            ) { org in
                let global = try await org.describeGlobal().objects.map(\.name)
                _ = try await org.describeJSON("Account")
                return global
            }
            #expect(names.contains("Account"))
            let asked = try Self.requests(a.1).map(\.path)
            let version = "/services/data/v\(OrgEndpoint.defaultAPIVersion)"
            #expect(asked == ["\(version)/sobjects", "\(version)/sobjects/Account/describe"], "\(asked)")
        }
    }
}

/// Whether a session's body ran.
final class Reached: @unchecked Sendable {
    // Safe: `reached` is only touched under `lock`.
    private let lock = NSLock()
    private var reached = false
    func mark() { lock.withLock { reached = true } }
    var value: Bool { lock.withLock { reached } }
}
