import OrgClient
import SoupStore

/// The totals of one sync up run, and the records that need attention.
public struct SyncUpSummary: Sendable, Hashable {
    /// The sync's name.
    public var syncName: String
    /// The sync's id.
    public var syncID: Int64
    /// How the run ended: `DONE` (also when records failed or conflicted, §7.6), `FAILED` or `STOPPED`.
    public var status: StoredSyncState.Status
    /// Dirty records selected (`totalSize`).
    public var selected: Int = 0
    /// Records created (or upserted) on the server.
    public var created: Int = 0
    /// Records updated on the server.
    public var updated: Int = 0
    /// Records deleted on the server (or already gone there), and locally created records that
    /// were deleted before being sent.
    public var deleted: Int = 0
    /// Records left alone because the server changed them (`LEAVE_IF_CHANGED`).
    public var conflicts: Int = 0
    /// Records the server refused.
    public var failed: Int = 0
    /// Dirty records left dirty without being sent: without an operation flag (single-record
    /// target), or in a parent-children tree another record of which conflicted.
    public var skipped: Int = 0
    /// HTTP requests sent to the org during the run, retries included.
    public var requests: Int = 0
    /// Requests repeated after a retryable failure.
    public var retries: Int = 0
    /// Wall time in milliseconds.
    public var durationMilliseconds: Int64 = 0
    /// The conflicted and failed records, in entry-id order.
    public var issues: [SyncUpIssue] = []
    /// The failure's message, when the run did not end `DONE`.
    public var error: String?
    /// The org's daily API usage after the run (`Sforce-Limit-Info`), when the org sent it.
    public var apiUsage: APIUsage?

    /// Creates an empty summary.
    public init(syncName: String, syncID: Int64, status: StoredSyncState.Status) {
        self.syncName = syncName
        self.syncID = syncID
        self.status = status
    }

    /// Whether any record failed or conflicted (the CLI exits non-zero, §11 item 6).
    public var hasRecordIssues: Bool { conflicts + failed > 0 }
}

/// A record sync up could not write, as listed in ``SyncUpSummary/issues``.
public struct SyncUpIssue: Sendable, Hashable {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// A `LEAVE_IF_CHANGED` conflict.
        case conflict(SyncUpConflict)
        /// The server refused the record with these error codes.
        case failed(errorCodes: [String])
    }

    /// `_soupEntryId` of the record.
    public var entryID: Int64
    /// Its id (server or `local_…`), when it has one.
    public var recordID: String?
    /// What went wrong; the full detail is in the record's `__last_error__`.
    public var kind: Kind

    /// Creates an issue.
    public init(entryID: Int64, recordID: String?, kind: Kind) {
        self.entryID = entryID
        self.recordID = recordID
        self.kind = kind
    }
}

extension SyncUpSummary {
    /// The totals as the common run summary that events and the CLI report.
    public var runSummary: SyncRunSummary {
        var run = SyncRunSummary(
            syncName: syncName,
            syncID: syncID,
            operation: .syncUp,
            status: status,
            requests: requests,
            retries: retries,
            durationMilliseconds: durationMilliseconds,
            error: error
        )
        run.created = created
        run.updated = updated
        run.deleted = deleted
        run.conflicts = conflicts
        run.failed = failed
        run.skipped = skipped
        run.issues = issues
        run.apiUsage = apiUsage
        return run
    }
}

extension SyncUpIssue: CustomStringConvertible {
    /// One line: `conflict: 001… (entry 12) was changed on the org at …` or
    /// `failed: local_3 (entry 7): REQUIRED_FIELD_MISSING`.
    public var description: String {
        let record = "record \(recordID ?? "(no id)") (entry \(entryID))"
        switch kind {
        case .conflict(let conflict):
            return "conflict: \(record) was changed on the org"
                + (conflict.serverModified.map { " at \($0)" } ?? "") + "; left alone on both sides"
        case .failed(let codes):
            return "failed: \(record): \(codes.joined(separator: ", ")); see its __last_error__"
        }
    }
}
