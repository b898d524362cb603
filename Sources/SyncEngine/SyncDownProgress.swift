import SoupStore

/// The sync state of one sync down run and its transitions (sync-semantics §3.3, §4.1, §4.7):
/// a plain value whose mutating methods return the state document to save next. The runner
/// saves each one in the same transaction as the data it describes.
///
/// The watermark (`maxTimeStamp`) only counts records actually saved (§11 item 17). It is
/// saved after every page when the target is sorted by modification date, else once at the end.
struct SyncDownProgress: Sendable {
    /// The state as it should be stored now.
    private(set) var state: StoredSyncState
    /// Whether the watermark may be saved after every page.
    let isSorted: Bool
    /// The watermark the run started from (-1 for a full run).
    let baseline: Int64
    private(set) var fetched = 0
    private(set) var saved = 0
    private(set) var skipped = 0
    private(set) var pages = 0
    /// Records received exactly as stored (not written, not in `saved`).
    private(set) var unchanged = 0
    /// Records saved that were new to the store (the rest of `saved` replaced stored records).
    private(set) var inserted = 0
    /// The latest modification date among records saved by this run, ms; -1 for none.
    private(set) var runMaxTimeStamp: Int64 = -1

    /// Prepares a run of `state` from the watermark `baseline`.
    init(state: StoredSyncState, isSorted: Bool, baseline: Int64) {
        self.state = state
        self.isSorted = isSorted
        self.baseline = baseline
    }

    /// The run starts (`StoredSyncState.start(now:)`).
    mutating func start(now: Int64) -> StoredSyncState {
        state.start(now: now)
        return state
    }

    /// A page was written: `fetched` records received, `saved` written, `skipped` left alone,
    /// the latest modification among the saved ones (`nil` when none or unparsable).
    mutating func pageWritten(
        totalSize: Int,
        fetched pageFetched: Int,
        saved pageSaved: Int,
        skipped pageSkipped: Int,
        latestSaved: Int64?
    ) -> StoredSyncState {
        pages += 1
        fetched += pageFetched
        saved += pageSaved
        skipped += pageSkipped
        if let latestSaved { runMaxTimeStamp = max(runMaxTimeStamp, latestSaved) }
        state.totalSize = totalSize
        if totalSize > 0, fetched < totalSize { state.progress = fetched * 100 / totalSize }
        if isSorted { state.maxTimeStamp = newWatermark }
        return state
    }

    /// Of the records of the last page, `inserted` were new to the store and `unchanged` were
    /// received exactly as stored.
    mutating func recordCounts(inserted: Int, unchanged: Int) {
        self.inserted += inserted
        self.unchanged += unchanged
    }

    /// The watermark to store: the larger of the baseline and what this run saved.
    var newWatermark: Int64 { max(baseline, runMaxTimeStamp) }

    /// Every page was written: `DONE`, progress 100, watermark saved.
    mutating func finish(now: Int64) -> StoredSyncState {
        state.status = .done
        state.progress = 100
        state.maxTimeStamp = newWatermark
        state.endTime = now
        if state.totalSize < 0 { state.totalSize = fetched }
        return state
    }

    /// The run failed: `FAILED` with `message`; progress unchanged; the watermark stays what the
    /// saved pages justify (only sorted targets advanced it).
    mutating func fail(_ message: String, now: Int64) -> StoredSyncState {
        state.status = .failed
        state.error = message
        state.endTime = now
        return state
    }

    /// A stop was requested between pages: `STOPPED`; progress unchanged.
    mutating func stop(now: Int64) -> StoredSyncState {
        state.status = .stopped
        state.endTime = now
        return state
    }
}
