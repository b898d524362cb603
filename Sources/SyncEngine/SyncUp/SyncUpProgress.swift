import OrgClient
import SoupStore

/// The sync state of one sync up run and its transitions (sync-semantics §3.3, §7.2, §11 item 6):
/// a plain value whose mutating methods return the state document to save next.
///
/// A run with failed or conflicting records still ends `DONE`; the counts are stored as the extra
/// keys `failedCount` and `conflictCount`, which the SDK ignores.
struct SyncUpProgress: Sendable {
    private(set) var state: StoredSyncState
    private(set) var summary: SyncUpSummary
    private var processed = 0
    private var batches = 0

    init(state: StoredSyncState, syncName: String) {
        self.state = state
        self.summary = SyncUpSummary(syncName: syncName, syncID: state.id, status: .running)
    }

    /// The run starts (`StoredSyncState.start(now:)`).
    mutating func start(now: Int64) -> StoredSyncState {
        state.start(now: now)
        return state
    }

    /// The dirty records were selected.
    mutating func selected(_ count: Int) -> StoredSyncState {
        summary.selected = count
        state.totalSize = count
        return state
    }

    /// A batch was written back; returns the state to save with it.
    mutating func batchWritten(_ records: [SyncUpRecord], outcomes: [Int64: SyncUpOutcome]) -> StoredSyncState {
        count(records, outcomes: outcomes)
        return batchWritten()
    }

    /// Counts the outcomes of `records` (one soup's records: outcomes are keyed by entry id) without
    /// ending the batch; a record without an outcome counts as skipped.
    mutating func count(_ records: [SyncUpRecord], outcomes: [Int64: SyncUpOutcome]) {
        for record in records {
            switch outcomes[record.entryID] {
            case .created: summary.created += 1
            case .updated: summary.updated += 1
            case .deleted, .removedLocally: summary.deleted += 1
            case .conflict(let conflict):
                summary.conflicts += 1
                summary.issues.append(
                    SyncUpIssue(entryID: record.entryID, recordID: record.storedID, kind: .conflict(conflict))
                )
            case .failed(let errors):
                summary.failed += 1
                summary.issues.append(
                    SyncUpIssue(
                        entryID: record.entryID,
                        recordID: record.storedID,
                        kind: .failed(errorCodes: errors.map(\.errorCode))
                    )
                )
            case .skipped, nil: summary.skipped += 1
            }
        }
        processed += records.count
    }

    /// Ends a batch whose records were counted; returns the state to save with it.
    mutating func batchWritten() -> StoredSyncState {
        batches += 1
        let progress = state.totalSize > 0 ? processed * 100 / state.totalSize : 100
        state.progress = min(progress, 99)
        state.extraJSON = counts
        return state
    }

    /// Progress after the last batch written, for the event stream.
    var batchProgress: SyncUpBatchProgress {
        SyncUpBatchProgress(
            syncName: summary.syncName,
            batch: batches,
            processed: processed,
            totalSize: summary.selected,
            created: summary.created,
            updated: summary.updated,
            deleted: summary.deleted,
            conflicts: summary.conflicts,
            failed: summary.failed
        )
    }

    /// Every record was processed: `DONE`, progress 100.
    mutating func finish(now: Int64) -> StoredSyncState {
        state.progress = 100
        return end(.done, error: nil, now: now)
    }

    /// The run failed: `FAILED` with `message`; progress unchanged.
    mutating func fail(_ message: String, now: Int64) -> StoredSyncState {
        state.error = message
        return end(.failed, error: message, now: now)
    }

    /// A stop was requested between batches.
    mutating func stop(_ message: String, now: Int64) -> StoredSyncState {
        end(.stopped, error: message, now: now)
    }

    /// Ends the run as `status`: the summary's status (and `error`, when given), the state's status,
    /// end time and counts.
    private mutating func end(_ status: StoredSyncState.Status, error: String?, now: Int64) -> StoredSyncState {
        summary.status = status
        if let error { summary.error = error }
        state.status = status
        state.endTime = now
        state.extraJSON = counts
        return state
    }

    private var counts: String {
        var extra = state.extraJSON.flatMap { try? OrgValue(parsing: $0).objectValue } ?? [:]
        extra["failedCount"] = .integer(Int64(summary.failed))
        extra["conflictCount"] = .integer(Int64(summary.conflicts))
        return OrgValue.object(extra).jsonText
    }
}
