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
        // Fetched pages not written yet (one transaction writes them all).
        var group: [DownPage] = []
        var groupBytes = 0
        // Into a soup that holds records: one transaction for many groups (see `withLongTransaction`),
        // committed every `bytesPerCommit` of pages.
        var transaction: LongTransaction?
        var uncommittedBytes = 0
        // Many new records into a soup that holds many: its scattered field indexes are set aside
        // and the fetched ids deferred for the rest of each long transaction, put back just before
        // it commits (`deferScatteredWrites`).
        var deferring: (soup: String, syncID: Int64)?
        var indexesSetAside = false
        // The progress as of the long transaction's last commit: a failed write rolls back to it.
        var committed = progress
        func writeGroup() async throws {
            guard !group.isEmpty else { return }
            let pages = group
            group = []
            groupBytes = 0
            // A run that may set the soup's indexes aside writes with the smaller cache from its
            // first group on: the heap a larger cache took once stays with the process (peak RSS).
            // What stays scattered then (the key's index, the record-syncs rows until each commit)
            // fits it; the index builds before each commit sort within it too.
            var smallCache = false
            if let transaction, progress.pages == 0, deferring == nil, let first = pages.first,
                let candidate = try await setAsideSoup(
                    totalSize: first.totalSize,
                    fetched: 0,
                    fetcher: fetcher,
                    transaction: transaction
                )
            {
                try await transaction.setCacheBytes(setAside.cacheBytes)
                smallCache = true
                // Mostly new records: the first group too goes in with the indexes set aside (it
                // alone wrote a third of the bytes of 100k new records into 900k, session 17).
                deferring = try await deferScatteredWrites(
                    before: first,
                    candidate: candidate,
                    fetcher: fetcher,
                    syncID: progress.state.id,
                    transaction: transaction
                )
            }
            let steps: [SyncDownProgress]
            do {
                steps = try await write(
                    pages,
                    progress: progress,
                    fetcher: fetcher,
                    localEntries: localEntries,
                    transaction: transaction,
                    setAside: deferring.map { indexesSetAside ? SetAside.keep($0.soup) : .start($0.soup) } ?? .none
                )
                if deferring != nil { indexesSetAside = true }
                if let transaction, let last = steps.last {
                    uncommittedBytes += pages.reduce(0) { $0 + $1.json.utf8.count }
                    // Updates of scattered stored records dirty a table page each, which a later group
                    // rarely dirties again: those gain nothing from a long transaction and its larger
                    // cache (measured: more bytes written), new records (index pages shared by every
                    // group) do. The first group decides.
                    let inserted = last.inserted - progress.inserted
                    let updated = (last.saved - progress.saved) - inserted
                    if progress.pages == 0, updated > inserted {
                        // (Its commit puts indexes set aside back; later writes are ordinary.)
                        try await transaction.end()
                        deferring = nil
                        indexesSetAside = false
                    } else if uncommittedBytes >= bytesPerCommit,
                        deferring == nil || !leavesShortTail(after: last, committed: committed)
                    {
                        try await transaction.commit()
                        logger.debug(
                            "Sync down commits its long transaction",
                            metadata: metadata.merging(["saved": "\(last.saved)"]) { $1 }
                        )
                        uncommittedBytes = 0
                        indexesSetAside = false
                    } else if deferring == nil, try await transaction.commitIfSpilling() {
                        // (With the field indexes set aside, a spill writes appended table pages, each
                        // once: a commit then would only rebuild the indexes sooner.)
                        uncommittedBytes = 0
                    }
                    if progress.pages == 0, deferring == nil, inserted >= updated,
                        let plan = try await deferScatteredWrites(
                            after: last,
                            fetcher: fetcher,
                            transaction: transaction
                        )
                    {
                        deferring = plan
                    } else if smallCache, deferring == nil {
                        try await transaction.setCacheBytes(Self.longTransactionCacheBytes)
                    }
                }
            } catch {
                // A long transaction's write (or commit) that failed rolled back everything since its last
                // commit, the state saved with those pages included: the run goes back to that commit.
                if transaction != nil { rollBack(to: committed) }
                throw error
            }
            if transaction?.holdsWrites != true { committed = steps.last ?? progress }
            for step in steps {
                progress = step
                events?.yield(
                    .page(
                        SyncPageProgress(
                            syncName: definition.name,
                            page: step.pages,
                            fetched: step.fetched,
                            saved: step.saved,
                            skipped: step.skipped,
                            totalSize: step.state.totalSize,
                            progress: step.state.progress
                        )
                    )
                )
            }
        }
        // With the soup's indexes set aside, each commit builds them again from the whole soup:
        // a rest of the query smaller than half of what the transaction holds goes into it too (a
        // commit before it would cost a rebuild for little work kept). When more records come than
        // the query's `totalSize` announced, the next group commits.
        func leavesShortTail(after last: SyncDownProgress, committed: SyncDownProgress) -> Bool {
            let rest = last.state.totalSize - last.fetched
            return rest >= 0 && rest < (last.fetched - committed.fetched) / 2
        }
        func rollBack(to last: SyncDownProgress) {
            indexesSetAside = false
            let lost = progress.saved - last.saved
            progress = last
            guard lost > 0 else { return }
            events?.yield(
                .warning(
                    syncName: definition.name,
                    message: "a write failed, so the \(lost) record(s) saved since the last commit were rolled back "
                        + "with the sync's progress; the next run fetches them again"
                )
            )
        }
        func fetchAndWrite() async {
            do {
                try await fetcher.fetch(since: baseline, org: org, store: store) { page in
                    if stop.isStopRequested {
                        stopped = true
                        return false
                    }
                    // Into a soup that holds records, full-size pages are written a few at a time:
                    // each transaction writes the index pages it dirties once (scattered Ids and
                    // Names), so fewer transactions write far fewer bytes.
                    if bulkLoadSoup == nil, page.json.utf8.count >= Self.groupablePageBytes {
                        group.append(page)
                        groupBytes += page.json.utf8.count
                        if groupBytes >= Self.groupBytes { try await writeGroup() }
                        return true
                    }
                    try await writeGroup()
                    group = [page]
                    try await writeGroup()
                    return true
                }
            } catch is CancellationError {
                stopped = true
            } catch {
                failure = SyncEngineError.wrapping(error, syncName: definition.name).message
            }
            // Pages fetched before a stop or a failed request are saved too.
            do {
                try await writeGroup()
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
                    if isLoading { bulkLoadSoup = soql.soupName }
                }
            } catch {
                failure = SyncEngineError.wrapping(error, syncName: definition.name).message
            }
            // Only the runner writes while a SOQL fetcher fetches (other fetchers write as they
            // walk, or read what this run wrote), so its pages can share long transactions.
            if failure == nil, bulkLoadSoup == nil, longTransactions, fetcher is SOQLDownFetcher {
                do {
                    try await store.withLongTransaction(cacheBytes: Self.longTransactionCacheBytes) { open in
                        transaction = open
                        defer { transaction = nil }
                        await fetchAndWrite()
                    }
                } catch {
                    failure = failure ?? SyncEngineError.wrapping(error, syncName: definition.name).message
                }
            } else if failure == nil {
                await fetchAndWrite()
            }
        }
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

    /// Whether the rest of a long transaction's writes set aside the soup's scattered field
    /// indexes and defer the record-syncs rows (see ``deferScatteredWrites(after:fetcher:transaction:)``).
    enum SetAside: Sendable {
        case none
        /// Set the soup's indexes aside before this write.
        case start(String)
        /// The soup's indexes are already set aside in this transaction.
        case keep(String)

        var soup: String? {
            switch self {
            case .none: nil
            case .start(let soup), .keep(let soup): soup
            }
        }
    }

    /// Decides whether the run, from its first group on, writes with the soup's scattered field
    /// indexes set aside and the fetched ids deferred, put back before every commit (issue 33
    /// item 4): when the query brings at least `setAside.minimumRecords` records and at least
    /// 1/`setAside.soupShare` of the soup's size (`candidate`, ``setAsideSoup(totalSize:fetched:fetcher:transaction:)``),
    /// and fewer than half of the first page's records are stored already (they are mostly new),
    /// each such index is cheaper built once from a sort than updated record by record (its
    /// dirtied leaves exceed the page cache and are written out again and again), and the ids
    /// inserted in key order dirty each page of the record-syncs table once. Returns the soup and
    /// sync, having set the transaction's work before each commit, or `nil`. Without an index
    /// on the key to look the first page up, ``deferScatteredWrites(after:fetcher:transaction:)``
    /// decides after the first group.
    private func deferScatteredWrites(
        before first: DownPage,
        candidate: (soup: String, size: Int64),
        fetcher: any DownTargetFetcher,
        syncID: Int64,
        transaction: LongTransaction
    ) async throws -> (soup: String, syncID: Int64)? {
        let soup = candidate.soup
        let keyPath = fetcher.destination(of: first).idFieldName
        let json = first.json
        let known = try await transaction.write { writer in
            try writer.storedRecords(ofPage: json, in: soup, keyPath: keyPath)
        }
        guard let known, known.records > 0, known.stored * 2 < known.records else { return nil }
        return try await setAside(
            candidate,
            totalSize: first.totalSize,
            fetched: 0,
            syncID: syncID,
            transaction: transaction
        )
    }

    /// After the first group of a long transaction (mostly new records), the same decision for
    /// the rest of the run, when ``deferScatteredWrites(before:candidate:fetcher:syncID:transaction:)``
    /// did not take it.
    private func deferScatteredWrites(
        after last: SyncDownProgress,
        fetcher: any DownTargetFetcher,
        transaction: LongTransaction
    ) async throws -> (soup: String, syncID: Int64)? {
        guard
            let candidate = try await setAsideSoup(
                totalSize: last.state.totalSize,
                fetched: last.fetched,
                fetcher: fetcher,
                transaction: transaction
            )
        else { return nil }
        return try await setAside(
            candidate,
            totalSize: last.state.totalSize,
            fetched: last.fetched,
            syncID: last.state.id,
            transaction: transaction
        )
    }

    /// Sets the transaction's work before each commit (the indexes of `candidate`'s soup built
    /// again, the deferred ids moved). The writer already runs with the smaller cache
    /// (`setAside.cacheBytes`): the run set it before its first group, when the same thresholds
    /// passed with more of the query still to come.
    private func setAside(
        _ candidate: (soup: String, size: Int64),
        totalSize: Int,
        fetched: Int,
        syncID: Int64,
        transaction: LongTransaction
    ) async throws -> (soup: String, syncID: Int64) {
        let soup = candidate.soup
        transaction.setBeforeCommit { writer in
            try writer.restoreIndexes(of: soup)
            try writer.recordDeferredRecordSyncs(of: soup, syncID: syncID)
        }
        logger.debug(
            "Sync down sets the soup's scattered indexes aside until each commit",
            metadata: [
                "soup": "\(soup)", "records": "\(totalSize)", "fetched": "\(fetched)", "soup.size": "\(candidate.size)",
            ]
        )
        return (soup, syncID)
    }

    /// The soup whose scattered indexes a SOQL run of `totalSize` records, `fetched` of them
    /// written, may set aside (``ScatteredIndexesSetAside``), and its size; `nil` below the
    /// thresholds.
    private func setAsideSoup(
        totalSize: Int,
        fetched: Int,
        fetcher: any DownTargetFetcher,
        transaction: LongTransaction
    ) async throws -> (soup: String, size: Int64)? {
        guard let soql = fetcher as? SOQLDownFetcher, totalSize - fetched >= setAside.minimumRecords else {
            return nil
        }
        let soup = soql.soupName
        let size = try await transaction.write { writer in try writer.highestEntryID(of: soup) }
        guard Int64(totalSize) * Int64(setAside.soupShare) >= size else { return nil }
        return (soup, size)
    }

    /// Writes `pages` and the state describing them in one transaction; returns the progress
    /// after each page.
    private func write(
        _ pages: [DownPage],
        progress: SyncDownProgress,
        fetcher: any DownTargetFetcher,
        localEntries: LocalEntries,
        transaction: LongTransaction?,
        setAside mode: SetAside = .none
    ) async throws -> [SyncDownProgress] {
        let work = pages.map { page in
            let destination = fetcher.destination(of: page)
            let options = PageUpsertOptions(
                externalIDPath: destination.idFieldName,
                localEntries: localEntries,
                syncID: progress.state.id,
                modificationDateField: destination.modificationDateFieldName
            )
            return (page: page, soup: destination.soupName, options: options)
        }
        let body: @Sendable (SoupWriter) throws -> [SyncDownProgress] = { [progress] writer in
            var next = progress
            var steps: [SyncDownProgress] = []
            var state: StoredSyncState?
            if case .start(let soup) = mode, let first = work.first(where: { $0.soup == soup }) {
                try writer.suspendFieldIndexes(
                    of: soup,
                    keyPath: first.options.externalIDPath,
                    modificationDateField: first.options.modificationDateField
                )
            }
            for (page, soup, options) in work {
                // Also remembers the page's records as fetched by this sync (syncrun_record_syncs).
                let result = try writer.upsertFetchedPage(
                    page.json,
                    into: soup,
                    options: options,
                    deferringRecordSyncs: mode.soup == soup
                )
                let latest: Int64? =
                    if let computed = page.latestModification {
                        computed
                    } else if case .text(let text) = result.maxModificationDate {
                        SalesforceDateTime.milliseconds(from: text)
                    } else { nil }
                state = next.pageWritten(
                    totalSize: page.totalSize,
                    fetched: result.saved + result.skipped + result.unchanged,
                    saved: result.saved,
                    skipped: result.skipped,
                    latestSaved: latest
                )
                next.recordCounts(inserted: result.inserted, unchanged: result.unchanged)
                steps.append(next)
            }
            if let state { try writer.updateSyncState(state) }
            return steps
        }
        // No savepoint: an error rolls the long transaction back to its last commit, and the
        // caller its progress with it.
        if let transaction { return try await transaction.writeOrRollBack(body) }
        return try await store.write(body)
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
