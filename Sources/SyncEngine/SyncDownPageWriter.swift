import Logging
import OrgClient
import SOQL
import SoupStore
import SyncConfig

/// The fetched pages of one sync down on their way into the store, for ``SyncDownRunner``.
///
/// Pages are written with the sync's state in one transaction per group
/// (``SyncDownRunner/groupBytes`` of full-size pages; a bulk load, or a smaller page, alone). In a
/// long transaction (``transaction``, a SOQL sync into a soup that holds records), the groups
/// share it and it commits every ``SyncDownRunner/bytesPerCommit``; when many new records come into a soup that
/// holds many, the soup's scattered field indexes are set aside from the first group and put back
/// before each commit (docs/sync-engine.md). A write that fails inside a long transaction rolls
/// back everything since its last commit: ``progress`` goes back to that commit with it, and a
/// warning says how many saved records were lost. Each page written is reported as a `.page` event.
struct SyncDownPageWriter {
    /// The run: its store, logger, events, ``SyncDownRunner/setAside`` thresholds and
    /// ``SyncDownRunner/bytesPerCommit``.
    let runner: SyncDownRunner
    let syncName: String
    /// The run's log metadata (sync name and id).
    let metadata: Logger.Metadata
    let fetcher: any DownTargetFetcher
    let localEntries: LocalEntries

    /// The progress as of the last page written, or of the last commit after a failed write.
    private(set) var progress: SyncDownProgress
    /// Whether the run bulk loads an empty soup (pages are written one at a time, never grouped).
    var isBulkLoading = false
    /// The run's long transaction while it is open (set by the runner around the fetch).
    var transaction: LongTransaction?

    // Fetched pages not written yet (one transaction writes them all).
    private var group: [DownPage] = []
    private var groupBytes = 0
    // Bytes of pages written in the long transaction since its last commit.
    private var uncommittedBytes = 0
    // Many new records into a soup that holds many: its scattered field indexes are set aside
    // and the fetched ids deferred for the rest of each long transaction, put back just before
    // it commits (`deferScatteredWrites`).
    private var deferring: (soup: String, syncID: Int64)?
    private var indexesSetAside = false
    // The progress as of the long transaction's last commit: a failed write rolls back to it.
    private var committed: SyncDownProgress

    init(
        runner: SyncDownRunner,
        syncName: String,
        metadata: Logger.Metadata,
        fetcher: any DownTargetFetcher,
        localEntries: LocalEntries,
        progress: SyncDownProgress
    ) {
        self.runner = runner
        self.syncName = syncName
        self.metadata = metadata
        self.fetcher = fetcher
        self.localEntries = localEntries
        self.progress = progress
        committed = progress
    }

    /// Takes one fetched page: into a soup that holds records, full-size pages are written a few
    /// at a time (each transaction writes the index pages it dirties once, scattered Ids and
    /// Names, so fewer transactions write far fewer bytes); a bulk load's pages and smaller
    /// pages are written at once, after the group before them.
    mutating func add(_ page: DownPage) async throws {
        if !isBulkLoading, page.json.utf8.count >= SyncDownRunner.groupablePageBytes {
            group.append(page)
            groupBytes += page.json.utf8.count
            if groupBytes >= SyncDownRunner.groupBytes { try await flush() }
            return
        }
        try await flush()
        group = [page]
        try await flush()
    }

    /// Writes the pages taken and not written yet, if any.
    mutating func flush() async throws {
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
            let candidate = try await setAsideSoup(totalSize: first.totalSize, fetched: 0, transaction: transaction)
        {
            try await transaction.setCacheBytes(runner.setAside.cacheBytes)
            smallCache = true
            // Mostly new records: the first group too goes in with the indexes set aside (it
            // alone wrote a third of the bytes of 100k new records into 900k, session 17).
            deferring = try await deferScatteredWrites(
                before: first,
                candidate: candidate,
                syncID: progress.state.id,
                transaction: transaction
            )
        }
        let steps: [SyncDownProgress]
        do {
            steps = try await write(
                pages,
                transaction: transaction,
                setAside: deferring.map { indexesSetAside ? SetAside.keep($0.soup) : .start($0.soup) } ?? .none
            )
            if deferring != nil { indexesSetAside = true }
            if let transaction, let last = steps.last {
                try await afterGroup(of: pages, last: last, smallCache: smallCache, transaction: transaction)
            }
        } catch {
            // A long transaction's write (or commit) that failed rolled back everything since its last
            // commit, the state saved with those pages included: the run goes back to that commit.
            if transaction != nil { rollBack() }
            throw error
        }
        if transaction?.holdsWrites != true { committed = steps.last ?? progress }
        for step in steps {
            progress = step
            runner.events?.yield(
                .page(
                    SyncPageProgress(
                        syncName: syncName,
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

    /// After a group written in the long transaction (`last`: the progress after it, ``progress``
    /// still the one before it): ends the transaction when the first group mostly updated
    /// stored records, commits it once it holds ``SyncDownRunner/bytesPerCommit`` (or SQLite spills its cache),
    /// and decides after the first group whether the rest sets the scattered indexes aside.
    private mutating func afterGroup(
        of pages: [DownPage],
        last: SyncDownProgress,
        smallCache: Bool,
        transaction: LongTransaction
    ) async throws {
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
        } else if uncommittedBytes >= runner.bytesPerCommit, deferring == nil || !leavesShortTail(after: last) {
            try await transaction.commit()
            runner.logger.debug(
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
            let plan = try await deferScatteredWrites(after: last, transaction: transaction)
        {
            deferring = plan
        } else if smallCache, deferring == nil {
            try await transaction.setCacheBytes(SyncDownRunner.longTransactionCacheBytes)
        }
    }

    /// With the soup's indexes set aside, each commit builds them again from the whole soup:
    /// a rest of the query smaller than half of what the transaction holds goes into it too (a
    /// commit before it would cost a rebuild for little work kept). When more records come than
    /// the query's `totalSize` announced, the next group commits.
    private func leavesShortTail(after last: SyncDownProgress) -> Bool {
        let rest = last.state.totalSize - last.fetched
        return rest >= 0 && rest < (last.fetched - committed.fetched) / 2
    }

    /// Goes back to the progress of the long transaction's last commit, saying how many saved
    /// records that loses.
    private mutating func rollBack() {
        indexesSetAside = false
        let lost = progress.saved - committed.saved
        progress = committed
        guard lost > 0 else { return }
        runner.events?.yield(
            .warning(
                syncName: syncName,
                message: "a write failed, so the \(lost) record(s) saved since the last commit were rolled back "
                    + "with the sync's progress; the next run fetches them again"
            )
        )
    }

    /// Whether the rest of a long transaction's writes set aside the soup's scattered field
    /// indexes and defer the record-syncs rows (see ``deferScatteredWrites(after:transaction:)``).
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
    /// 1/`setAside.soupShare` of the soup's size (`candidate`, ``setAsideSoup(totalSize:fetched:transaction:)``),
    /// and fewer than half of the first page's records are stored already (they are mostly new),
    /// each such index is cheaper built once from a sort than updated record by record (its
    /// dirtied leaves exceed the page cache and are written out again and again), and the ids
    /// inserted in key order dirty each page of the record-syncs table once. Returns the soup and
    /// sync, having set the transaction's work before each commit, or `nil`. Without an index
    /// on the key to look the first page up, ``deferScatteredWrites(after:transaction:)``
    /// decides after the first group.
    private func deferScatteredWrites(
        before first: DownPage,
        candidate: (soup: String, size: Int64),
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
        return setAside(candidate, totalSize: first.totalSize, fetched: 0, syncID: syncID, transaction: transaction)
    }

    /// After the first group of a long transaction (mostly new records), the same decision for
    /// the rest of the run, when ``deferScatteredWrites(before:candidate:syncID:transaction:)``
    /// did not take it.
    private func deferScatteredWrites(
        after last: SyncDownProgress,
        transaction: LongTransaction
    ) async throws -> (soup: String, syncID: Int64)? {
        guard
            let candidate = try await setAsideSoup(
                totalSize: last.state.totalSize,
                fetched: last.fetched,
                transaction: transaction
            )
        else { return nil }
        return setAside(
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
    ) -> (soup: String, syncID: Int64) {
        let soup = candidate.soup
        transaction.setBeforeCommit { writer in
            try writer.restoreIndexes(of: soup)
            try writer.recordDeferredRecordSyncs(of: soup, syncID: syncID)
        }
        runner.logger.debug(
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
        transaction: LongTransaction
    ) async throws -> (soup: String, size: Int64)? {
        guard let soql = fetcher as? SOQLDownFetcher, totalSize - fetched >= runner.setAside.minimumRecords else {
            return nil
        }
        let soup = soql.soupName
        let size = try await transaction.write { writer in try writer.highestEntryID(of: soup) }
        guard Int64(totalSize) * Int64(runner.setAside.soupShare) >= size else { return nil }
        return (soup, size)
    }

    /// Writes `pages` and the state describing them in one transaction; returns the progress
    /// after each page.
    private func write(
        _ pages: [DownPage],
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
        return try await runner.store.write(body)
    }
}
