import Logging
import OrgClient
import SOQL
import SoupStore
import SyncConfig

/// Runs one sync down (sync-semantics §4, §5): claims the sync, fetches page by page, writes each
/// page with the updated state in one transaction, and ends `DONE`, `FAILED` or `STOPPED`.
struct SyncDownRunner: Sendable {
    let store: SoupStore
    let org: any OrgClient
    let registry: SyncStateRegistry
    let logger: Logger
    let events: AsyncStream<SyncEvent>.Continuation?

    /// Runs `definition` (its state is `state`) with `fetcher`.
    ///
    /// - Parameter full: ignore the watermark and fetch everything (`--full`).
    /// - Returns: The totals; `status` says how the run ended (a failure is reported here and in
    ///   the state's `error`, not thrown).
    /// - Throws: `SyncEngineError` only when the run could not start (`.alreadyRunning`) or its
    ///   final state could not be saved.
    func run(
        _ definition: SyncDefinition,
        state: StoredSyncState,
        fetcher: any DownTargetFetcher,
        full: Bool,
        mergeMode: StoreMergeMode,
        stop: StopSignal
    ) async throws -> SyncRunSummary {
        let startedAt = registry.now
        let before = org.statistics()
        let baseline = full || !fetcher.isIncremental ? -1 : max(state.maxTimeStamp, -1)
        var progress = SyncDownProgress(state: state, isSorted: fetcher.isSortedByModification, baseline: baseline)
        let (claimed, lock) = try registry.claim(id: state.id, name: definition.name, operation: .syncDown) { current in
            progress = SyncDownProgress(state: current, isSorted: fetcher.isSortedByModification, baseline: baseline)
            return progress.start(now: startedAt)
        }
        let metadata: Logger.Metadata = ["sync.name": "\(definition.name)", "sync.id": "\(claimed.id)"]
        logger.debug("Sync down started", metadata: metadata)
        events?.yield(
            .started(
                SyncRunStart(
                    syncName: definition.name,
                    syncID: claimed.id,
                    operation: .syncDown,
                    targetKind: definition.targetKindName,
                    isIncremental: baseline > 0,
                    maxTimeStamp: baseline
                )
            )
        )

        var stopped = stop.isStopRequested
        var failure: String?
        // Into an empty soup, the pages go in without its SQL indexes, built once at the end
        // (docs/store.md, bulk load); a load a killed run left on the soup is finished first.
        var bulkLoadSoup: String?
        if !stopped {
            do {
                if let soql = fetcher as? SOQLDownFetcher {
                    let syncID = claimed.id
                    let isLoading = try await store.write { writer in
                        try writer.finishBulkLoad(of: soql.soupName)
                        return try writer.beginBulkLoad(
                            into: soql.soupName,
                            syncID: syncID,
                            keyPath: soql.idFieldName,
                            mergeMode: mergeMode
                        )
                    }
                    if isLoading { bulkLoadSoup = soql.soupName }
                }
                try await fetcher.fetch(since: baseline, org: org, store: store) { page in
                    if stop.isStopRequested {
                        stopped = true
                        return false
                    }
                    progress = try await write(page, progress: progress, fetcher: fetcher, mergeMode: mergeMode)
                    events?.yield(
                        .page(
                            SyncPageProgress(
                                syncName: definition.name,
                                page: progress.pages,
                                fetched: progress.fetched,
                                saved: progress.saved,
                                skipped: progress.skipped,
                                totalSize: progress.state.totalSize,
                                progress: progress.state.progress
                            )
                        )
                    )
                    return true
                }
            } catch is CancellationError {
                stopped = true
            } catch {
                failure = SyncEngineError.wrapping(error, syncName: definition.name).message
            }
        }
        if let soup = bulkLoadSoup {
            // Before the state is saved: a sync is never DONE with its soup unindexed.
            do {
                let merged = try await store.write { writer in try writer.finishBulkLoad(of: soup) }
                progress.recordInserted(-merged)
            } catch {
                failure = failure ?? SyncEngineError.wrapping(error, syncName: definition.name).message
            }
        }
        let endedAt = registry.now
        let final: StoredSyncState
        if let failure {
            final = progress.fail(failure, now: endedAt)
            logger.debug("Sync down failed", metadata: metadata)
        } else if stopped {
            final = progress.stop(now: endedAt)
            logger.debug("Sync down stopped", metadata: metadata)
        } else {
            final = progress.finish(now: endedAt)
            logger.debug("Sync down done", metadata: metadata)
        }
        do {
            try await registry.release(lock, saving: final)
        } catch {
            throw SyncEngineError.wrapping(error, syncName: definition.name)
        }
        let after = org.statistics()
        var summary = SyncRunSummary(
            syncName: definition.name,
            syncID: claimed.id,
            operation: .syncDown,
            status: final.status,
            fetched: progress.fetched,
            saved: progress.saved,
            skippedLocallyChanged: progress.skipped,
            pages: progress.pages,
            requests: after.requests - before.requests,
            retries: after.retries - before.retries,
            durationMilliseconds: endedAt - startedAt,
            maxTimeStamp: final.maxTimeStamp,
            error: final.status == .done ? nil : (failure ?? SyncEngineError.stopped(definition.name).message)
        )
        summary.apiUsage = after.apiUsage
        summary.created = progress.inserted
        summary.updated = progress.saved - progress.inserted
        if progress.skipped > 0 {
            events?.yield(
                .warning(
                    syncName: definition.name,
                    message: "\(progress.skipped) record(s) with local changes were left as they are "
                        + "(LEAVE_IF_CHANGED); sync them up, or run with OVERWRITE to take the server's version"
                )
            )
        }
        events?.yield(.finished(summary))
        return summary
    }

    /// Writes one page and the state describing it in one transaction; returns the new progress.
    private func write(
        _ page: DownPage,
        progress: SyncDownProgress,
        fetcher: any DownTargetFetcher,
        mergeMode: StoreMergeMode
    ) async throws -> SyncDownProgress {
        let destination = fetcher.destination(of: page)
        let soup = destination.soupName
        let options = PageUpsertOptions(
            externalIDPath: destination.idFieldName,
            mergeMode: mergeMode,
            syncID: progress.state.id,
            modificationDateField: destination.modificationDateFieldName,
            recordsFetchedIDs: true
        )
        return try await store.write { [progress] writer in
            // Also remembers the page's records as fetched by this sync (syncrun_record_syncs).
            let result = try writer.upsertPage(page.json, into: soup, options: options)
            var next = progress
            let latest: Int64? =
                if let computed = page.latestModification {
                    computed
                } else if case .text(let text) = result.maxModificationDate {
                    SalesforceDateTime.milliseconds(from: text)
                } else { nil }
            let state = next.pageWritten(
                totalSize: page.totalSize,
                fetched: result.saved + result.skipped,
                saved: result.saved,
                skipped: result.skipped,
                latestSaved: latest
            )
            next.recordInserted(result.inserted)
            try writer.updateSyncState(state)
            return next
        }
    }
}

extension SyncDefinition {
    /// The target's `type` (`soql`, `sosl`…), for events.
    var targetKindName: String {
        switch target {
        case .down(let target): target.kind.rawValue
        case .up: "syncUp"
        }
    }
}
