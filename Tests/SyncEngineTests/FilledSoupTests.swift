import Foundation
import LocalOrg
import SoupStore
import SyncEngine
import SyncrunTestSupport
import Testing

/// A sync down of many new records into a soup that already holds records (issue 33 item 4): its
/// long transaction sets the soup's scattered field indexes (`Name`) aside after the first page,
/// defers the record-syncs rows, and puts both back before every commit, so that each state the
/// store is left in, a stop or a failure's included, has every index and every fetched id.
struct FilledSoupTests {
    static let soup = SoupSpec(
        name: "named",
        indexes: [
            IndexSpec(path: "Id", type: .string), IndexSpec(path: "__local__", type: .string),
            IndexSpec(path: "__sync_id__", type: .integer), IndexSpec(path: "LastModifiedDate", type: .string),
            IndexSpec(path: "Name", type: .string),
        ]
    )
    static let definition = Definitions.soql("named", query: "SELECT Name FROM Account", soup: "named")

    private func engine(_ harness: EngineHarness) -> SyncEngine {
        var configuration = SyncEngineConfiguration()
        // The thresholds scaled down to this test's few hundred records.
        configuration.scatteredIndexesSetAside = ScatteredIndexesSetAside(minimumRecords: 100, soupShare: 20)
        return SyncEngine(
            store: harness.store,
            org: harness.org,
            logger: EngineHarness.logger,
            configuration: configuration
        )
    }

    /// Names in scrambled order, as a query ordered by date returns them.
    private func names(_ range: Range<Int>) -> [String] {
        range.map { String(format: "Filled %05d", ($0 * 7919) % 10007) }
    }

    /// The soup's books as another process sees them: integrity, SQL indexes of the soup's table,
    /// entries and distinct ids, `syncrun_record_syncs` rows, rows left in the pending table.
    private func books(_ harness: EngineHarness) throws -> [String] {
        try SystemSQLite.lines(
            harness.store.path,
            """
            PRAGMA integrity_check;
            SELECT group_concat(name, ' ') FROM (SELECT name FROM sqlite_master WHERE type = 'index' AND \
            tbl_name = (SELECT 'TABLE_' || id FROM soup_attrs WHERE soupName = 'named') ORDER BY name);
            SELECT count(*) || ' ' || count(DISTINCT json_extract(soup, '$.Id')) FROM \
            TABLE_\(try tableID(harness));
            SELECT count(*) FROM syncrun_record_syncs WHERE soup_name = 'named';
            SELECT count(*) FROM syncrun_pending_record_syncs;
            """
        )
    }

    private func tableID(_ harness: EngineHarness) throws -> String {
        try SystemSQLite.lines(harness.store.path, "SELECT id FROM soup_attrs WHERE soupName = 'named'").first ?? "?"
    }

    private func expectWhole(_ harness: EngineHarness, entries: Int, _ context: String) throws {
        let table = "TABLE_\(try tableID(harness))"
        let indexes = ["created", "lastModified", "0", "1", "2", "3", "4"].map { "\(table)_\($0)_idx" }.sorted()
        let expected = ["ok", indexes.joined(separator: " "), "\(entries) \(entries)", "\(entries)", "0"]
        #expect(try books(harness) == expected, "\(context)")
    }

    @Test func manyNewRecordsIntoAFilledSoupEndWithEveryIndexAndEveryFetchedID() async throws {
        try await EngineHarness.with(pageSize: 50) { harness in
            try await harness.store.write { writer in _ = try writer.registerSoup(Self.soup) }
            try harness.createAccounts(names(0..<60), secondsApart: 1)
            let engine = engine(harness)
            let first = try await engine.syncDown(Self.definition)
            #expect(first.status == .done && first.created == 60)
            try harness.createAccounts(names(60..<360), secondsApart: 1)

            let second = try await engine.syncDown(Self.definition)
            #expect(second.status == .done)
            #expect(second.created == 300 && second.updated == 0)
            try expectWhole(harness, entries: 360, "after the second run")
            // The rebuilt index answers as the soup's index: every name, in order.
            #expect(try harness.storedNames(in: "named") == names(0..<360).sorted())
        }
    }

    @Test func aStopWhileTheIndexesAreSetAsideLeavesTheSoupWholeAndTheNextRunFinishes() async throws {
        let faults = FaultConfiguration(latency: .milliseconds(40))
        try await EngineHarness.with(pageSize: 50, faults: faults) { harness in
            try await harness.store.write { writer in _ = try writer.registerSoup(Self.soup) }
            try harness.createAccounts(names(0..<60), secondsApart: 1)
            let engine = engine(harness)
            _ = try await engine.syncDown(Self.definition)
            try harness.createAccounts(names(60..<360), secondsApart: 1)

            let stop = StopSignal()
            let recorder = EventRecorder()
            let watcher = Task {
                var pages = 0
                for await event in recorder.stream {
                    if case .page = event {
                        pages += 1
                        if pages == 3 { stop.requestStop() }
                    }
                }
            }
            let stopped = try await engine.syncDown(Self.definition, stop: stop, events: recorder.continuation)
            recorder.continuation.finish()
            _ = await watcher.value
            #expect(stopped.status == .stopped)
            #expect(stopped.created > 50 && stopped.created < 300)
            try expectWhole(harness, entries: 60 + stopped.created, "stopped")

            let resumed = try await engine.syncDown(Self.definition)
            #expect(resumed.status == .done)
            try expectWhole(harness, entries: 360, "resumed")
        }
    }
}
