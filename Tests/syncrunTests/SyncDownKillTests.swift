import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing

/// Crash safety of a sync down into an empty soup, which writes its pages without the soup's SQL
/// indexes and builds them at the end (a bulk load, docs/store.md): `syncrun sync` is killed with
/// SIGKILL at instants spread over a run, each time into a fresh store. After every kill the file
/// passes `PRAGMA integrity_check` and still declares every index spec of the soup in
/// `soup_index_map` (what an app opening it then sees); the next run ends `DONE` with every record
/// stored once, every SQL index present, and every id in `syncrun_record_syncs`.
///
/// `SYNCRUN_KILL_ITERATIONS` sets the number of kill points (default 10; more runs follow, up to
/// three times as many, until a kill lands during the load).
@Suite(.serialized)
struct SyncDownKillTests {
    static let records = 4_000
    static let paths = ["Id", "Name", "__local__", "__sync_id__", "LastModifiedDate"]

    @Test func killedLoadsLeaveAnIntactStoreThatTheNextRunFinishes() async throws {
        let iterations = Int(ProcessInfo.processInfo.environment["SYNCRUN_KILL_ITERATIONS"] ?? "") ?? 10
        try await TemporaryDirectory.with { directory in
            try Self.writeConfig(in: directory)
            let orgDirectory = directory.appendingPathComponent("org")
            let database = try OrgDatabase(directory: orgDirectory)
            try database.write { writer in
                for index in 0..<Self.records {
                    // Names in scrambled order, as a query ordered by date returns them.
                    let name = String(format: "Account %05d", (index * 7919) % 10007)
                    _ = try writer.create("Account", fields: ["Name": .string(name), "Industry": "Testing"])
                }
            }
            let store = directory.appendingPathComponent("store.db").path
            let arguments = [
                "sync", "accountsDown", "--config", directory.path, "--org", "local:" + orgDirectory.path,
                "--store", store, "--page-size", "100", "--format", "json",
            ]
            let clock = ContinuousClock()
            var span = Duration.zero
            let first = try clock.measure {
                let result = try SyncrunProcess.run(arguments)
                #expect(result.status == 0, "\(result.stderr)")
            }
            span = max(first, .milliseconds(100))
            try Self.expectComplete(store)

            var killed = 0
            var killedDuringLoad = 0
            var iteration = 0
            // Kill points spread over the run; then more, until one landed during the load (bounded).
            while iteration < iterations || (killedDuringLoad == 0 && iteration < iterations * 3) {
                defer { iteration += 1 }
                Self.remove(store)
                let fraction = (Double(iteration % iterations) + 0.5) / Double(iterations)
                let outcome = try await SyncrunProcess.runKilled(arguments, after: span * fraction)
                // A run that ended before its kill point: later kill points come sooner.
                if !outcome.killed { span = span * 0.8 }
                if outcome.killed {
                    killed += 1
                    // What an app opening the store now sees: an intact file, every index spec declared.
                    #expect(try SystemSQLite.lines(store, "PRAGMA integrity_check") == ["ok"], "kill \(iteration)")
                    // A run killed before it created the store's tables leaves none (the next run creates them).
                    let tables = Set(
                        try SystemSQLite.lines(
                            store,
                            "SELECT name FROM sqlite_master WHERE name IN ('soup_index_map', 'syncrun_bulk_loads')"
                        )
                    )
                    if tables.contains("soup_index_map") {
                        let declared = try SystemSQLite.lines(
                            store,
                            "SELECT path FROM soup_index_map WHERE soupName = 'accounts' ORDER BY rowid"
                        )
                        #expect(declared.isEmpty || declared == Self.paths, "kill \(iteration): \(declared)")
                    }
                    if tables.contains("syncrun_bulk_loads") {
                        let loads = try SystemSQLite.lines(store, "SELECT count(*) FROM syncrun_bulk_loads")
                        if loads == ["1"] { killedDuringLoad += 1 }
                    }
                }
                let rerun = try SyncrunProcess.run(arguments)
                #expect(rerun.status == 0, "kill \(iteration): \(rerun.stderr)")
                try Self.expectComplete(store, "kill \(iteration)")
            }
            #expect(killed >= iterations / 2, "only \(killed) of \(iteration) runs were killed mid-run")
            #expect(killedDuringLoad >= 1, "no kill landed during a bulk load (\(killed) kills)")
        }
    }

    /// The store after a run that ended `DONE`.
    static func expectComplete(_ store: String, _ context: String = "first run") throws {
        let tables = try SystemSQLite.lines(
            store,
            "SELECT 'TABLE_' || id FROM soup_attrs WHERE soupName IN ('accounts', 'syncs_soup') ORDER BY soupName"
        )
        try #require(tables.count == 2, "\(context): \(tables)")
        let (soup, syncs) = (tables[0], tables[1])
        let checks = try SystemSQLite.lines(
            store,
            """
            PRAGMA integrity_check;
            SELECT count(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = '\(soup)';
            SELECT count(*) FROM syncrun_record_syncs WHERE soup_name = 'accounts';
            SELECT count(*) FROM syncrun_bulk_loads;
            SELECT count(*) FROM syncrun_pending_record_syncs;
            SELECT count(*) || ' ' || count(DISTINCT json_extract(soup, '$.Id')) FROM \(soup);
            SELECT json_extract(soup, '$.status') FROM \(syncs) WHERE json_extract(soup, '$.name') = 'accountsDown';
            """
        )
        let expected = ["ok", "\(paths.count + 2)", "\(records)", "0", "0", "\(records) \(records)", "DONE"]
        #expect(checks == expected, "\(context)")
    }

    static func writeConfig(in directory: URL) throws {
        let indexes = paths.map { path in
            #"{"path": "\#(path)", "type": "\#(path == "__sync_id__" ? "integer" : "string")"}"#
        }
        let store = #"{"soups": [{"soupName": "accounts", "indexes": ["# + indexes.joined(separator: ", ") + "]}]}"
        let syncs = """
            {"syncs": [{"syncName": "accountsDown", "syncType": "syncDown", "soupName": "accounts", \
            "target": {"type": "soql", "query": "SELECT Id, Name, Industry, LastModifiedDate FROM Account"}, \
            "options": {"mergeMode": "OVERWRITE"}}]}
            """
        try Data(store.utf8).write(to: directory.appendingPathComponent("userstore.json"))
        try Data(syncs.utf8).write(to: directory.appendingPathComponent("usersyncs.json"))
    }

    static func remove(_ store: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) }
    }
}
