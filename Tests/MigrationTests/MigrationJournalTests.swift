import Foundation
import LocalOrg
import Logging
import OrgClient
import SoupStore
import SyncrunTestSupport
import Testing

@testable import Migration

/// The migration journal: its own file (0600, folder 0700) per pair, intents on disk before a
/// create is sent and resolved by its answer, rows that survive the process, and a pair check.
struct MigrationJournalTests {
    private static let pair = MigrationPair(sourceOrgID: "00DSOURCE0000001AAA", targetOrgID: "00DTARGET0000002AAA")

    /// What the org saw when the create arrived: the journal's intents, read by another program.
    private final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var intents: [[String]] = []

        func record(_ lines: [String]) { lock.withLock { intents.append(lines) } }
        var all: [[String]] { lock.withLock { intents } }
    }

    @Test func anIntentIsOnDiskBeforeItsCreateIsSentAndTheAnswerResolvesIt() async throws {
        try await TemporaryDirectory.with(prefix: "migration-journal") { directory in
            let path = MigrationJournal.defaultPath(configDirectory: directory.path, pair: Self.pair)
            let seen = Seen()
            let configuration = LocalOrgConfiguration(requestObserver: { method, target in
                guard method == "POST", target.contains("/composite/sobjects") else { return }
                // The system sqlite3 shell: another connection, as a process started after a kill.
                seen.record(
                    (try? SystemSQLite.lines(path, "SELECT sobject || '/' || source_id FROM create_intent ORDER BY 1"))
                        ?? ["unreadable"]
                )
            })
            try await LocalOrgFixture.with(configuration: configuration) { org in
                let journal = try MigrationJournal(path: path, pair: Self.pair)
                let books = MigrationBooks(journal: journal)
                try await withClient(org) { client in
                    let applier = BatchApplier(
                        target: client,
                        books: books,
                        sobject: "Account",
                        externalIDField: nil,
                        run: "run-1",
                        now: { 1_000 }
                    )
                    let outcome = try await applier.apply(
                        ["001S1", "001S2", "001S3"].map { id in
                            RecordDecision(sourceID: id, action: .create(fields: ["Name": .string("Account \(id)")]))
                        }
                    )
                    #expect(outcome.created == 3)
                }
                #expect(seen.all == [["Account/001S1", "Account/001S2", "Account/001S3"]])
                #expect(try SystemSQLite.lines(path, "SELECT count(*) FROM create_intent") == ["0"])
                let page = try org.database.query("SELECT Id FROM Account", apiVersion: "62.0")
                let targetIDs = (try JSONSerialization.jsonObject(with: page.recordsJSON) as? [[String: Any]])?
                    .compactMap { $0["Id"] as? String }
                let mapped = try SystemSQLite.lines(path, "SELECT target_id FROM id_map ORDER BY source_id")
                #expect(mapped.count == 3)
                #expect(Set(mapped) == Set(targetIDs ?? []))
            }
            // Private: the file 0600, its folder 0700, named after the pair's 15-character ids.
            #expect(path.hasSuffix(".syncrun/migrations/00DSOURCE000000-00DTARGET000000.db"))
            #expect(try Self.mode(path) == 0o600)
            #expect(try Self.mode(URL(fileURLWithPath: path).deletingLastPathComponent().path) == 0o700)
            #expect(
                try SystemSQLite.lines(path, "SELECT identifier FROM grdb_migrations")
                    == ["journal-1-pair-id-map-create-intents", "journal-2-mask-secret"]
            )
        }
    }

    @Test func aReopenedJournalKeepsItsRowsAndRecoveryResolvesTheIntentsOfALostBatch() async throws {
        try await TemporaryDirectory.with(prefix: "migration-journal") { directory in
            let path = directory.appendingPathComponent(".syncrun/migrations/pair.db").path
            try await LocalOrgFixture.with { org in
                // A killed run: one row mapped, three intents on disk; the org had served two of
                // those creates (the third never arrived) when the process died.
                do {
                    let books = MigrationBooks(journal: try MigrationJournal(path: path, pair: Self.pair))
                    try books.recordBatch(
                        sobject: "Account",
                        mapped: [("001S0", "001TGT0")],
                        createdRun: "run-1",
                        clearIntents: []
                    )
                    let at = Int64((Date().timeIntervalSince1970 * 1000).rounded())
                    try books.recordIntents(
                        (1...3).map { index in
                            CreateIntent(
                                sobject: "Account",
                                sourceID: "001S\(index)",
                                body: #"{"Name":"Lost \#(index)","Industry":"Energy"}"#,
                                at: at
                            )
                        }
                    )
                }
                try org.database.write { writer in
                    try writer.create("Account", fields: ["Name": "Lost 1", "Industry": "Energy"])
                    try writer.create("Account", fields: ["Name": "Lost 2", "Industry": "Energy"])
                }
                let reopened = MigrationBooks(journal: try MigrationJournal(path: path, pair: Self.pair))
                #expect(try reopened.targetIDs(of: ["001S0"], sobjects: ["Account"]) == ["001S0": "001TGT0"])
                #expect(try reopened.intents(of: "Account").map(\.sourceID) == ["001S1", "001S2", "001S3"])
                try await withClient(org) { client in
                    let user = try await client.identity().userID
                    let adopted = try await CreateRecovery(
                        target: client,
                        books: reopened,
                        sobject: "Account",
                        run: "run-2"
                    ).recover(userID: user)
                    #expect(adopted == 2)
                }
                #expect(try reopened.intents(of: "Account").isEmpty)
                let mapped = try reopened.targetIDs(of: ["001S1", "001S2", "001S3"], sobjects: ["Account"])
                #expect(Set(mapped.keys) == ["001S1", "001S2"])
            }
        }
    }

    /// A staging store of a syncrun before the journal: its id map and intents of this pair move
    /// into the journal once and leave the store; another pair's rows stay; a store without those
    /// tables moves nothing.
    @Test func olderStagingBooksMoveIntoTheJournalOnce() async throws {
        try await TemporaryDirectory.with(prefix: "migration-journal") { directory in
            let storePath = directory.appendingPathComponent("staging.db").path
            let store = try SoupStore.migrationStaging(path: storePath)
            let books = MigrationBooks(
                journal: try MigrationJournal(path: directory.appendingPathComponent("pair.db").path, pair: Self.pair)
            )
            #expect(try books.importStagingBooks(from: store) == 0)
            let (source, target) = (Self.pair.sourceOrgID, Self.pair.targetOrgID)
            _ = try SystemSQLite.lines(
                storePath,
                """
                CREATE TABLE syncrun_id_map (source_org TEXT, target_org TEXT, sobject TEXT, source_id TEXT, \
                target_id TEXT, run TEXT);
                CREATE TABLE syncrun_migration_intent (source_org TEXT, target_org TEXT, sobject TEXT, \
                source_id TEXT, body TEXT, at INTEGER);
                INSERT INTO syncrun_id_map VALUES ('\(source)', '\(target)', 'Account', '001S1', '001T1', 'run-0');
                INSERT INTO syncrun_id_map VALUES ('00DOTHER000000AAAA', '\(target)', 'Account', '001S9', '001T9', NULL);
                INSERT INTO syncrun_migration_intent VALUES ('\(source)', '\(target)', 'Account', '001S2', '{}', 7);
                """
            )
            #expect(try books.importStagingBooks(from: store) == 2)
            #expect(try books.targetIDs(of: ["001S1", "001S9"], sobjects: ["Account"]) == ["001S1": "001T1"])
            #expect(try books.intents(of: "Account").map(\.sourceID) == ["001S2"])
            #expect(try SystemSQLite.lines(storePath, "SELECT source_id FROM syncrun_id_map") == ["001S9"])
            #expect(try SystemSQLite.lines(storePath, "SELECT count(*) FROM syncrun_migration_intent") == ["0"])
            #expect(try books.importStagingBooks(from: store) == 0)
        }
    }

    @Test func aJournalServesOnePairAndIsTightenedWhenLooser() async throws {
        try await TemporaryDirectory.with(prefix: "migration-journal") { directory in
            let path = directory.appendingPathComponent("migrations/pair.db").path
            _ = try MigrationJournal(path: path, pair: Self.pair)
            chmod(path, 0o644)
            chmod(directory.appendingPathComponent("migrations").path, 0o755)
            // The same orgs by their 15-character ids: the same journal.
            _ = try MigrationJournal(
                path: path,
                pair: MigrationPair(sourceOrgID: "00DSOURCE000000", targetOrgID: "00DTARGET000000")
            )
            #expect(try Self.mode(path) == 0o600)
            #expect(try Self.mode(directory.appendingPathComponent("migrations").path) == 0o700)
            let swapped = MigrationPair(sourceOrgID: Self.pair.targetOrgID, targetOrgID: Self.pair.sourceOrgID)
            let error = try #require(throws: MigrationError.self) { try MigrationJournal(path: path, pair: swapped) }
            #expect(error.kind == .refused)
            #expect(error.message.contains("belongs to the migration from org 00DSOURCE0000001AAA"), "\(error)")
        }
    }

    private func withClient(_ org: LocalOrgFixture, _ body: (RESTOrgClient) async throws -> Void) async throws {
        let endpoint = try OrgEndpoint(baseURL: org.baseURL.absoluteString, accessToken: org.accessToken)
        let logger = Logger(label: "migration.tests", factory: { _ in SwiftLogNoOpLogHandler() })
        try await withRESTOrgClient(configuration: .init(endpoint: endpoint), logger: logger) { try await body($0) }
    }

    private static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}
