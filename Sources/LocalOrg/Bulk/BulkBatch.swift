import Foundation
import GRDB

/// A batch of a Bulk API 1.0 job (`/services/async/{version}/job/{id}/batch`), stored in
/// `_org_bulk_v1_batches` (step `org-2-bulk-v1-batches` of ``OrgMigrator/versions``).
///
/// Bulk API 1.0 jobs are rows of `_org_bulk_jobs` of kind ``BulkJob/Kind/classic``; their batches
/// run on the same engine as Bulk API 2.0 jobs (``BulkJobs``): one background worker per batch,
/// the same state delay and failure injection. The per-record results of an ingest batch are rows
/// of `_org_bulk_results` whose `jobId` is the batch ID and whose kind is `v1`.
@dynamicMemberLookup
struct BulkBatch: Sendable, Equatable {
    /// The batch states of Bulk API 1.0 ("BatchInfo", Bulk API Developer Guide).
    enum State: String, Sendable {
        case queued = "Queued"
        case inProgress = "InProgress"
        case completed = "Completed"
        case failed = "Failed"
        case notProcessed = "Not Processed"

        /// Whether the batch can change no more.
        var isTerminal: Bool { self == .completed || self == .failed || self == .notProcessed }
    }

    var id: String
    var jobID: String
    var state: State
    var stateMessage: String?
    /// The stamps, counts and (for a query batch) result snapshot.
    var work: BulkWork

    /// The batch ID prefix of Salesforce (`751…`).
    static let idPrefix = "751"
    /// The query result ID prefix of Salesforce (`752…`).
    static let resultPrefix = "752"

    /// The one result ID of a completed query batch (all its records are in one result).
    var resultID: String { Self.resultPrefix + id.dropFirst(Self.idPrefix.count) }

    /// `batch.processed`, `batch.cursorID`… read and written through to ``work``.
    subscript<Value>(dynamicMember keyPath: WritableKeyPath<BulkWork, Value>) -> Value {
        get { work[keyPath: keyPath] }
        set { work[keyPath: keyPath] = newValue }
    }
}

/// The storage of Bulk API 1.0 batches.
enum BulkBatchTable {
    /// Step `org-2-bulk-v1-batches`: the batches table, and the job columns Bulk API 1.0 adds
    /// (`contentType`, `concurrencyMode`).
    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE _org_bulk_jobs ADD COLUMN contentType TEXT NOT NULL DEFAULT 'CSV';
                ALTER TABLE _org_bulk_jobs ADD COLUMN concurrencyMode TEXT NOT NULL DEFAULT 'Parallel';
                CREATE TABLE _org_bulk_v1_batches (
                    id TEXT PRIMARY KEY, jobId TEXT NOT NULL, state TEXT NOT NULL, stateMessage TEXT,
                    createdAt INTEGER NOT NULL, modifiedAt INTEGER NOT NULL, processed INTEGER NOT NULL DEFAULT 0,
                    failed INTEGER NOT NULL DEFAULT 0, processingMs INTEGER NOT NULL DEFAULT 0, data BLOB NOT NULL,
                    cursorId TEXT, firstSeq INTEGER NOT NULL DEFAULT 0, totalSize INTEGER NOT NULL DEFAULT 0
                );
                CREATE INDEX _org_bulk_v1_batches_job ON _org_bulk_v1_batches (jobId, createdAt);
                """
        )
    }

    static func insert(_ batch: BulkBatch, data: Data, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO _org_bulk_v1_batches (id, jobId, state, createdAt, modifiedAt, data)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
            arguments: [batch.id, batch.jobID, batch.state.rawValue, batch.createdAt, batch.modifiedAt, data]
        )
    }

    static func fetch(_ id: String, jobID: String, _ db: Database) throws -> BulkBatch? {
        try Row.fetchOne(
            db,
            sql: "SELECT * FROM _org_bulk_v1_batches WHERE id = ? AND jobId = ?",
            arguments: [id, jobID]
        )
        .map(batch)
    }

    static func fetchAll(jobID: String, _ db: Database) throws -> [BulkBatch] {
        try Row.fetchAll(
            db,
            sql: "SELECT * FROM _org_bulk_v1_batches WHERE jobId = ? ORDER BY createdAt, rowid",
            arguments: [jobID]
        )
        .map(batch)
    }

    /// The data the batch was created with.
    /// Batches created since `since` (milliseconds), for the daily limits.
    static func count(since: Int64, _ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM _org_bulk_v1_batches WHERE createdAt >= ?", arguments: [since])
            ?? 0
    }

    static func data(_ id: String, _ db: Database) throws -> Data {
        try Data.fetchOne(db, sql: "SELECT data FROM _org_bulk_v1_batches WHERE id = ?", arguments: [id]) ?? Data()
    }

    /// Sets the state (and optionally the message) of a batch, stamping `modifiedAt`.
    static func setState(_ id: String, _ state: BulkBatch.State, message: String? = nil, now: Int64, _ db: Database)
        throws
    {
        try db.execute(
            sql: """
                UPDATE _org_bulk_v1_batches SET state = ?, stateMessage = coalesce(?, stateMessage), modifiedAt = ?
                WHERE id = ?
                """,
            arguments: [state.rawValue, message, now, id]
        )
    }

    /// Sets the not yet finished batches of a job to `Not Processed` (abort).
    static func markUnprocessed(jobID: String, now: Int64, _ db: Database) throws {
        try db.execute(
            sql: """
                UPDATE _org_bulk_v1_batches SET state = 'Not Processed', modifiedAt = ?
                WHERE jobId = ? AND state IN ('Queued', 'InProgress')
                """,
            arguments: [now, jobID]
        )
    }

    private static func batch(_ row: Row) -> BulkBatch {
        BulkBatch(
            id: row["id"],
            jobID: row["jobId"],
            state: BulkBatch.State(rawValue: row["state"]) ?? .failed,
            stateMessage: row["stateMessage"],
            work: BulkWork(row: row)
        )
    }
}
