import FileSchema
import Foundation
import GRDB
import SoupStore
import SyncLedger
import SyncrunTestSupport
import Testing

/// Stores written by an older syncrun open with this one, are upgraded in place (recorded, a copy
/// kept until the upgrade commits) and keep working; a store written by a newer syncrun is refused
/// and left unchanged.
struct StoreUpgradeTests {
    /// `Tests/Fixtures/legacy-a4b5152/contacts`: the contacts example after `syncrun run` at commit
    /// a4b5152 (20 accounts, 50 contacts, one account changed locally and not yet sent).
    static let legacyStore = RepositoryPaths.root
        .appendingPathComponent("Tests/Fixtures/legacy-a4b5152/contacts/.syncrun/store.db")

    static let allSteps = [
        "store-1-record-syncs-bulk-loads-org-binding", "ledger-1-ghost-scans-locks-plan-journal-bulk-jobs",
        "ledger-2-org-binding-credential",
        "ledger-3-watch-positions",
    ]

    private func copyOfLegacyStore(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("store.db").path
        try FileManager.default.copyItem(atPath: Self.legacyStore.path, toPath: path)
        return path
    }

    private func appliedSteps(_ path: String) throws -> [String] {
        let queue = try DatabaseQueue(path: path, configuration: readOnlyConfiguration)
        return try queue.read { db in
            guard try db.tableExists("grdb_migrations") else { return [] }
            return try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
        }
    }

    private var readOnlyConfiguration: Configuration {
        var configuration = Configuration()
        configuration.readonly = true
        return configuration
    }

    @Test func theLegacyFixtureIsUnversioned() async throws {
        try await TemporaryDirectory.with { directory in
            let path = try copyOfLegacyStore(in: directory)
            #expect(try appliedSteps(path).isEmpty)
        }
    }

    @Test func aStoreOfCommitA4b5152IsUpgradedInPlaceAndKeepsItsData() async throws {
        try await TemporaryDirectory.with { directory in
            let path = try copyOfLegacyStore(in: directory)
            let store = try SoupStore.ledger(path: path)
            #expect(store.upgrade.appliedSteps == Self.allSteps)
            #expect(store.upgrade.isUpgrade)
            #expect(try appliedSteps(path) == Self.allSteps)
            #expect(!FileManager.default.fileExists(atPath: path + VersionedDatabase.backupSuffix))
            let (accounts, contacts, dirty, states) = try store.read { reader in
                (
                    try reader.entryCount(in: "accounts"), try reader.entryCount(in: "contacts"),
                    try reader.dirtyEntryCount(in: "accounts"), try reader.syncStates().map(\.name)
                )
            }
            #expect(accounts == 20)
            #expect(contacts == 50)
            #expect(dirty == 1)
            #expect(Set(states) == ["accountsDown", "accountsUp", "contactsDown", "contactsUp"])
            // The ledger's books work on the upgraded file.
            try store.write { writer in
                try writer.startPlanJournal(stepIDs: ["syncDown:accountsDown"], now: 1)
                try writer.recordPlanStep("syncDown:accountsDown", status: .done, now: 2)
            }
            #expect(try store.read { try $0.planJournal().map(\.stepID) } == ["syncDown:accountsDown"])
            // A second open applies nothing.
            #expect(try SoupStore.ledger(path: path).upgrade.appliedSteps.isEmpty)
        }
    }

    @Test func aReadOnlyOpenReadsAnOlderStoreWithoutUpgradingIt() async throws {
        try await TemporaryDirectory.with { directory in
            let path = try copyOfLegacyStore(in: directory)
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            let store = try SoupStore.ledgerReadOnly(path: path)
            #expect(try store.read { try $0.syncStates().count } == 4)
            #expect(store.upgrade.appliedSteps.isEmpty)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
            #expect(try appliedSteps(path).isEmpty)
        }
    }

    @Test func aStoreOfANewerSyncrunIsRefusedAndLeftUnchanged() async throws {
        try await TemporaryDirectory.with { directory in
            let path = try copyOfLegacyStore(in: directory)
            try SoupStore.ledger(path: path).checkpoint()
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('ledger-9-from-the-future')")
            }
            try queue.close()
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            for open in [{ try SoupStore.ledger(path: path) }, { try SoupStore.ledgerReadOnly(path: path) }] {
                let error = try #require(throws: SoupStoreError.self) { _ = try open() }
                #expect(error.code == .newerStore)
                #expect(error.message.contains("newer syncrun"))
                #expect(error.message.contains("ledger-9-from-the-future"))
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        }
    }

    @Test func aCopyIsKeptUntilTheUpgradeCommits() async throws {
        struct StepFailed: Error {}
        try await TemporaryDirectory.with { directory in
            let path = try copyOfLegacyStore(in: directory)
            let failing = LedgerSchema.migrations.followed(
                by: VersionedDatabase([.init("test-2-fails") { _ in throw StepFailed() }])
            )
            #expect(throws: (any Error).self) { _ = try SoupStore(path: path, migrations: failing) }
            let backup = path + VersionedDatabase.backupSuffix
            #expect(FileManager.default.fileExists(atPath: backup))
            // The copy is the file as it was before the upgrade.
            #expect(try appliedSteps(backup).isEmpty)
            #expect(
                try DatabaseQueue(path: backup).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM TABLE_1") } == 20
            )
            // The next open finishes the upgrade and removes the copy.
            let store = try SoupStore.ledger(path: path)
            #expect(store.upgrade.appliedSteps.isEmpty || store.upgrade.appliedSteps.allSatisfy(Self.allSteps.contains))
            #expect(try appliedSteps(path) == Self.allSteps)
            #expect(!FileManager.default.fileExists(atPath: backup))
        }
    }

    @Test func aStoreReadableByOthersIsMadePrivate() async throws {
        try await TemporaryDirectory.with { directory in
            let path = try copyOfLegacyStore(in: directory)
            chmod(path, 0o644)
            let store = try SoupStore.ledger(path: path)
            let mode = try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
            #expect(mode == 0o600)
            #expect(store.tightenedFiles == [path])
        }
    }

    @Test func aNewStoreIsCreatedAtTheCurrentVersionWithoutACopy() async throws {
        try await TemporaryDirectory.with { directory in
            let path = directory.appendingPathComponent("new.db").path
            let store = try SoupStore.ledger(path: path)
            #expect(store.upgrade.appliedSteps == Self.allSteps)
            #expect(!store.upgrade.isUpgrade)
            #expect(!FileManager.default.fileExists(atPath: path + VersionedDatabase.backupSuffix))
        }
    }
}
