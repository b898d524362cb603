import Foundation
import LiveSync
import OrgClient
import SoupStore
import SyncConfig
import SyncEngine
import SyncLedger
import Testing

/// The watch loop over a local org's REST API, with change events played from a script.
@Suite struct WatcherTests {
    private static let energy = WatchHarness.soql("energy", query: "SELECT Name FROM Account WHERE Industry = 'Energy'")

    private func watcher(_ harness: WatchHarness, _ source: ScriptedSource, _ reports: Reports) -> Watcher {
        var options = WatchOptions()
        options.batchWindow = .milliseconds(10)
        options.pollInterval = .seconds(3600)
        return Watcher(engine: harness.engine, source: source, options: options) { reports.add($0) }
    }

    /// Runs `watcher` on `syncs` until `until` holds, then stops it and returns.
    private func watch(
        _ watcher: Watcher,
        _ syncs: [SyncDefinition],
        upSyncs: [SyncDefinition] = [],
        until: @escaping () throws -> Bool
    ) async throws {
        let stop = WatchStop()
        let running = Task { try await watcher.run(syncs, upSyncs: upSyncs, stop: stop) }
        let reached = try await eventually(until)
        stop.requestStop()
        try await running.value
        #expect(reached)
    }

    @Test func aBatchIsReadBackByIdsAndWrittenWithItsReplayID() async throws {
        try await WatchHarness.with { harness in
            let kept = try harness.create("Kept")
            let leaving = try harness.create("Leaving")
            let deleted = try harness.create("Deleted")
            _ = try await harness.engine.syncDown(Self.energy)
            // On the org: one created, one updated, one moved out of the WHERE, one deleted.
            let created = try harness.create("Created")
            try harness.update(kept, ["Name": .string("Kept 2")])
            try harness.update(leaving, ["Industry": .string("Other")])
            try harness.delete(deleted)
            let source = ScriptedSource([
                .deliver([
                    .events([
                        event(.create, [created], replay: 1), event(.update, [kept, leaving], replay: 2),
                        event(.delete, [deleted], replay: 3),
                    ])
                ])
            ])
            // A stored position: the watch resumes after it, with no resync.
            let syncID = try harness.engine.prepare(Self.energy).id
            try await harness.store.write {
                try $0.setWatchPosition(
                    WatchPosition(
                        syncID: syncID,
                        topic: "/data/AccountChangeEvent",
                        replayID: [0, 0, 0, 0],
                        appliedAt: 1
                    )
                )
            }
            let reports = Reports()
            try await watch(watcher(harness, source, reports), [Self.energy]) { !reports.batches.isEmpty }
            #expect(source.subscriptionStarts == [.after([0, 0, 0, 0])])
            #expect(reports.resyncReasons.isEmpty)
            #expect(try harness.storedNames() == ["Created", "Kept 2"])
            let batch = try #require(reports.batches.first)
            #expect(batch.events == 3)
            #expect(batch.written == 2)
            #expect(batch.removed == 2)
            #expect(batch.replayID == "00000003")
            #expect(try harness.positions().map(\.replayID) == [[0, 0, 0, 3]])
        }
    }

    @Test func aGapEventEndsInAResyncAndMovesThePositionPastIt() async throws {
        try await WatchHarness.with { harness in
            _ = try await harness.engine.syncDown(Self.energy)
            let syncID = try harness.engine.prepare(Self.energy).id
            try await harness.store.write {
                try $0.setWatchPosition(
                    WatchPosition(
                        syncID: syncID,
                        topic: "/data/AccountChangeEvent",
                        replayID: [0, 0, 0, 0],
                        appliedAt: 1
                    )
                )
            }
            // Changes the gap event stands for: nothing names their ids.
            try harness.create("Missed by the events")
            let source = ScriptedSource([.deliver([.events([event(.gapUpdate, [], replay: 7)])])])
            let reports = Reports()
            try await watch(watcher(harness, source, reports), [Self.energy]) { !reports.resyncReasons.isEmpty }
            #expect(reports.resyncReasons == ["GAP_UPDATE event"])
            #expect(try harness.storedNames() == ["Missed by the events"])
            #expect(try harness.positions().map(\.replayID) == [[0, 0, 0, 7]])
        }
    }

    @Test func anExpiredReplayIDEndsInAResyncThenWatchesFromTheNewest() async throws {
        try await WatchHarness.with { harness in
            let gone = try harness.create("Deleted while away")
            _ = try await harness.engine.syncDown(Self.energy)
            let syncID = try harness.engine.prepare(Self.energy).id
            try await harness.store.write {
                try $0.setWatchPosition(
                    WatchPosition(syncID: syncID, topic: "/data/AccountChangeEvent", replayID: [9, 9], appliedAt: 1)
                )
            }
            try harness.create("Created while away")
            try harness.delete(gone)
            let source = ScriptedSource([
                .fail(LiveSyncError(.replayIDUnavailable, "The Replay ID validation failed.")), .deliver([]),
            ])
            let reports = Reports()
            try await watch(watcher(harness, source, reports), [Self.energy]) {
                source.subscriptionStarts.count == 2 && !reports.resyncReasons.isEmpty
            }
            #expect(source.subscriptionStarts == [.after([9, 9]), .latest])
            #expect(reports.resyncReasons == ["replay id no longer held by the org"])
            // The resync cleaned the ghost too.
            #expect(try harness.storedNames() == ["Created while away"])
            #expect(try harness.positions().isEmpty)
        }
    }

    @Test func leaveIfChangedKeepsALocalEdit() async throws {
        try await WatchHarness.with { harness in
            let definition = WatchHarness.soql(
                "energy",
                query: "SELECT Name FROM Account WHERE Industry = 'Energy'",
                mergeMode: .leaveIfChanged
            )
            let id = try harness.create("Server")
            _ = try await harness.engine.syncDown(definition)
            try harness.editLocally(id, name: "Edited here")
            try harness.update(id, ["Name": .string("Server 2")])
            let source = ScriptedSource([.deliver([.events([event(.update, [id], replay: 1)])])])
            let syncID = try harness.engine.prepare(definition).id
            try await harness.store.write {
                try $0.setWatchPosition(
                    WatchPosition(syncID: syncID, topic: "/data/AccountChangeEvent", replayID: [0], appliedAt: 1)
                )
            }
            let reports = Reports()
            try await watch(watcher(harness, source, reports), [definition]) { !reports.batches.isEmpty }
            #expect(reports.batches.first?.skippedLocallyChanged == 1)
            #expect(reports.batches.first?.written == 0)
            #expect(try harness.storedNames() == ["Edited here"])
            // A deleted record with local changes is not removed either.
            try harness.delete(id)
            let deleting = ScriptedSource([.deliver([.events([event(.delete, [id], replay: 2)])])])
            let more = Reports()
            try await watch(watcher(harness, deleting, more), [definition]) { !more.batches.isEmpty }
            #expect(more.batches.first?.removed == 0)
            #expect(try harness.storedNames() == ["Edited here"])
        }
    }

    @Test func theReplayIDIsCommittedWithTheWritesOrNotAtAll() async throws {
        try await WatchHarness.with { harness in
            _ = try await harness.engine.syncDown(Self.energy)
            let syncID = try harness.engine.prepare(Self.energy).id
            let sync = try WatchedSync(Self.energy)
            let id = try harness.create("New")
            let watcher = watcher(harness, ScriptedSource([]), Reports())
            // The position table missing: the page is written, then storing the position fails, in
            // the same transaction, so neither stays.
            try await harness.store.write {
                try $0.db.execute(sql: "ALTER TABLE syncrun_watch_positions RENAME TO hidden")
            }
            await #expect(throws: (any Error).self) {
                _ = try await watcher.applyBatch([event(.create, [id], replay: 1)], of: sync, syncID: syncID)
            }
            #expect(try harness.storedNames().isEmpty)
            try await harness.store.write {
                try $0.db.execute(sql: "ALTER TABLE hidden RENAME TO syncrun_watch_positions")
            }
            #expect(try harness.positions().isEmpty)
            // With the table back, the same batch commits both.
            let report = try await watcher.applyBatch([event(.create, [id], replay: 1)], of: sync, syncID: syncID)
            #expect(report.written == 1)
            #expect(try harness.storedNames() == ["New"])
            #expect(try harness.positions().map(\.replayID) == [[0, 0, 0, 1]])
        }
    }

    @Test func anObjectWithoutATopicIsWatchedByResyncs() async throws {
        try await WatchHarness.with { harness in
            try harness.create("Polled")
            let source = ScriptedSource(topics: [], [])
            let reports = Reports()
            try await watch(watcher(harness, source, reports), [Self.energy]) { !reports.resyncReasons.isEmpty }
            #expect(reports.starts.map(\.mode) == [.poll])
            #expect(reports.starts.first?.reason?.contains("/data/AccountChangeEvent") == true)
            #expect(reports.resyncReasons.first == "poll")
            #expect(source.subscriptionStarts.isEmpty)
            #expect(try harness.storedNames() == ["Polled"])
        }
    }

    @Test func withoutAStoredPositionTheWatchSubscribesLatestThenResyncs() async throws {
        try await WatchHarness.with { harness in
            try harness.create("Before the watch")
            let source = ScriptedSource([.deliver([])])
            let reports = Reports()
            try await watch(watcher(harness, source, reports), [Self.energy]) { !reports.resyncReasons.isEmpty }
            #expect(source.subscriptionStarts == [.latest])
            #expect(reports.starts.map(\.mode) == [.cdc])
            #expect(try harness.storedNames() == ["Before the watch"])
        }
    }

    @Test func withUpLocalChangesAreSentToTheOrg() async throws {
        try await WatchHarness.with { harness in
            let up = SyncDefinition(
                name: "up",
                type: .syncUp,
                soupName: "accounts",
                target: .up(
                    SyncUpTarget(kind: .collection, createFieldlist: ["Name", "Industry"], updateFieldlist: ["Name"])
                ),
                options: SyncOptions()
            )
            let record: [String: OrgValue] = [
                "attributes": ["type": "Account"], "Id": .string("local_1"), "Name": "Made here",
                "Industry": "Energy", "__local__": true, "__locally_created__": true, "__locally_updated__": false,
                "__locally_deleted__": false,
            ]
            try await harness.store.write { _ = try $0.upsert(OrgValue.object(record).jsonText, into: "accounts") }
            let reports = Reports()
            let source = ScriptedSource([.deliver([])])
            try await watch(watcher(harness, source, reports), [Self.energy], upSyncs: [up]) {
                reports.all.contains { if case .syncedUp = $0 { true } else { false } }
            }
            let sent = reports.all.compactMap { event -> Int? in
                if case .syncedUp(_, let status, let sent) = event, status == "DONE" { return sent }
                return nil
            }
            #expect(sent == [1])
            let page = try harness.database.query("SELECT Name FROM Account", apiVersion: "62.0")
            #expect(page.totalSize == 1)
            let dirty = try await harness.store.read { try $0.dirtyEntryCount(in: "accounts") }
            #expect(dirty == 0)
        }
    }
}
