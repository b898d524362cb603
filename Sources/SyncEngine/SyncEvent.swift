/// What a running sync reports, in order, through the engine's event stream; the CLI renders
/// them (a progress bar on a terminal, JSON lines otherwise).
public enum SyncEvent: Sendable, Hashable {
    /// A run began: the sync is claimed and `RUNNING`.
    case started(SyncRunStart)
    /// One page was written, with the sync state, in one transaction.
    case page(SyncPageProgress)
    /// One sync up batch was sent and its outcomes written, with the sync state, in one transaction.
    case batch(SyncUpBatchProgress)
    /// Something the user should know that does not stop the run.
    case warning(syncName: String, message: String)
    /// A run ended (`DONE`, `FAILED` or `STOPPED`), with its totals.
    case finished(SyncRunSummary)
}

/// The operation a run performs.
public enum SyncOperation: String, Sendable, Hashable {
    /// A sync down (first run, or resync).
    case syncDown
    /// Ghost cleaning.
    case cleanGhosts
    /// A sync up: local changes sent to the org.
    case syncUp
}

/// The start of a run.
public struct SyncRunStart: Sendable, Hashable {
    /// The sync's name.
    public var syncName: String
    /// The sync's id (`_soupEntryId` in `syncs_soup`).
    public var syncID: Int64
    /// What runs.
    public var operation: SyncOperation
    /// The target's `type`.
    public var targetKind: String
    /// Whether only records modified since the watermark are fetched.
    public var isIncremental: Bool
    /// The watermark the run starts from (ms since the epoch; -1 for none).
    public var maxTimeStamp: Int64

    /// Creates a start event.
    public init(
        syncName: String,
        syncID: Int64,
        operation: SyncOperation,
        targetKind: String,
        isIncremental: Bool,
        maxTimeStamp: Int64
    ) {
        self.syncName = syncName
        self.syncID = syncID
        self.operation = operation
        self.targetKind = targetKind
        self.isIncremental = isIncremental
        self.maxTimeStamp = maxTimeStamp
    }
}

/// Progress after one page.
public struct SyncPageProgress: Sendable, Hashable {
    /// The sync's name.
    public var syncName: String
    /// Pages done so far (1 for the first).
    public var page: Int
    /// Records received so far (saved and skipped).
    public var fetched: Int
    /// Records saved so far.
    public var saved: Int
    /// Records skipped so far because they have local changes (`LEAVE_IF_CHANGED`).
    public var skipped: Int
    /// Records expected in all (`totalSize`), -1 when unknown.
    public var totalSize: Int
    /// `progress` as stored, 0…100.
    public var progress: Int

    /// Creates a progress event.
    public init(syncName: String, page: Int, fetched: Int, saved: Int, skipped: Int, totalSize: Int, progress: Int) {
        self.syncName = syncName
        self.page = page
        self.fetched = fetched
        self.saved = saved
        self.skipped = skipped
        self.totalSize = totalSize
        self.progress = progress
    }
}

/// Progress after one sync up batch.
public struct SyncUpBatchProgress: Sendable, Hashable {
    /// The sync's name.
    public var syncName: String
    /// Batches done so far (1 for the first).
    public var batch: Int
    /// Dirty records handled so far (sent, skipped, conflicted or failed).
    public var processed: Int
    /// Dirty records selected at the start (`totalSize`).
    public var totalSize: Int
    /// Records created, updated and deleted so far.
    public var created: Int, updated: Int, deleted: Int
    /// Records conflicted and failed so far.
    public var conflicts: Int, failed: Int

    /// Creates a progress event.
    public init(
        syncName: String,
        batch: Int,
        processed: Int,
        totalSize: Int,
        created: Int,
        updated: Int,
        deleted: Int,
        conflicts: Int,
        failed: Int
    ) {
        self.syncName = syncName
        self.batch = batch
        self.processed = processed
        self.totalSize = totalSize
        self.created = created
        self.updated = updated
        self.deleted = deleted
        self.conflicts = conflicts
        self.failed = failed
    }
}
