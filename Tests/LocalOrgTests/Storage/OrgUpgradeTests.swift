import FileSchema
import Foundation
import GRDB
import LocalOrg
import SyncrunTestSupport
import Testing

/// A local org data directory written by syncrun at commit a4b5152 (the contacts example's org in
/// `Tests/Fixtures/legacy-a4b5152`) opens with this syncrun, is upgraded in place and keeps serving;
/// one written by a newer syncrun is refused and left unchanged.
struct OrgUpgradeTests {
    static let legacyOrg = RepositoryPaths.root
        .appendingPathComponent("Tests/Fixtures/legacy-a4b5152/contacts/.syncrun/org")

    private func copyOfLegacyOrg(in directory: URL) throws -> URL {
        let copy = directory.appendingPathComponent("org")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Self.legacyOrg.appendingPathComponent(OrgDatabase.fileName),
            to: copy.appendingPathComponent(OrgDatabase.fileName)
        )
        return copy
    }

    private func steps(_ path: String) throws -> [String] {
        var configuration = Configuration()
        configuration.readonly = true
        return try DatabaseQueue(path: path, configuration: configuration).read { db in
            guard try db.tableExists("grdb_migrations") else { return [] }
            return try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
        }
    }

    @Test func anOrgOfCommitA4b5152IsUpgradedAndKeepsItsRecords() async throws {
        try await TemporaryDirectory.with { directory in
            let org = try copyOfLegacyOrg(in: directory)
            let path = org.appendingPathComponent(OrgDatabase.fileName).path
            #expect(try steps(path).isEmpty)
            let database = try OrgDatabase(directory: org)
            #expect(database.upgrade.isUpgrade)
            let allSteps = [
                "org-1-bookkeeping-cursors-recent-bulk", "org-2-bulk-v1-batches", "org-3-bulk-job-user",
                "org-4-change-events",
            ]
            #expect(database.upgrade.appliedSteps == allSteps)
            #expect(try steps(path) == allSteps)
            #expect(!FileManager.default.fileExists(atPath: path + VersionedDatabase.backupSuffix))
            let accounts = try database.query("SELECT Id, Name FROM Account", apiVersion: "62.0")
            #expect(accounts.totalSize == 20)
            let contacts = try database.query("SELECT Id FROM Contact", apiVersion: "62.0")
            #expect(contacts.totalSize == 50)
            // Reopening applies nothing.
            #expect(try OrgDatabase(directory: org).upgrade.appliedSteps.isEmpty)
        }
    }

    @Test func anOrgOfANewerSyncrunIsRefusedAndLeftUnchanged() async throws {
        try await TemporaryDirectory.with { directory in
            let org = try copyOfLegacyOrg(in: directory)
            let path = org.appendingPathComponent(OrgDatabase.fileName).path
            _ = try OrgDatabase(directory: org)
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('org-5-from-a-later-syncrun')")
            }
            try queue.close()
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            let error = try #require(throws: OrgError.self) { _ = try OrgDatabase(directory: org) }
            #expect("\(error)".contains("newer syncrun"))
            #expect("\(error)".contains("org-5-from-a-later-syncrun"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        }
    }
}
