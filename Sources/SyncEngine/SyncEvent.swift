/// What a running sync reports, in order, through the engine's event stream; the CLI renders
/// them (a progress bar on a terminal, JSON lines otherwise).
public enum SyncEvent: Sendable, Hashable {
    /// A run began: the sync is claimed and `RUNNING`.
    case started(SyncRunStart)
    /// One page was written, with the sync state, in one transaction.
    case page(SyncPageProgress)
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
        syncName: String, syncID: Int64, operation: SyncOperation, targetKind: String, isIncremental: Bool,
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
