import OrgClient
import SoupStore

/// The totals of one run: what the CLI prints last, and what the engine returns.
public struct SyncRunSummary: Sendable, Hashable {
    /// The sync's name.
    public var syncName: String
    /// The sync's id.
    public var syncID: Int64
    /// What ran.
    public var operation: SyncOperation
    /// How the run ended: `DONE`, `FAILED` or `STOPPED`.
    public var status: StoredSyncState.Status
    /// Records received from the org.
    public var fetched: Int
    /// Records written to the store.
    public var saved: Int
    /// Records not written because their stored copy has local changes (`LEAVE_IF_CHANGED`).
    public var skippedLocallyChanged: Int
    /// Records deleted as ghosts.
    public var deletedGhosts: Int
    /// Pages of records (or of ids, for ghost cleaning) processed.
    public var pages: Int
    /// HTTP requests sent to the org during the run, retries included.
    public var requests: Int
    /// Requests repeated after a retryable failure.
    public var retries: Int
    /// Wall time in milliseconds.
    public var durationMilliseconds: Int64
    /// The watermark after the run (ms since the epoch, -1 for none).
    public var maxTimeStamp: Int64
    /// The failure's message, when the run did not end `DONE`.
    public var error: String?
    /// Records created: on the org (sync up, upserts included) or in the store (sync down).
    public var created = 0
    /// Records updated: on the org (sync up) or in the store (sync down).
    public var updated = 0
    /// Sync down: records the server sent again exactly as stored (a tie-safe resync re-reads the
    /// records at its watermark): neither written nor counted as updated.
    public var unchanged = 0
    /// Sync up: records deleted on the org (or already gone), and local creations deleted unsent.
    public var deleted = 0
    /// Sync up: records left alone because the org changed them (`LEAVE_IF_CHANGED`).
    public var conflicts = 0
    /// Sync up: records the org refused.
    public var failed = 0
    /// Sync up: dirty records without an operation flag, left dirty.
    public var skipped = 0
    /// Sync up: the conflicted and failed records, in entry-id order.
    public var issues: [SyncUpIssue] = []
    /// The org's daily API usage after the run, from the last `Sforce-Limit-Info` header seen;
    /// `nil` when the org sent none.
    public var apiUsage: APIUsage?

    /// Whether the run ended `DONE` with every record written (no conflict, no failure).
    public var isClean: Bool { status == .done && conflicts == 0 && failed == 0 }

    /// Creates a summary.
    public init(
        syncName: String,
        syncID: Int64,
        operation: SyncOperation,
        status: StoredSyncState.Status,
        fetched: Int = 0,
        saved: Int = 0,
        skippedLocallyChanged: Int = 0,
        deletedGhosts: Int = 0,
        pages: Int = 0,
        requests: Int = 0,
        retries: Int = 0,
        durationMilliseconds: Int64 = 0,
        maxTimeStamp: Int64 = -1,
        error: String? = nil
    ) {
        self.syncName = syncName
        self.syncID = syncID
        self.operation = operation
        self.status = status
        self.fetched = fetched
        self.saved = saved
        self.skippedLocallyChanged = skippedLocallyChanged
        self.deletedGhosts = deletedGhosts
        self.pages = pages
        self.requests = requests
        self.retries = retries
        self.durationMilliseconds = durationMilliseconds
        self.maxTimeStamp = maxTimeStamp
        self.error = error
    }
}
