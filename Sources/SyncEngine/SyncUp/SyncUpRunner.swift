import Foundation
import Logging
import OrgClient
import SoupStore
import SyncConfig

/// Runs one sync up (sync-semantics §7, §8.1–§8.3): claims the sync, selects the dirty records
/// in numeric entry-id order, checks conflicts in batches under `LEAVE_IF_CHANGED`, sends each
/// batch with the target's sender, reads back the written records' modification dates, and
/// writes the batch's outcomes with the sync state in one transaction.
struct SyncUpRunner: Sendable {
    let store: SoupStore
    let org: any OrgClient
    let registry: SyncStateRegistry
    let logger: Logger
    let events: AsyncStream<SyncEvent>.Continuation?

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
                    syncName: name, syncID: state.id, operation: .syncUp, targetKind: target.kind.productTypeName ?? "custom",
                    isIncremental: false, maxTimeStamp: state.maxTimeStamp)))

        var failure: String?
        var stopped = false
        do {
            let records = try await selectRecords(definition, target: target)
            let selected = progress.selected(records.count)
            _ = try await store.write { try $0.updateSyncState(selected) }
            var versions: [Int64: SyncUpConflictChecker.ServerVersion] = [:]
            if !plan.isOverwrite {
                versions = try await SyncUpConflictChecker(
                    org: org,
                    modificationDateFieldName: plan.modificationDateFieldName
                ).serverVersions(of: records)
            }
            let batchSize = target.kind == .collection ? target.maxBatchSize : 200
            for start in stride(from: 0, to: records.count, by: batchSize) {
                if stop.isStopRequested || Task.isCancelled {
                    stopped = true
                    break
                }
                let batch = Array(records[start..<min(start + batchSize, records.count)])
                try await process(
                    batch,
                    kind: target.kind,
                    callSize: target.maxBatchSize,
                    plan: plan,
                    versions: versions,
                    progress: &progress
                )
            }
        } catch is CancellationError {
            stopped = true
        } catch {
            failure = SyncEngineError.wrapping(error, syncName: name).message
        }

        let endedAt = registry.now
        let final: StoredSyncState
        if let failure {
            final = progress.fail(failure, now: endedAt)
        } else if stopped {
            final = progress.stop(SyncEngineError.stopped(name).message, now: endedAt)
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

    /// Decides, sends, reads back and writes one batch.
    private func process(
        _ batch: [SyncUpRecord],
        kind: SyncUpTargetKind,
        callSize: Int,
        plan: SyncUpRequestPlan,
        versions: [Int64: SyncUpConflictChecker.ServerVersion],
        progress: inout SyncUpProgress
    ) async throws {
        var outcomes: [Int64: SyncUpOutcome] = [:]
        var toSend: [SyncUpRecord] = []
        for record in batch {
            switch record.action {
            case .removeLocally: outcomes[record.entryID] = .removedLocally
            case .none: outcomes[record.entryID] = .skipped
            case .create, .update, .delete:
                if let decided = SyncUpConflictChecker.decide(record, server: versions[record.entryID]) {
                    outcomes[record.entryID] = decided
                } else {
                    toSend.append(record)
                }
            }
        }
        if !toSend.isEmpty {
            let sent: [Int64: SyncUpOutcome]
            switch kind {
            case .collection: sent = try await CollectionSyncUpSender(org: org, plan: plan).send(toSend)
            case .batch: sent = try await BatchSyncUpSender(org: org, plan: plan, callSize: callSize).send(toSend)
            case .single: sent = try await SingleSyncUpSender(org: org, plan: plan).send(toSend)
            case .parentChildren, .custom:
                // Refused by SyncUpTargetCheck before the run starts.
                throw SyncEngineError.syncUpNotSupported("?", kind: kind.productTypeName ?? "custom")
            }
            outcomes.merge(sent) { $1 }
        }
        let written = batch.compactMap { record -> (type: String, id: String)? in
            guard let id = outcomes[record.entryID]?.serverID, let type = record.objectType else { return nil }
            return (type, id)
        }
        let dates = try await SyncUpReadBack(org: org, modificationDateFieldName: plan.modificationDateFieldName)
            .modificationDates(of: written)
        let state = progress.batchWritten(batch, outcomes: outcomes)
        let writeBack = SyncUpWriteBack(
            soupName: state.soupName,
            idFieldName: plan.idFieldName,
            modificationDateFieldName: plan.modificationDateFieldName
        )
        try await store.write { [outcomes] writer in
            try writeBack.apply(batch, outcomes: outcomes, serverDates: dates, writer: writer)
            _ = try writer.updateSyncState(state)
        }
        events?.yield(.batch(progress.batchProgress))
    }

    /// Every dirty record of the soup, in numeric entry-id order (§7.1, §11 item 22).
    private func selectRecords(_ definition: SyncDefinition, target: SyncUpTarget) async throws -> [SyncUpRecord] {
        let soup = definition.soupName
        let entries = try await store.read { reader in
            var entries: [SoupEntry] = []
            var after: Int64 = 0
            while true {
                let page = try reader.dirtyEntries(in: soup, afterEntryID: after, limit: 2000)
                entries += page
                guard page.count == 2000, let last = page.last else { return entries }
                after = last.entryID
            }
        }
        return try entries.map {
            try SyncUpRecord(
                entry: $0,
                idFieldName: target.idFieldName,
                modificationDateFieldName: target.modificationDateFieldName,
                dirtyWithoutOperationIsUpdate: target.kind != .single
            )
        }
    }

    /// Takes the sync's lock (operation `syncUp`) and saves the `RUNNING` state in one
    /// `BEGIN IMMEDIATE` transaction.
    private func claim(
        state: StoredSyncState,
        name: String,
        start: (StoredSyncState) -> StoredSyncState
    ) throws -> (StoredSyncState, SyncLock) {
        let configuration = registry.policy.configuration
        let lock = SyncLock(
            syncID: state.id,
            processID: configuration.processID,
            hostName: configuration.hostName,
            token: UUID().uuidString,
            operation: "syncUp",
            claimedAt: configuration.now()
        )
        do {
            return try store.writeImmediately { writer in
                guard let current = try writer.reader.syncState(id: state.id) else {
                    throw SyncEngineError.unknownSync(id: state.id)
                }
                if let held = try writer.reader.syncLock(syncID: state.id), registry.policy.isAlive(held) {
                    throw SyncEngineError.alreadyRunning(name, lock: held)
                }
                try writer.acquireSyncLock(lock)
                return (try writer.updateSyncState(start(current)), lock)
            }
        } catch {
            throw SyncEngineError.wrapping(error, syncName: name)
        }
    }
}
