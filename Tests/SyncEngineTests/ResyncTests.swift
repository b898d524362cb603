import Foundation
import LocalOrg
import SoupStore
import SyncConfig
import SyncEngine
import Testing

/// Incremental resync: only changed records, ties at the watermark, after STOPPED and FAILED
/// runs, and under injected faults.
struct ResyncTests {
    @Test func resyncFetchesOnlyRecordsChangedSinceTheWatermark() async throws {
        try await EngineHarness.with(pageSize: 5) { harness in
            let ids = try harness.createAccounts((1...20).map { String(format: "Account %02d", $0) }, secondsApart: 1)
            let engine = harness.engine()
            let definition = Definitions.soql(
                "accounts",
                query: "SELECT Name FROM Account WHERE Name != 'x' OR Name = 'y'"
            )
            let first = try await engine.syncDown(definition)
            #expect(first.fetched == 20 && first.pages == 4)
            let queriesAfterFirst = try harness.queryRequestCount()
            #expect(queriesAfterFirst == 4)

            harness.clock.advance(seconds: 5)
            try harness.updateAccount(ids[3], fields: ["Name": .string("Account 04 (changed)")])
            try harness.updateAccount(ids[7], fields: ["Name": .string("Account 08 (changed)")])

            let recorder = EventRecorder()
            let second = try await engine.syncDown(definition, events: recorder.continuation)
            let events = await recorder.finish()
            guard case .started(let start) = events.first else { throw CancellationError() }
            #expect(start.isIncremental && start.maxTimeStamp == first.maxTimeStamp)
            // The two changed records, plus the one stamped exactly at the old watermark (the
            // inclusive filter re-reads it; the upsert by id makes that harmless).
            #expect(second.fetched == 3)
            #expect(try harness.queryRequestCount() - queriesAfterFirst == 1)
            #expect(try harness.storedCount() == 20)
            #expect(try harness.storedNames().filter { $0.hasSuffix("(changed)") }.count == 2)
            let log = try harness.requestLog().filter { $0.path.contains("/query") }
            let lastQuery = try #require(
                log.last?.path.removingPercentEncoding?.replacingOccurrences(of: "+", with: " ")
            )
            #expect(lastQuery.contains("LastModifiedDate >= "))
            #expect(lastQuery.contains(" AND (Name != 'x' OR Name = 'y')"))
        }
    }

    @Test func fullSizePagesIntoAFilledSoupAreWrittenTogetherAndReportedPageByPage() async throws {
        // Pages of 2,000 records (over 256 KB each) into a soup that holds records are written a
        // few per transaction; events, counts and the watermark stay per page.
        try await EngineHarness.with(pageSize: 2000) { harness in
            let padding = String(repeating: "x", count: 120)
            let names = (0..<5000).map { "Account \(String(format: "%04d", ($0 * 7919) % 10007)) \(padding)" }
            let ids = try harness.createAccounts(names)
            let engine = harness.engine()
            let definition = Definitions.soql("accounts", query: "SELECT Name FROM Account")
            let first = try await engine.syncDown(definition)
            #expect(first.status == .done && first.created == 5000)

            harness.clock.advance(seconds: 5)
            for (index, id) in ids.enumerated() where index % 2 == 0 {
                try harness.updateAccount(id, fields: ["Name": .string("Changed \(index) \(padding)")])
            }
            try harness.createAccounts((0..<2000).map { "New \($0) \(padding)" })
            let recorder = EventRecorder()
            let second = try await engine.syncDown(definition, events: recorder.continuation)
            let events = await recorder.finish()
            let fetched = events.compactMap { event -> Int? in
                if case .page(let page) = event { return page.fetched }
                return nil
            }
            #expect(second.status == .done)
            // 4,500 changed and new records, plus the one stamped at the watermark (re-read).
            #expect(second.fetched == 4501 && second.pages == 3)
            #expect(fetched == [2000, 4000, 4501])
            // The re-read one comes exactly as stored: unchanged, not updated.
            #expect(second.created == 2000 && second.updated == 2500 && second.unchanged == 1)
            #expect(try harness.storedCount() == 7000)
            #expect(try harness.storedNames().filter { $0.hasPrefix("Changed ") }.count == 2500)
            let state = try #require(try engine.syncStates(named: "accounts").first)
            #expect(state.status == .done && state.maxTimeStamp == second.maxTimeStamp)
        }
    }

    @Test func recordsWrittenInTheSameSecondAsTheWatermarkAreNeitherMissedNorDuplicated() async throws {
        try await EngineHarness.with(pageSize: 2) { harness in
            // Every record below carries the same LastModifiedDate, the watermark of the first run.
            let instant = "2026-01-01T08:00:00.000+0000"
            try harness.seedAccounts(["A1", "A2", "A3"], lastModified: instant)
            let engine = harness.engine()
            let definition = Definitions.soql("accounts", query: "SELECT Name FROM Account")
            let first = try await engine.syncDown(definition)
            #expect(first.saved == 3)
            #expect(first.maxTimeStamp == SalesforceMilliseconds.parse(instant))
            try harness.seedAccounts(["B1", "B2", "B3", "B4"], lastModified: instant)

            let second = try await engine.syncDown(definition)
            #expect(second.status == .done)
            #expect(try harness.storedNames() == ["A1", "A2", "A3", "B1", "B2", "B3", "B4"])
            #expect(try harness.storedCount() == 7)
            #expect(second.maxTimeStamp == first.maxTimeStamp)
        }
    }

    @Test func stopBetweenPagesEndsStoppedAndTheResyncCompletesTheSoup() async throws {
        try await EngineHarness.with(pageSize: 2, faults: FaultConfiguration(latency: .milliseconds(150))) { harness in
            try harness.createAccounts((1...6).map { "Account \($0)" }, secondsApart: 1)
            let engine = harness.engine()
            let definition = Definitions.soql("accounts", query: "SELECT Name FROM Account")
            let stop = StopSignal()
            let recorder = EventRecorder()
            let watcher = Task {
                for await event in recorder.stream {
                    if case .page = event { stop.requestStop() }
                }
            }
            let stopped = try await engine.syncDown(definition, stop: stop, events: recorder.continuation)
            recorder.continuation.finish()
            _ = await watcher.value

            #expect(stopped.status == .stopped)
            #expect(stopped.saved == 2 && stopped.pages == 1)
            let state = try engine.syncState(id: stopped.syncID)
            #expect(state.status == .stopped)
            #expect(state.progress == 33)
            // Sorted by LastModifiedDate: the watermark of the saved page was kept.
            #expect(state.maxTimeStamp == stopped.maxTimeStamp && state.maxTimeStamp > 0)
            #expect(try harness.storedCount() == 2)

            let resumed = try await engine.syncDown(definition)
            #expect(resumed.status == .done)
            #expect(try harness.storedCount() == 6)
            #expect(resumed.fetched == 5)  // four new ones and the one at the watermark
        }
    }

    @Test func resyncAfterAFailedRunReReadsTheWatermarkInstant() async throws {
        try await EngineHarness.with(pageSize: 2) { harness in
            try harness.createAccounts(["A1", "A2", "A3"])
            let engine = harness.engine()
            let definition = Definitions.soql("accounts", query: "SELECT Name FROM Account")
            let first = try await engine.syncDown(definition)
            // A run that failed after saving its pages leaves FAILED with the watermark of those
            // pages; MobileSync only rewinds by 1 ms after STOPPED, so it would miss these.
            let syncID = first.syncID
            try await harness.store.write { writer in
                guard var state = try writer.reader.syncState(id: syncID) else { return }
                state.status = .failed
                state.error = "simulated"
                try writer.updateSyncState(state)
            }
            try harness.createAccounts(["B1", "B2"])
            let second = try await engine.syncDown(definition)
            #expect(second.status == .done)
            #expect(try harness.storedNames() == ["A1", "A2", "A3", "B1", "B2"])
            #expect(try engine.syncState(id: first.syncID).error.isEmpty)
        }
    }

    @Test func runUnderInjectedFailuresFinishesWithExactTotals() async throws {
        let faults = FaultConfiguration(failureRate: 0.05, seed: 42)
        try await EngineHarness.with(pageSize: 2, faults: faults) { harness in
            try harness.createAccounts((1...100).map { "Account \($0)" }, secondsApart: 0.5)
            let engine = harness.engine()
            let summary = try await engine.syncDown(Definitions.soql("accounts", query: "SELECT Name FROM Account"))
            #expect(summary.status == .done)
            #expect(summary.fetched == 100 && summary.saved == 100 && summary.pages == 50)
            #expect(summary.retries > 0, "the injected failures must have been retried")
            #expect(try harness.requestLog().contains { ($0.status ?? 0) >= 500 })
            #expect(try harness.storedCount() == 100)
            let state = try engine.syncState(id: summary.syncID)
            #expect(state.totalSize == 100 && state.progress == 100)
        }
    }
}
