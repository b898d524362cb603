import Foundation
import OrgClient
import SoupStore
import SyncConfig
import SyncEngine
import SyncLedger

/// Settings of a ``Watcher``.
public struct WatchOptions: Sendable {
    /// How often a sync without a change event topic is resynced (`--poll-interval`).
    public var pollInterval: Duration = .seconds(30)
    /// How long events are gathered into one batch after the first arrives.
    public var batchWindow: Duration = .milliseconds(100)
    /// The events a subscription keeps requested (`num_requested`).
    public var flowWindow = 100
    /// The first wait before subscribing again after the stream broke; doubled up to
    /// ``maximumReconnectDelay``.
    public var reconnectDelay: Duration = .seconds(1)
    public var maximumReconnectDelay: Duration = .seconds(30)
    /// The clock every wait runs on (tests pass one that does not wait).
    public var clock: any Clock<Duration> = ContinuousClock()
    /// Now, in ms since the epoch (commit times and latencies).
    public var now: @Sendable () -> Int64 = { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }

    /// Creates the default settings.
    public init() {}
}

/// Keeps the soups of soql sync downs current from their objects' Change Data Capture events
/// (`syncrun watch`; docs/watch.md).
///
/// Events trigger, the query decides: a batch of events for one sync (gathered for at most
/// ``WatchOptions/batchWindow``) becomes that sync's own query restricted to the batch's record ids
/// (``WatchedSync/queries(for:)``), written with the sync's merge mode as a resync writes it;
/// records the query no longer returns (deleted, or out of the WHERE) are removed like ghosts when
/// clean. The batch's last replay id is stored with the writes in one transaction, so a restart
/// resumes right after it. Gap and overflow events, and a replay id the org no longer holds, fall
/// back to a resync from the watermark with ghost cleaning; an object without a topic is resynced
/// every ``WatchOptions/pollInterval``.
public struct Watcher: Sendable {
    let engine: SyncEngine
    let source: any ChangeEventSource
    let options: WatchOptions
    let report: @Sendable (WatchEvent) -> Void
    /// One store write at a time: the engine's runs (a resync's long transaction, a sync up) and
    /// the batches of other syncs share one store connection for writing, which holds one
    /// transaction at a time.
    let gate = RequestWindow(limit: 1)

    /// Creates a watcher over `engine`'s store and org, with events from `source`; `report`
    /// receives what happens.
    public init(
        engine: SyncEngine,
        source: any ChangeEventSource,
        options: WatchOptions = WatchOptions(),
        report: @escaping @Sendable (WatchEvent) -> Void
    ) {
        self.engine = engine
        self.source = source
        self.options = options
        self.report = report
    }

    /// Watches `definitions` until `stop` is raised (then returns, each sync's batch in hand
    /// written) or a sync fails in a way watching cannot recover from (thrown).
    ///
    /// - Throws: ``LiveSyncError`` (``LiveSyncError/Code/notWatchable``, ``LiveSyncError/Code/authentication``),
    ///   `SyncEngineError` from preparing a sync.
    /// - Parameter upSyncs: Sync ups to run, in this order (the plan's), whenever their soups hold
    ///   local changes (`--up`); checked at most once a second.
    public func run(_ definitions: [SyncDefinition], upSyncs: [SyncDefinition] = [], stop: WatchStop) async throws {
        var syncs: [(WatchedSync, Int64, WatchMode, WatchPosition?)] = []
        var starts: [WatchStart] = []
        let positions = try await engine.store.read { try $0.watchPositions() }
        for definition in definitions {
            let sync = try WatchedSync(definition)
            let state = try engine.prepare(definition)
            let exists = try await source.topicExists(sync.topic)
            var position = positions.first { $0.syncID == state.id }
            if position?.topic != sync.topic { position = nil }
            syncs.append((sync, state.id, exists ? .cdc : .poll, position))
            starts.append(
                WatchStart(
                    syncName: sync.name,
                    syncID: state.id,
                    mode: exists ? .cdc : .poll,
                    topic: sync.topic,
                    reason: exists
                        ? nil
                        : "the org has no topic \(sync.topic) (\(sync.object) is not selected for Change Data Capture); "
                            + "resynced every \(options.pollInterval.components.seconds) s instead",
                    resumesAfter: exists ? position?.replayID.hexText : nil
                )
            )
        }
        report(.started(starts))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (sync, syncID, mode, position) in syncs {
                group.addTask {
                    switch mode {
                    case .cdc: try await watchChanges(sync, syncID: syncID, position: position, stop: stop)
                    case .poll: try await poll(sync, stop: stop)
                    }
                }
            }
            if !upSyncs.isEmpty {
                group.addTask { try await syncUps(upSyncs, stop: stop) }
            }
            try await group.waitForAll()
        }
        report(.stopped)
    }

    // MARK: - Change events

    private func watchChanges(_ sync: WatchedSync, syncID: Int64, position stored: WatchPosition?, stop: WatchStop)
        async throws
    {
        var position = stored?.replayID
        var needsResync = position == nil
        var resyncReason = "start: no stored position"
        var delay = options.reconnectDelay
        var reconnects = 0
        // After a resync under a LATEST subscription: the subscription may have been registered by
        // the org only after the resync's query, so changes committed in between have neither an
        // event nor a place in the resync. Its first delivery proves it registered; a second
        // (incremental) resync then reads what changed since the first.
        var catchUpPending = false
        let wake = Wake()
        stop.register(wake)
        while !stop.isStopRequested {
            let buffer = DeliveryBuffer(wake: wake)
            let flow = SubscriptionFlow(window: options.flowWindow)
            let start: ReplayStart = position.map { .after($0) } ?? .latest
            let subscription = Task { [source] in
                do {
                    try await source.subscribe(topic: sync.topic, start: start, flow: flow) { buffer.append($0) }
                    buffer.end(nil)
                } catch let error as LiveSyncError {
                    buffer.end(error)
                } catch is CancellationError {
                    buffer.end(nil)
                } catch {
                    buffer.end(LiveSyncError(.unavailable, "the subscription to \(sync.topic) broke: \(error)"))
                }
            }
            defer {
                subscription.cancel()
                flow.finish()
            }
            var ended: LiveSyncError?
            if needsResync {
                // Subscribed first (LATEST), so nothing committed from here on is missed; what the
                // resync reads again is written again, by id.
                do {
                    try await resync(sync, reason: resyncReason)
                    needsResync = false
                    catchUpPending = true
                } catch {
                    ended = Self.unavailable(error, "the resync of sync '\(sync.name)'")
                }
            }
            consuming: while ended == nil {
                if stop.isStopRequested, !buffer.hasEvents { return }
                if Task.isCancelled { return }
                await wake.wait()
                if buffer.hasEvents {
                    // Gather: more events of the same burst join this batch.
                    try? await options.clock.sleep(for: options.batchWindow)
                }
                let (deliveries, isEnded, failure) = buffer.take()
                if catchUpPending, !deliveries.isEmpty {
                    do {
                        try await resync(sync, reason: "catch-up: the subscription is registered")
                        catchUpPending = false
                    } catch {
                        ended = Self.unavailable(error, "the catch-up resync of sync '\(sync.name)'")
                        needsResync = true
                        break consuming
                    }
                }
                let events = deliveries.flatMap { delivery -> [ChangeEvent] in
                    if case .events(let events) = delivery { return events }
                    return []
                }
                if !events.isEmpty {
                    do {
                        position = try await apply(events, of: sync, syncID: syncID) ?? position
                    } catch {
                        // Nothing of the failed batch moved the position: subscribe again from it.
                        ended = Self.unavailable(error, "applying change events to sync '\(sync.name)'")
                        break consuming
                    }
                    flow.consumed(events.count)
                    delay = options.reconnectDelay
                    reconnects = 0
                }
                if isEnded {
                    ended = failure ?? LiveSyncError(.reconnect, "the subscription to \(sync.topic) ended")
                    break consuming
                }
            }
            guard let ended else { continue }
            switch ended.code {
            case .replayIDUnavailable:
                report(
                    .warning(
                        syncName: sync.name,
                        message: "the org no longer holds the replay id this sync stopped at (older than its "
                            + "retention); resyncing from the watermark, then watching from the newest event"
                    )
                )
                try await gate.run {
                    try await engine.store.write { try $0.clearWatchPosition(syncID: syncID) }
                }
                position = nil
                needsResync = true
                resyncReason = "replay id no longer held by the org"
            case .reconnect:
                // At once the first times (a renewed token); a stream that keeps ending waits too.
                reconnects += 1
                if reconnects > 2 {
                    try? await sleep(delay, wake: wake, stop: stop)
                    delay = min(delay * 2, options.maximumReconnectDelay)
                }
            case .topicNotFound:
                report(.warning(syncName: sync.name, message: ended.message + "; watching it by resync instead"))
                return try await poll(sync, stop: stop)
            case .authentication, .notWatchable, .invalidConfiguration:
                throw ended
            case .unavailable, .invalidEvent:
                report(
                    .warning(
                        syncName: sync.name,
                        message: ended.message + "; subscribing again in \(delay.components.seconds) s"
                    )
                )
                try? await sleep(delay, wake: wake, stop: stop)
                delay = min(delay * 2, options.maximumReconnectDelay)
            }
        }
    }

    /// Applies `events` in order: runs of record changes as batches, gap and overflow events as a
    /// resync. Returns the new position (the last event's replay id).
    private func apply(_ events: [ChangeEvent], of sync: WatchedSync, syncID: Int64) async throws -> [UInt8]? {
        var run: [ChangeEvent] = []
        func flush() async throws {
            guard !run.isEmpty else { return }
            report(.batch(try await applyBatch(run, of: sync, syncID: syncID)))
            run = []
        }
        for event in events {
            if event.changeType.needsResync {
                try await flush()
                try await resync(sync, reason: "\(event.changeType.rawValue) event")
                let position = WatchPosition(
                    syncID: syncID,
                    topic: sync.topic,
                    replayID: event.replayID,
                    appliedAt: options.now()
                )
                try await gate.run { try await engine.store.write { try $0.setWatchPosition(position) } }
            } else {
                run.append(event)
            }
        }
        try await flush()
        return events.last?.replayID
    }

    /// Writes one batch, 200 ids at a time (so a transaction of a whole Bulk job is never held in
    /// memory at once): the sync's query for those ids, then, in one transaction, the pages (merge
    /// mode as a resync) and the removal of records no longer returned; the last group's
    /// transaction also stores the batch's position. A kill between two groups resumes from the
    /// position before the batch and writes the same records again, which changes nothing.
    public func applyBatch(_ events: [ChangeEvent], of sync: WatchedSync, syncID: Int64) async throws
        -> WatchBatchReport
    {
        let ids = events.flatMap(\.recordIDs).filter { $0.count == 15 || $0.count == 18 }
        let unique = Array(Set(ids))
        guard let last = events.last else {
            throw LiveSyncError(.invalidEvent, "an empty batch of change events for sync '\(sync.name)'")
        }
        let target = sync.target
        let options = PageUpsertOptions(
            externalIDPath: target.idFieldName,
            localEntries: sync.definition.options.mergeMode.localEntries,
            syncID: syncID,
            modificationDateField: target.modificationDateFieldName
        )
        let (soup, topic, removes, now) = (
            sync.definition.soupName, sync.topic, !sync.hasLimitOrOffset, self.options.now
        )
        let store = engine.store
        var groups = stride(from: 0, to: unique.count, by: WatchedSync.idsPerQuery).map {
            Array(unique[$0..<min($0 + WatchedSync.idsPerQuery, unique.count)])
        }
        if groups.isEmpty { groups = [[]] }
        var (written, skipped, removed, committedAt) = (0, 0, 0, Int64(0))
        for (index, group) in groups.enumerated() {
            var pages: [String] = []
            for query in sync.queries(for: group) {
                for try await page in engine.org.queryPages(query) { pages.append(page.body.text) }
            }
            let isLast = index == groups.count - 1
            let result = try await gate.run { [pages] in
                try await store.write { writer in
                    var (saved, kept) = (0, 0)
                    for page in pages {
                        let result = try writer.upsertFetchedPage(page, into: soup, options: options)
                        saved += result.saved
                        kept += result.skipped
                    }
                    let removal =
                        removes && !group.isEmpty
                        ? try writer.removeWatchedRecords(
                            group,
                            returned: pages,
                            soup: soup,
                            idPath: target.idFieldName,
                            syncID: syncID
                        )
                        : WatchRemoval(released: 0, deleted: 0)
                    let at = now()
                    if isLast {
                        try writer.setWatchPosition(
                            WatchPosition(syncID: syncID, topic: topic, replayID: last.replayID, appliedAt: at)
                        )
                    }
                    return (saved, kept, removal.deleted, at)
                }
            }
            written += result.0
            skipped += result.1
            removed += result.2
            committedAt = result.3
        }
        let oldest = events.map(\.commitTimestamp).filter { $0 > 0 }.min() ?? committedAt
        return WatchBatchReport(
            syncName: sync.name,
            events: events.count,
            recordIDs: unique.count,
            written: written,
            skippedLocallyChanged: skipped,
            removed: removed,
            committedAt: committedAt,
            latencyMilliseconds: max(0, committedAt - oldest),
            replayID: last.replayID.hexText
        )
    }

    private static func unavailable(_ error: any Error, _ what: String) -> LiveSyncError {
        if let error = error as? LiveSyncError { return error }
        return LiveSyncError(.unavailable, "\(what) failed: \(error)")
    }

    // MARK: - Resync and polling

    /// A resync of `sync` from its watermark, then its ghosts cleaned (what a gap may have deleted),
    /// unless its query has LIMIT or OFFSET.
    ///
    /// - Throws: ``LiveSyncError`` (``LiveSyncError/Code/unavailable``) when the resync did not end
    ///   `DONE`, so the position is not moved past the events it stands for.
    func resync(_ sync: WatchedSync, reason: String) async throws {
        let engine = self.engine
        let (down, deleted, status) = try await gate.run {
            let down = try await engine.syncDown(sync.definition)
            var deleted = 0
            var status = down.status
            if down.status == .done, !sync.hasLimitOrOffset {
                let ghosts = try await engine.cleanGhosts(sync.definition)
                deleted = ghosts.deletedGhosts
                status = ghosts.status
            }
            return (down, deleted, status)
        }
        report(
            .resynced(
                syncName: sync.name,
                reason: reason,
                fetched: down.fetched,
                saved: down.saved,
                deletedGhosts: deleted,
                status: status.rawValue
            )
        )
        guard status == .done else {
            throw LiveSyncError(
                .unavailable,
                "the resync of sync '\(sync.name)' (\(reason)) ended \(status.rawValue): \(down.error ?? "see the log")"
            )
        }
    }

    private func poll(_ sync: WatchedSync, stop: WatchStop) async throws {
        let wake = Wake()
        stop.register(wake)
        while !stop.isStopRequested {
            do {
                try await resync(sync, reason: "poll")
            } catch let error as LiveSyncError {
                report(.warning(syncName: sync.name, message: error.message + "; trying again at the next poll"))
            }
            try? await sleep(options.pollInterval, wake: wake, stop: stop)
        }
    }

    /// Runs each of `ups` whose soup holds local changes, in order, checking at most once a second.
    private func syncUps(_ ups: [SyncDefinition], stop: WatchStop) async throws {
        let wake = Wake()
        stop.register(wake)
        while !stop.isStopRequested {
            for up in ups {
                let soup = up.soupName
                let isDirty = try await engine.store.read { try !$0.dirtyEntries(in: soup, limit: 1).isEmpty }
                guard isDirty, !stop.isStopRequested else { continue }
                let engine = self.engine
                let summary = try await gate.run { try await engine.syncUp(up) }
                report(
                    .syncedUp(
                        syncName: up.name,
                        status: summary.status.rawValue,
                        sent: summary.created + summary.updated + summary.deleted
                    )
                )
            }
            try? await sleep(.seconds(1), wake: wake, stop: stop)
        }
    }

    /// Waits `duration` on the clock, or until a stop.
    private func sleep(_ duration: Duration, wake: Wake, stop: WatchStop) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await options.clock.sleep(for: duration) }
            group.addTask {
                while !stop.isStopRequested, !Task.isCancelled { await wake.wait() }
            }
            _ = try await group.next()
            group.cancelAll()
        }
    }
}
