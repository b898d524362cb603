import Foundation
import SyncrunTestSupport
import Testing

/// A project written by syncrun at commit a4b5152 (`Tests/Fixtures/legacy-a4b5152/contacts`: the
/// contacts example after one `run`, one account changed locally since) keeps working: reading
/// commands read it as it is, the next sync upgrades the store and sends the local change.
@Suite(.serialized)
struct UpgradeCommandTests {
    static let legacy = RepositoryPaths.root.appendingPathComponent("Tests/Fixtures/legacy-a4b5152/contacts")

    private func withLegacyProject<T>(_ body: (RunProject) async throws -> T) async throws -> T {
        try await TemporaryDirectory.with { directory in
            let project = directory.appendingPathComponent("contacts")
            try FileManager.default.copyItem(at: Self.legacy, to: project)
            return try await body(RunProject(directory: project))
        }
    }

    private func versionSteps(_ path: String) throws -> [String] {
        let tables = try SystemSQLite.lines(path, "SELECT name FROM sqlite_master WHERE name = 'grdb_migrations'")
        guard !tables.isEmpty else { return [] }
        return try SystemSQLite.lines(path, "SELECT identifier FROM grdb_migrations ORDER BY rowid")
    }

    @Test func statusReadsAnOlderStoreWithoutUpgradingItThenRunUpgradesAndSyncs() async throws {
        try await withLegacyProject { project in
            let before = try Data(contentsOf: project.storeFile)
            let status = try SyncrunProcess.run(["status", "--config", project.config, "--format", "json"])
            #expect(status.status == 0, "\(status.stderr)")
            #expect(status.stdout.contains(#""name":"accountsDown""#))
            #expect(try Data(contentsOf: project.storeFile) == before)
            #expect(try versionSteps(project.storeFile.path).isEmpty)

            let run = try SyncrunProcess.run(["run", "--config", project.config, "--format", "json"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.contains("note: upgraded"), "\(run.stderr)")
            let summary = try RunSummary(run)
            #expect(summary.status == "DONE")
            #expect(try summary.count("updated", of: "syncUp:accountsUp") == 1)
            #expect(
                try versionSteps(project.storeFile.path) == [
                    "store-1-record-syncs-bulk-loads-org-binding", "ledger-1-ghost-scans-locks-plan-journal-bulk-jobs",
                    "ledger-2-org-binding-credential",
                    "ledger-3-watch-positions",
                ]
            )
            let phone = try project.orgRecords("SELECT Phone FROM Account WHERE Name = 'Aster Biotech'")
            #expect(phone.first?["Phone"] as? String == "555-0100")

            // Resync and status keep working on the upgraded store, with no second upgrade.
            let again = try SyncrunProcess.run([
                "resync", "accountsDown", "--config", project.config, "--format", "json",
            ])
            #expect(again.status == 0, "\(again.stderr)")
            #expect(!again.stderr.contains("upgraded"))
            let after = try SyncrunProcess.run(["status", "accountsUp", "--config", project.config])
            #expect(after.status == 0, "\(after.stderr)")
        }
    }

    @Test func aStoreOfANewerSyncrunIsRefusedByEveryCommandAndLeftAlone() async throws {
        try await withLegacyProject { project in
            let path = project.storeFile.path
            _ = try SystemSQLite.lines(
                path,
                "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY); "
                    + "INSERT INTO grdb_migrations VALUES ('ledger-7-a-later-table')"
            )
            let before = try Data(contentsOf: project.storeFile)
            for arguments in [["status"], ["run"], ["store", "query", "SELECT {accounts:Name} FROM {accounts}"]] {
                let result = try SyncrunProcess.run(arguments + ["--config", project.config])
                #expect(result.status == 1, "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains("written by a newer syncrun"), "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains("ledger-7-a-later-table"))
            }
            #expect(try Data(contentsOf: project.storeFile) == before)
        }
    }

    /// A store on a read-only file system (a bind mount remounted read-only, in a private mount
    /// namespace made with `unshare`): the reading commands read it.
    @Test func statusAndStoreQueryReadAStoreOnAReadOnlyFileSystem() async throws {
        try await withLegacyProject { project in
            let mount = project.directory.deletingLastPathComponent().appendingPathComponent("readonly")
            try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
            let syncrun = RepositoryPaths.syncrunExecutable.path
            let script = """
                set -e
                mount --bind '\(project.directory.path)' '\(mount.path)'
                mount -o remount,bind,ro '\(mount.path)'
                if touch '\(mount.path)/probe' 2>/dev/null; then echo 'the mount is writable'; exit 3; fi
                '\(syncrun)' status accountsDown --config '\(mount.path)'
                '\(syncrun)' store query --config '\(mount.path)' --format json \
                  "SELECT {accounts:Name} FROM {accounts} WHERE {accounts:Name} = 'Aster Biotech'"
                """
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
            process.arguments = ["--map-root-user", "--mount", "/bin/sh", "-c", script]
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(stdout)\n\(stderr)")
            #expect(stdout.contains("accountsDown"), "\(stdout)")
            #expect(stdout.contains("Aster Biotech"), "\(stdout)")
            #expect(!stderr.contains("SQLite error"), "\(stderr)")
        }
    }
}
