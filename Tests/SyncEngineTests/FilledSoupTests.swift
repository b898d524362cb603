import Foundation
import LocalOrg
import Logging
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

    private func engine(
        _ harness: EngineHarness,
        commitBytes: Int? = nil,
        logger: Logger = EngineHarness.logger
    ) -> SyncEngine {
        var configuration = SyncEngineConfiguration()
        if let commitBytes { configuration.longTransactionCommitBytes = commitBytes }
        // The thresholds scaled down to this test's few hundred records.
        configuration.scatteredIndexesSetAside = ScatteredIndexesSetAside(minimumRecords: 100, soupShare: 20)
        return SyncEngine(
            store: harness.store,
            org: harness.org,
            logger: logger,
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

    /// A page write that fails inside the long transaction (here a trigger planted on the soup's
    /// table refuses the first record of the fourth page) rolls back everything since the last
    /// commit, with the state saved alongside: the run ends `FAILED` with its progress as of that
    /// commit, the soup whole, and the next run fetches what was lost, so every record ends stored
    /// once. With a commit after every page, the three pages before the failure stay (149 new
    /// records: the first page also brings the record at the watermark again, unchanged); with one
    /// transaction for the run, they are rolled back and said to be.
    @Test(arguments: [(1, 149), (SyncEngineConfiguration.defaultLongTransactionCommitBytes, 0)])
    func aFailedWriteGoesBackToTheLastCommitWithItsProgressAndTheNextRunFetchesTheRest(
        commitBytes: Int,
        kept: Int
    ) async throws {
        try await EngineHarness.with(pageSize: 50) { harness in
            try await harness.store.write { writer in _ = try writer.registerSoup(Self.soup) }
            try harness.createAccounts(names(0..<60), secondsApart: 1)
            let engine = engine(harness, commitBytes: commitBytes)
            _ = try await engine.syncDown(Self.definition)
            try harness.createAccounts(names(60..<360), secondsApart: 1)
            let table = "TABLE_\(try tableID(harness))"
            let refused = names(210..<211)[0]
            _ = try SystemSQLite.lines(
                harness.store.path,
                """
                CREATE TRIGGER planted BEFORE INSERT ON \(table) WHEN json_extract(NEW.soup, '$.Name') = '\(refused)' \
                BEGIN SELECT RAISE(ABORT, 'planted failure'); END;
                """
            )

            let recorder = EventRecorder()
            let failed = try await engine.syncDown(Self.definition, events: recorder.continuation)
            let events = await recorder.finish()
            #expect(failed.status == .failed)
            #expect(failed.created == kept)
            let reported = events.compactMap { event -> Int? in
                if case .page(let page) = event { return page.saved }
                return nil
            }
            #expect(reported.last == 149)
            let warnings = events.compactMap { event -> String? in
                if case .warning(_, let message) = event, message.contains("rolled back") { return message }
                return nil
            }
            let lost =
                "a write failed, so the \(149 - kept) record(s) saved since the last commit were rolled back "
                + "with the sync's progress; the next run fetches them again"
            #expect(warnings == (kept == 149 ? [] : [lost]))
            try expectWhole(harness, entries: 60 + kept, "failed")

            _ = try SystemSQLite.lines(harness.store.path, "DROP TRIGGER planted;")
            let resumed = try await engine.syncDown(Self.definition)
            #expect(resumed.status == .done)
            #expect(resumed.created == 300 - kept)
            try expectWhole(harness, entries: 360, "resumed")
            #expect(try harness.storedNames(in: "named") == names(0..<360).sorted())
        }
    }

    /// Most of the first page's records are not stored yet, so the indexes are set aside before
    /// its group. With the indexes set aside, a commit builds them again from the whole soup, so the rest of
    /// the query goes into the open transaction when it is less than half of what that holds. Here
    /// a commit is due after every page of 50 (`longTransactionCommitBytes` 1): the pages
    /// before the last full one commit, the last full one (one record left) and the last page
    /// join the transaction that the run's end commits.
    @Test func aShortRestOfTheQueryJoinsTheOpenTransactionInsteadOfCommittingAlone() async throws {
        try await EngineHarness.with(pageSize: 50) { harness in
            try await harness.store.write { writer in _ = try writer.registerSoup(Self.soup) }
            try harness.createAccounts(names(0..<60), secondsApart: 1)
            _ = try await engine(harness).syncDown(Self.definition)
            try harness.createAccounts(names(60..<360), secondsApart: 1)

            let (logger, log) = RecordingLogHandler.makeLogger()
            let recorder = EventRecorder()
            let run = try await engine(harness, commitBytes: 1, logger: logger)
                .syncDown(Self.definition, events: recorder.continuation)
            let pages = await recorder.finish().filter { if case .page = $0 { true } else { false } }
            #expect(run.status == .done && run.created == 300)
            #expect(pages.count == 7)
            // Most of the first page's records are new: the indexes are set aside from it on.
            let setAside = log.entries.filter { $0.message.contains("sets the soup's scattered indexes aside") }
            #expect(setAside.map { $0.metadata["fetched"]?.description } == ["0"])
            let commits = log.entries.filter { $0.message == "Sync down commits its long transaction" }
            #expect(commits.map { $0.metadata["saved"]?.description } == ["49", "99", "149", "199", "249"])
            try expectWhole(harness, entries: 360, "done")
        }
    }
}
