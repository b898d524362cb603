import Foundation
import Logging
import OrgClient
import SoupStore
import SyncConfig

/// Runs one sync up (sync-semantics §7, §8): claims the sync, streams the dirty records batch by
/// batch in numeric entry-id order, checks each batch's conflicts under `LEAVE_IF_CHANGED`, sends
/// it with the target's sender, reads back the written records' modification dates, and writes
/// the batch's outcomes with the sync state in one transaction. `parent_children` targets run
/// their trees through ``ParentChildrenSyncUpRunner``.
struct SyncUpRunner: Sendable {
    let store: SoupStore
    let org: any OrgClient
    let registry: SyncStateRegistry
    let logger: Logger
    let events: AsyncStream<SyncEvent>.Continuation?
    /// A custom target's plug-in sender (``SyncUpSetup/customSender(org:)``), `nil` for the
    /// other kinds.
    var customSender: CustomSyncUpSender?
    /// How Bulk API 2.0 ingest jobs are awaited.
    var bulkPoller = BulkJobPoller(policy: BulkJobPolling(), clock: ContinuousClock())
    /// The requests this run keeps in flight (`maxConcurrentRequests`): every send, conflict
    /// check and read-back takes a slot.
    var window = RequestWindow(limit: SyncOptions.defaultMaxConcurrentRequests)
    /// How records refused with `UNABLE_TO_LOCK_ROW` are resent.
    var lockRetry = RecordLockRetry()
    /// When the org's API allocation runs low: one request at a time, then a clean stop.
    var allocation = APIAllocationGuard(
        slowBelow: Double(SyncOptions.defaultMinApiShare),
        stopBelow: Double(SyncOptions.defaultStopApiShare)
    )

    /// Runs `definition` (state `state`, target `target`).
    ///
    /// - Returns: The totals; a failed or stopped run is reported here and in the state.
    /// - Throws: `SyncEngineError` when the run could not start or its final state not be saved.
    func run(
        _ definition: SyncDefinition,
        target: SyncUpTarget,
        plan: SyncUpRequestPlan,
        state: StoredSyncState,
        stop: StopSignal
    ) async throws -> SyncUpSummary {
        let name = definition.name
        let startedAt = registry.now
        let before = org.statistics()
        var progress = SyncUpProgress(state: state, syncName: name)
        let (_, lock) = try claim(state: state, name: name) { current in
            progress = SyncUpProgress(state: current, syncName: name)
            return progress.start(now: startedAt)
        }
        let metadata: Logger.Metadata = ["sync.name": "\(name)", "sync.id": "\(state.id)"]
        logger.debug("Sync up started", metadata: metadata)
        events?.yield(
            .started(
                SyncRunStart(
                    syncName: name,
                    syncID: state.id,
                    operation: .syncUp,
                    targetKind: target.kind.productTypeName ?? "custom",
                    isIncremental: false,
                    maxTimeStamp: state.maxTimeStamp
                )
            )
        )

        var failure: String?
        var stopped = false
        var stopMessage: String?
        do {
            if target.kind == .parentChildren, let info = target.parentChildren {
                var runner = ParentChildrenSyncUpRunner(
                    store: store,
                    org: org,
                    plan: ParentChildrenSyncUpPlan(info: info, target: target, parent: plan),
                    events: events,
                    registry: registry
                )
                runner.window = window
                stopped = try await runner.run(progress: &progress, stop: stop)
            } else {
                stopped = try await runRecords(definition, target: target, plan: plan, progress: &progress, stop: stop)
            }
        } catch is CancellationError {
            stopped = true
        } catch let stop as APIAllocationStop {
            stopped = true
            stopMessage = stop.message
        } catch {
            failure = SyncEngineError.wrapping(error, syncName: name).message
        }

        let endedAt = registry.now
        let final: StoredSyncState
        if let failure {
            final = progress.fail(failure, now: endedAt)
        } else if stopped {
            final = progress.stop(stopMessage ?? SyncEngineError.stopped(name).message, now: endedAt)
        } else {
            final = progress.finish(now: endedAt)
        }
        logger.debug("Sync up ended", metadata: metadata.merging(["sync.status": "\(final.status)"]) { $1 })
        do {
            try await registry.release(lock, saving: final)
        } catch {
            throw SyncEngineError.wrapping(error, syncName: name)
        }
        var summary = progress.summary
        let after = org.statistics()
        summary.requests = after.requests - before.requests
        summary.retries = after.retries - before.retries
        summary.apiUsage = after.apiUsage
        summary.durationMilliseconds = endedAt - startedAt
        if summary.hasRecordIssues {
            events?.yield(
                .warning(
                    syncName: name,
                    message: "\(summary.conflicts) record(s) conflicted and \(summary.failed) failed; they stay "
                        + "marked local, with the reason in their '__last_error__'"
                )
            )
        }
        events?.yield(.finished(summary.runSummary))
        return summary
    }

    /// Streams the dirty records (sync-semantics §7.1, §11 item 22): counts them for `totalSize`,
    /// then reads one batch at a time after the last entry id seen, in numeric entry-id order
    /// (the next batch is read while one is sent). Each batch is prepared (intents, conflicts)
    /// and sent while up to ``batchesInFlight`` - 1 batches before it are still being sent, all
    /// of them sharing the run's ``window`` of requests in flight (so the last calls of one page
    /// overlap the first of the next); each batch is read back and written back as soon as its
    /// answers are in, oldest first, while the later ones are sent. A batch's write-back always
    /// follows its own sends, and every batch sent is written back before the run returns, stops
    /// or fails. Memory holds ``batchesInFlight`` + 2 batches whatever the number of dirty
    /// records, and records left dirty (failed, conflicted) are not read twice.
    ///
    /// - Returns: Whether the run stopped on request.
    private func runRecords(
        _ definition: SyncDefinition,
        target: SyncUpTarget,
        plan: SyncUpRequestPlan,
        progress: inout SyncUpProgress,
        stop: StopSignal
    ) async throws -> Bool {
        let soup = definition.soupName
        let total = try await store.read { try $0.dirtyEntryCount(in: soup) }
        let selected = progress.selected(total)
        _ = try await store.write { try $0.updateSyncState(selected) }
        let ingest = Self.ingestClient(for: target, dirty: total, org: org)
        let batchSize =
            ingest != nil ? Self.ingestBatchSize : target.kind == .collection ? Self.collectionPageSize : 200
        let members = SyncUpRecord.members(for: plan)
        let custom = customSender
        let store = store
        // Endpoint targets and plug-ins get whole records; the others read only the members they
        // use, and write-back patches the stored documents.
        let readMembers = target.endpoint == nil && custom == nil ? members : nil
        let (idFieldName, modificationDateFieldName) = (target.idFieldName, target.modificationDateFieldName)
        let dirtyWithoutOperationIsUpdate = target.kind != .single
        // The first page of a collection sync up holds only what the window's calls take at once: its
        // intents are written before its first call goes out, and at 100 ms per request the run no
        // longer waits for a whole page's before it sends anything (the next page, full size, is
        // read and prepared while those calls are in flight).
        let firstBatchSize = Self.firstPageSize(
            pageSize: batchSize,
            callSize: target.maxBatchSize,
            requestsInFlight: window.limit,
            isCollection: target.kind == .collection && ingest == nil && custom == nil && target.endpoint == nil
        )
        /// The dirty records after `cursor` (at most `limit`), read and decoded.
        let page = { @Sendable (cursor: Int64, limit: Int) in
            Task {
                let entries = try await store.read {
                    try $0.dirtyEntries(in: soup, afterEntryID: cursor, limit: limit)
                }
                return try entries.map {
                    try SyncUpRecord(
                        entry: $0,
                        idFieldName: idFieldName,
                        modificationDateFieldName: modificationDateFieldName,
                        dirtyWithoutOperationIsUpdate: dirtyWithoutOperationIsUpdate,
                        members: readMembers
                    )
                }
            }
        }
        // The next page is read while this one is sent (a batch's processing writes only its own
        // entries, all before the next page's first entry id); not for ingest jobs, whose pages of
        // 10,000 records would double the memory held.
        let readsAhead = ingest == nil
        var cursor: Int64 = 0
        var ahead: Task<[SyncUpRecord], any Error>? = page(cursor, firstBatchSize)
        defer { ahead?.cancel() }
        // The batches being sent, oldest first (their answers not all awaited yet). The oldest is
        // written back once its answers are in, while the later ones are still being sent, so
        // the org always has work; batches are written back in order, each after its own sends,
        // and every batch sent is written back before the run returns, stops or fails.
        var inFlight: [(answers: Task<[Int64: SyncUpOutcome], any Error>, batch: PreparedBatch)] = []
        /// Waits for the oldest batch being sent and writes it back.
        func writeBackOldest() async throws {
            guard !inFlight.isEmpty else { return }
            let (answers, prepared) = inFlight.removeFirst()
            var outcomes = prepared.outcomes
            outcomes.merge(try await answers.value) { $1 }
            var sent: SentBatch? = SentBatch(records: prepared.batch, outcomes: outcomes)
            try await finish(&sent, plan: plan, progress: &progress)
        }
        /// Writes back every batch sent, oldest first.
        func drain() async throws {
            while !inFlight.isEmpty { try await writeBackOldest() }
        }
        // The API allocation, read from the latest response's `Sforce-Limit-Info` before each
        // batch: low, one request at a time from then on (said once); nearly gone, a clean stop
        // (every batch sent is written back by the error path below).
        var slowed = false
        func checkAllocation() throws {
            let usage = org.statistics().apiUsage
            switch allocation.verdict(usage) {
            case .proceed:
                break
            case .slowDown(let left):
                guard !slowed, let usage else { break }
                slowed = true
                window.setLimit(1)
                events?.yield(
                    .warning(syncName: definition.name, message: allocation.slowDownMessage(usage, percentLeft: left))
                )
            case .stop(let left):
                guard let usage else { break }
                throw APIAllocationStop(
                    message: allocation.stopMessage(usage, percentLeft: left, syncName: definition.name)
                )
            }
        }
        do {
            while true {
                if stop.isStopRequested || Task.isCancelled {
                    try await drain()
                    return true
                }
                try checkAllocation()
                let batch = try await (ahead ?? page(cursor, batchSize)).value
                guard let last = batch.last else {
                    try await drain()
                    return false
                }
                cursor = last.entryID
                ahead = readsAhead ? page(cursor, batchSize) : nil
                if let custom {
                    try await processCustom(batch, sender: custom, progress: &progress)
                    continue
                }
                if let endpoint = target.endpoint {
                    try await processEndpoint(
                        batch,
                        info: endpoint,
                        plan: plan,
                        syncName: definition.name,
                        progress: &progress
                    )
                    continue
                }
                // Prepared while the batches before are still being sent.
                let prepared = try await prepare(batch, plan: plan, soup: soup)
                let (kind, callSize, name) = (target.kind, target.maxBatchSize, definition.name)
                inFlight.append(
                    (
                        Task { [prepared] in
                            try await send(
                                prepared.toSend,
                                kind: kind,
                                callSize: callSize,
                                plan: plan,
                                ingest: ingest.map {
                                    IngestSyncUpSender(org: $0, plan: plan, syncName: name, poller: bulkPoller)
                                }
                            )
                        },
                        prepared
                    )
                )
                // Ingest jobs hold 10,000 records each: one at a time.
                let most = ingest == nil ? Self.batchesInFlight : 1
                while inFlight.count >= most { try await writeBackOldest() }
            }
        } catch {
            // The batches already sent are still written back when a later step fails (a batch
            // whose sends failed keeps its records dirty, with their intents, for the next run).
            // Every batch's requests are awaited before the run returns.
            while !inFlight.isEmpty {
                let (answers, prepared) = inFlight.removeFirst()
                guard let answered = try? await answers.value else { continue }
                var sent: SentBatch? = SentBatch(
                    records: prepared.batch,
                    outcomes: prepared.outcomes.merging(answered) { $1 }
                )
                try? await finish(&sent, plan: plan, progress: &progress)
            }
            throw error
        }
    }

    /// The batches being sent at once (sharing the run's ``window``, which serves them in order):
    /// the oldest's calls go out first, and while it is read back and written back the next two
    /// keep the window full (with two, the window ran dry at every page at 100 ms per request).
    static let batchesInFlight = 3

    /// A batch whose records were sent, with each one's outcome.
    struct SentBatch: Sendable {
        var records: [SyncUpRecord]
        var outcomes: [Int64: SyncUpOutcome]
    }

    /// A batch ready to send: the records (with their intents), the outcomes decided without
    /// sending (recovered creates, conflicts, skipped records) and the records to send.
    struct PreparedBatch: Sendable {
        var batch: [SyncUpRecord]
        var outcomes: [Int64: SyncUpOutcome]
        var toSend: [SyncUpRecord]
    }

    /// The records per ingest job of a sync up through Bulk API 2.0.
    static let ingestBatchSize = 10_000

    /// The dirty records read, checked, sent and written back together by the collection target:
    /// as many as one collection retrieve takes, so the conflict check and the read-back cost one
    /// call per page while the writes go `maxBatchSize` (≤ 200) per call.
    static let collectionPageSize = 2000

    /// The records of a collection sync up's first page: as many as `requestsInFlight` calls of
    /// `callSize` take (at least one call's, at most `pageSize`), so the first requests wait for
    /// that many create intents rather than a whole page's; `pageSize` for the other targets.
    static func firstPageSize(pageSize: Int, callSize: Int, requestsInFlight: Int, isCollection: Bool) -> Int {
        guard isCollection else { return pageSize }
        return min(pageSize, max(1, callSize) * max(1, requestsInFlight))
    }

    /// The client to send through Bulk API 2.0 ingest jobs, when this sync up should: a collection
    /// or batch target whose `api` is `bulk`, or `auto` with at least `bulkThreshold` dirty records,
    /// on an org client that has Bulk.
    static func ingestClient(for target: SyncUpTarget, dirty: Int, org: any OrgClient) -> (any BulkIngestClient)? {
        guard target.kind == .collection || target.kind == .batch, target.api != .rest,
            let client = org as? any BulkIngestClient
        else { return nil }
        return target.api == .bulk || dirty >= target.bulkThreshold ? client : nil
    }

    /// Recovers the batch's lost creates, records the intents, checks conflicts: everything
    /// before the records are sent.
    private func prepare(
        _ records: [SyncUpRecord],
        plan: SyncUpRequestPlan,
        soup: String
    ) async throws -> PreparedBatch {
        var batch = records
        let recovery = SyncUpCreateRecovery(org: org, plan: plan, soupName: soup, store: store)
        var outcomes = try await recovery.recover(&batch)
        try await recordCreateIntents(&batch, decided: outcomes, plan: plan, soup: soup)
        var versions: [Int64: SyncUpConflictChecker.ServerVersion] = [:]
        if !plan.isOverwrite {
            let checker = SyncUpConflictChecker(org: org, modificationDateFieldName: plan.modificationDateFieldName)
            versions = try await window.run(aheadOfQueue: true) { [batch] in
                try await checker.serverVersions(of: batch)
            }
        }
        var toSend: [SyncUpRecord] = []
        for record in batch where outcomes[record.entryID] == nil {
            if let decided = SyncUpConflictChecker.outcomeBeforeSending(record, server: versions[record.entryID]) {
                outcomes[record.entryID] = decided
            } else {
                toSend.append(record)
            }
        }
        if !toSend.isEmpty {
            let sending = Set(toSend.map(\.entryID))
            try await recordUpdateIntents(&batch, sending: sending, plan: plan, soup: soup)
            toSend = batch.filter { sending.contains($0.entryID) }
        }
        return PreparedBatch(batch: batch, outcomes: outcomes, toSend: toSend)
    }

    /// Sends `toSend` with the target's sender; the outcome of each record sent.
    private func send(
        _ toSend: [SyncUpRecord],
        kind: SyncUpTargetKind,
        callSize: Int,
        plan: SyncUpRequestPlan,
        ingest: IngestSyncUpSender?
    ) async throws -> [Int64: SyncUpOutcome] {
        guard !toSend.isEmpty else { return [:] }
        switch kind {
        case .collection, .batch:
            if let ingest {
                return try await ingest.send(toSend)
            }
            let sender: any GroupedSyncUpSender.Type =
                kind == .collection ? CollectionSyncUpSender.self : BatchSyncUpSender.self
            return try await sender.init(org: org, plan: plan, callSize: callSize, window: window, lockRetry: lockRetry)
                .send(toSend)
        case .single:
            return try await SingleSyncUpSender(org: org, plan: plan, window: window, lockRetry: lockRetry).send(toSend)
        case .parentChildren, .custom, .endpoint:
            // Trees run in ParentChildrenSyncUpRunner, endpoints in processEndpoint, custom
            // targets in processCustom.
            throw SyncEngineError.syncUpNotSupported("?", kind: kind.productTypeName ?? "custom")
        }
    }

    /// Reads back the modification dates of the records `sent` wrote and writes the batch's
    /// outcomes with the sync state in one transaction; nothing when `sent` is `nil`.
    private func finish(
        _ sent: inout SentBatch?,
        plan: SyncUpRequestPlan,
        progress: inout SyncUpProgress
    ) async throws {
        guard let (batch, outcomes) = sent.map({ ($0.records, $0.outcomes) }) else { return }
        sent = nil
        let written = batch.compactMap { record -> (type: String, id: String)? in
            guard let id = outcomes[record.entryID]?.serverID, let type = record.objectType else { return nil }
            return (type, id)
        }
        let readBack = SyncUpReadBack(org: org, modificationDateFieldName: plan.modificationDateFieldName)
        let dates = try await window.run(aheadOfQueue: true) { try await readBack.modificationDates(of: written) }
        let state = progress.batchWritten(batch, outcomes: outcomes)
        let writeBack = SyncUpWriteBack(
            soupName: state.soupName,
            idFieldName: plan.idFieldName,
            modificationDateFieldName: plan.modificationDateFieldName,
            patchesUnchangedEntries: true
        )
        try await store.write { [batch, outcomes] writer in
            try writeBack.apply(batch, outcomes: outcomes, serverDates: dates, writer: writer)
            _ = try writer.updateSyncState(state)
        }
        events?.yield(.batch(progress.batchProgress))
    }

    /// Writes a ``SyncUpCreateIntent`` on every record of `batch` about to be created (not upserted),
    /// in one transaction, before anything is sent; the records' `storedLastModified` follow the
    /// write, so write-back still tells the app's own edits apart. An entry the app edited since it
    /// was read gets the intent on its current version and keeps its old stamp (it stays dirty).
    private func recordCreateIntents(
        _ batch: inout [SyncUpRecord],
        decided: [Int64: SyncUpOutcome],
        plan: SyncUpRequestPlan,
        soup: String
    ) async throws {
        let now = registry.now
        var intents: [Int64: SyncUpCreateIntent] = [:]
        for record in batch where record.action == .create && decided[record.entryID] == nil {
            guard case .create(_, let fields) = plan.request(for: record) else { continue }
            let attempt = (SyncUpCreateIntent(in: record.fields)?.attempt ?? 0) + 1
            intents[record.entryID] = SyncUpCreateIntent(at: now, attempt: attempt, fields: fields)
        }
        try await writeIntents(intents, field: SyncUpCreateIntent.field, into: &batch, soup: soup)
    }

    /// Writes an update intent (``SyncUpUpdateIntent``) on every record of `batch` in `sending`
    /// about to be updated, in one transaction, before anything is sent; as for create intents,
    /// the records' `storedLastModified` follow the write unless the app edited them meanwhile.
    ///
    /// Under `OVERWRITE`, a record updated through the server id it already stores gets none:
    /// the intent only serves the `LEAVE_IF_CHANGED` check of a later run (telling our own lost
    /// write from someone else's), and `OVERWRITE` sends the update again whatever the server
    /// holds (updates are idempotent). Adopted creates (their server id not stored yet) still get
    /// theirs: create recovery reads it.
    private func recordUpdateIntents(
        _ batch: inout [SyncUpRecord],
        sending: Set<Int64>,
        plan: SyncUpRequestPlan,
        soup: String
    ) async throws {
        let now = registry.now
        var intents: [Int64: SyncUpCreateIntent] = [:]
        for record in batch where sending.contains(record.entryID) && record.action == .update {
            if plan.isOverwrite, record.serverID != nil, !record.unsavedMembers.contains(plan.idFieldName) {
                continue
            }
            guard case .update(_, _, let fields) = plan.request(for: record) else { continue }
            let attempt = (SyncUpUpdateIntent.intent(in: record.fields)?.attempt ?? 0) + 1
            intents[record.entryID] = SyncUpCreateIntent(at: now, attempt: attempt, fields: fields)
        }
        try await writeIntents(intents, field: SyncUpUpdateIntent.field, into: &batch, soup: soup)
    }

    /// Writes `intents` into their entries' `field` (``writeIntents(_:field:read:soup:store:)``)
    /// and into `batch`, whose `storedLastModified` follow the write where the app did not edit
    /// the entry meanwhile; nothing when there is no intent.
    private func writeIntents(
        _ intents: [Int64: SyncUpCreateIntent],
        field: String,
        into batch: inout [SyncUpRecord],
        soup: String
    ) async throws {
        guard !intents.isEmpty else { return }
        let read = Dictionary(uniqueKeysWithValues: batch.map { ($0.entryID, $0.storedLastModified) })
        let stamps = try await Self.writeIntents(intents, field: field, read: read, soup: soup, store: store)
        for index in batch.indices {
            let entryID = batch[index].entryID
            guard let intent = intents[entryID] else { continue }
            batch[index].fields[field] = intent.value
            if let stamp = stamps[entryID] { batch[index].storedLastModified = stamp }
        }
    }

    /// Writes each intent into its entry's `field`, in one transaction (one prepared statement run
    /// per entry: the stored documents are rewritten by SQLite, not parsed here); returns the new
    /// `_soupLastModifiedDate` of the entries the app had not edited since they were read (`read`),
    /// so write-back still tells the app's edits apart.
    static func writeIntents(
        _ intents: [Int64: SyncUpCreateIntent],
        field: String,
        read: [Int64: Int64],
        soup: String,
        store: SoupStore
    ) async throws -> [Int64: Int64] {
        try await store.write { writer -> [Int64: Int64] in
            let written = try writer.setMember(field, to: intents.mapValues(\.value), in: soup)
            var stamps: [Int64: Int64] = [:]
            for (entryID, previous) in written.previousLastModified where previous == read[entryID] {
                stamps[entryID] = written.lastModified
            }
            return stamps
        }
    }
}
