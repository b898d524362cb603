import GRDB
import SoupStore

/// The Bulk API 2.0 query job a sync down is reading, as journaled in `syncrun_bulk_jobs`, so a
/// stopped or killed run resumes the same job from its last results page (real-org.md §3.1:
/// locators stay valid while the job exists).
///
/// One row per sync at most; the row goes when the job's results are all written.
public struct BulkJobJournalEntry: Sendable, Hashable {
    /// The sync's id.
    public var syncID: Int64
    /// The job (`750…`).
    public var jobID: String
    /// The query text the job runs.
    public var query: String
    /// The API version it was created with (results must be read with it).
    public var apiVersion: String
    /// The watermark the query was built from (ms, -1 for a full fetch).
    public var since: Int64
    /// The locator of the next results page to read; `nil` for the first page.
    public var locator: String?
    /// When the job was created, in ms since the epoch.
    public var createdAt: Int64

    /// Creates an entry.
    public init(
        syncID: Int64,
        jobID: String,
        query: String,
        apiVersion: String,
        since: Int64,
        locator: String?,
        createdAt: Int64
    ) {
        self.syncID = syncID
        self.jobID = jobID
        self.query = query
        self.apiVersion = apiVersion
        self.since = since
        self.locator = locator
        self.createdAt = createdAt
    }
}

enum BulkJobJournalTable {
    static let name = "syncrun_bulk_jobs"

}

extension SoupReader {
    /// The Bulk job journaled for sync `syncID`, if any.
    public func bulkJob(syncID: Int64) throws -> BulkJobJournalEntry? {
        guard try db.tableExists(BulkJobJournalTable.name) else { return nil }
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT sync_id, job_id, query, api_version, since, locator, created_at \
                    FROM \(BulkJobJournalTable.name) WHERE sync_id = ?
                    """,
                arguments: [syncID]
            )
        else { return nil }
        return BulkJobJournalEntry(
            syncID: row[0],
            jobID: row[1],
            query: row[2],
            apiVersion: row[3],
            since: row[4],
            locator: row[5],
            createdAt: row[6]
        )
    }
}

extension SoupWriter {
    /// Journals `entry` as the job of its sync, replacing any earlier one.
    public func recordBulkJob(_ entry: BulkJobJournalEntry) throws {
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO \(BulkJobJournalTable.name) \
                (sync_id, job_id, query, api_version, since, locator, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                entry.syncID, entry.jobID, entry.query, entry.apiVersion, entry.since, entry.locator, entry.createdAt,
            ]
        )
    }

    /// Records that the results before `locator` are written (`nil`: all of them).
    public func advanceBulkJob(syncID: Int64, jobID: String, locator: String?) throws {
        guard try db.tableExists(BulkJobJournalTable.name) else { return }
        try db.execute(
            sql: "UPDATE \(BulkJobJournalTable.name) SET locator = ? WHERE sync_id = ? AND job_id = ?",
            arguments: [locator, syncID, jobID]
        )
    }

    /// Forgets the job of sync `syncID`.
    public func clearBulkJob(syncID: Int64) throws {
        guard try db.tableExists(BulkJobJournalTable.name) else { return }
        try db.execute(sql: "DELETE FROM \(BulkJobJournalTable.name) WHERE sync_id = ?", arguments: [syncID])
    }
}
