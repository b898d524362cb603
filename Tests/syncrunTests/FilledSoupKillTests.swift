import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing

/// Crash safety of a sync down into a filled soup (issue 33 item 4), which sets the soup's
/// scattered field indexes (`Name`) aside inside its long transaction and builds them again just
/// before each commit: `syncrun sync` brings 3,000 new records into a soup of 1,000 and is killed
/// with SIGKILL at instants spread over the run, each time from a copy of the store as the first
/// run left it. `SYNCRUN_SET_ASIDE_MIN_RECORDS` makes the threshold small enough for this org (a
/// debug-level run shows the path taken), and `SYNCRUN_COMMIT_BYTES` makes the long transaction
/// commit every few pages, each commit with the indexes built again. After every kill, the file passes `PRAGMA
/// integrity_check` and has every SQL index of the soup (`sqlite_master`); the next run ends
/// `DONE` with every record stored once, every index present and every id in
/// `syncrun_record_syncs` (``SyncDownKillTests/expectComplete(_:_:)``).
///
/// `SYNCRUN_KILL_ITERATIONS` sets the number of kill points (default 10).
@Suite(.serialized)
struct FilledSoupKillTests {
    static let first = 1_000
    static let added = SyncDownKillTests.records - first

    @Test func killedSyncsIntoAFilledSoupLeaveEveryIndexAndTheNextRunFinishes() async throws {
        let iterations = Int(ProcessInfo.processInfo.environment["SYNCRUN_KILL_ITERATIONS"] ?? "") ?? 10
        try await TemporaryDirectory.with { directory in
            try SyncDownKillTests.writeConfig(in: directory)
            let orgDirectory = directory.appendingPathComponent("org")
            try Self.createAccounts(Self.first, from: 0, in: orgDirectory)
            let store = directory.appendingPathComponent("store.db").path
            let arguments = [
                "sync", "accountsDown", "--config", directory.path, "--org", "local:" + orgDirectory.path,
                "--store", store, "--page-size", "100", "--format", "json",
            ]
            var environment = ProcessInfo.processInfo.environment
            environment["SYNCRUN_SET_ASIDE_MIN_RECORDS"] = "500"
            // A commit every few pages (about 25 KB each), so that kills land between commits made
            // with the indexes set aside and rebuilt, not in one transaction for the whole run.
            environment["SYNCRUN_COMMIT_BYTES"] = "100000"
            let setup = try SyncrunProcess.run(arguments, environment: environment)
            try #require(setup.status == 0, "\(setup.stderr)")
            // The filled soup, kept aside: every kill starts from it.
            let saved = directory.appendingPathComponent("filled.db").path
            try Self.copy(store, to: saved)
            try Self.createAccounts(Self.added, from: Self.first, in: orgDirectory)

            // One whole run: it takes the set-aside path, and ends with everything.
            var logged = environment
            logged["SYNCRUN_LOG_LEVEL"] = "debug"
            let clock = ContinuousClock()
            var span = try clock.measure {
                let result = try SyncrunProcess.run(arguments, environment: logged)
                #expect(result.status == 0, "\(result.stderr)")
                #expect(
                    result.stderr.contains("sets the soup's scattered indexes aside"),
                    "the run did not set the indexes aside"
                )
                #expect(
                    result.stderr.components(separatedBy: "commits its long transaction").count > 3,
                    "the run did not commit every few pages"
                )
            }
            try SyncDownKillTests.expectComplete(store, "whole run")

            let soup = try #require(
                try SystemSQLite.lines(store, "SELECT 'TABLE_' || id FROM soup_attrs WHERE soupName = 'accounts'")
                    .first
            )
            let indexes = try SystemSQLite.lines(
                store,
                "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = '\(soup)' ORDER BY name"
            )
            var killed = 0
            for iteration in 0..<iterations {
                try Self.copy(saved, to: store)
                let fraction = (Double(iteration) + 0.5) / Double(iterations)
                let outcome = try await SyncrunProcess.runKilled(
                    arguments,
                    after: span * fraction,
                    environment: environment
                )
                // A run that ended before its kill point: later kill points come sooner.
                if !outcome.killed { span = span * 0.8 }
                if outcome.killed {
                    killed += 1
                    let checks = try SystemSQLite.lines(
                        store,
                        """
                        PRAGMA integrity_check;
                        SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = '\(soup)' ORDER BY name;
                        """
                    )
                    #expect(checks == ["ok"] + indexes, "kill \(iteration)")
                }
                let rerun = try SyncrunProcess.run(arguments, environment: environment)
                #expect(rerun.status == 0, "kill \(iteration): \(rerun.stderr)")
                try SyncDownKillTests.expectComplete(store, "kill \(iteration)")
            }
            #expect(killed >= iterations / 2, "only \(killed) of \(iterations) runs were killed mid-run")
        }
    }

    /// Creates `count` accounts in the local org in `directory`, their Names in scrambled order.
    static func createAccounts(_ count: Int, from start: Int, in directory: URL) throws {
        let database = try OrgDatabase(directory: directory)
        try database.write { writer in
            for index in start..<(start + count) {
                let name = String(format: "Account %05d", (index * 7919) % 10007)
                _ = try writer.create("Account", fields: ["Name": .string(name), "Industry": "Testing"])
            }
        }
    }

    /// Copies the store at `source` (its WAL and shared-memory files too) over `destination`.
    static func copy(_ source: String, to destination: String) throws {
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: destination + suffix)
            if FileManager.default.fileExists(atPath: source + suffix) {
                try FileManager.default.copyItem(atPath: source + suffix, toPath: destination + suffix)
            }
        }
    }
}
