import Logging
import OrgClient
import SoupStore
import SyncConfig

/// Runs one sync down (sync-semantics §4, §5): claims the sync, fetches page by page, hands each
/// page to a ``SyncDownPageWriter`` (which writes it with the updated state, grouped and in long
/// transactions where that writes fewer bytes), and ends `DONE`, `FAILED` or `STOPPED`.
struct SyncDownRunner: Sendable {
    let store: SoupStore
    let org: any OrgClient
    let registry: SyncStateRegistry
    let logger: Logger
    let events: AsyncStream<SyncEvent>.Continuation?
    /// ``SyncEngineConfiguration/longTransactions``.
    var longTransactions = true
    /// ``SyncEngineConfiguration/scatteredIndexesSetAside``.
    var setAside = ScatteredIndexesSetAside()
    /// ``SyncEngineConfiguration/longTransactionCommitBytes``: a long transaction commits once its
    /// groups held this many bytes of pages.
    var bytesPerCommit = SyncEngineConfiguration.defaultLongTransactionCommitBytes

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
        localEntries: LocalEntries,
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
        var pages = SyncDownPageWriter(
            runner: self,
            syncName: definition.name,
            metadata: metadata,
            fetcher: fetcher,
            localEntries: localEntries,
            progress: progress
        )
        func fetchAndWrite() async {
            do {
                try await fetcher.fetch(since: baseline, org: org, store: store) { page in
                    if stop.isStopRequested {
                        stopped = true
                        return false
                    }
                    try await pages.add(page)
                    return true
                }
            } catch is CancellationError {
                stopped = true
            } catch {
                failure = SyncEngineError.wrapping(error, syncName: definition.name).message
            }
            // Pages fetched before a stop or a failed request are saved too.
            do {
                try await pages.flush()
            } catch {
                failure = failure ?? SyncEngineError.wrapping(error, syncName: definition.name).message
            }
        }
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
                            localEntries: localEntries
                        )
                    }
                    if isLoading {
                        bulkLoadSoup = soql.soupName
                        pages.isBulkLoading = true
                    }
                }
            } catch {
                failure = SyncEngineError.wrapping(error, syncName: definition.name).message
            }
            // Only the runner writes while a SOQL fetcher fetches (other fetchers write as they
            // walk, or read what this run wrote), so its pages can share long transactions
            // (committed every `bytesPerCommit` of pages; see ``SyncDownPageWriter``).
            if failure == nil, bulkLoadSoup == nil, longTransactions, fetcher is SOQLDownFetcher {
                do {
                    try await store.withLongTransaction(cacheBytes: Self.longTransactionCacheBytes) { open in
                        pages.transaction = open
                        defer { pages.transaction = nil }
                        await fetchAndWrite()
                    }
                } catch {
                    failure = failure ?? SyncEngineError.wrapping(error, syncName: definition.name).message
                }
            } else if failure == nil {
                await fetchAndWrite()
            }
        }
        progress = pages.progress
        if let soup = bulkLoadSoup {
            // Before the state is saved: a sync is never DONE with its soup unindexed.
            do {
                let merged = try await store.write { writer in try writer.finishBulkLoad(of: soup) }
                progress.recordCounts(inserted: -merged, unchanged: 0)
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
        summary.unchanged = progress.unchanged
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

    /// Pages of at least this many bytes (about 600 records of 10 fields) are grouped.
    static let groupablePageBytes = 256 * 1024
    /// A group is written once it holds this many bytes of pages (about 10,000 such records).
    static let groupBytes = 4 * 1024 * 1024
    /// The writer's page cache during a long transaction: enough for the scattered index pages of
    /// a soup of about a million records, within the 256 MB a sync down may use.
    static let longTransactionCacheBytes = 128 * 1024 * 1024
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
