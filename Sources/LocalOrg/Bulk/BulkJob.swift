import Foundation
import GRDB

/// A Bulk API 2.0 job of the local org as stored in `_org_bulk_jobs` (real-org.md §3).
///
/// Jobs live in the org database, so a job and its results survive a restart of the server (a
/// killed `syncrun` that ran the org in-process finds them again).
@dynamicMemberLookup
struct BulkJob: Sendable, Equatable {
    /// `query` jobs (`/jobs/query`), `ingest` jobs (`/jobs/ingest`), or Bulk API 1.0 jobs
    /// (`/services/async/{version}/job`, any operation, data in ``BulkBatch``es).
    enum Kind: String, Sendable {
        case query, ingest
        case classic = "v1"
    }

    /// The job states of Bulk API 2.0.
    enum State: String, Sendable {
        case open = "Open"
        case uploadComplete = "UploadComplete"
        case inProgress = "InProgress"
        case jobComplete = "JobComplete"
        case failed = "Failed"
        case aborted = "Aborted"
        /// Bulk API 1.0: no more batches are taken (they still run).
        case closed = "Closed"

        /// Whether the job can change no more.
        var isTerminal: Bool { self == .jobComplete || self == .failed || self == .aborted }
    }

    var id: String
    var kind: Kind
    /// `query`, `queryAll`, `insert`, `update`, `upsert`, `delete`, `hardDelete`.
    var operation: String
    var object: String
    var query: String?
    /// `59.0`.
    var apiVersion: String
    var state: State
    /// The stamps, counts and (for a query job) result snapshot.
    var work: BulkWork
    var errorMessage: String?
    /// `COMMA`, `TAB`…
    var columnDelimiter: String
    /// `LF` or `CRLF`.
    var lineEnding: String
    var externalIDField: String?
    /// Bulk API 1.0: `CSV`, `JSON` or `XML` (Bulk API 2.0 jobs are always `CSV`).
    var contentType = "CSV"
    /// Bulk API 1.0: `Parallel` or `Serial`.
    var concurrencyMode = "Parallel"
    /// The restricted user (``OrgUser``) who created the job, whose access its records are written
    /// and read with; `nil` for the org's all-powerful user.
    var username: String?

    /// The job ID prefix of Salesforce (`750…`).
    static let idPrefix = "750"

    /// `job.processed`, `job.cursorID`… read and written through to ``work``.
    subscript<Value>(dynamicMember keyPath: WritableKeyPath<BulkWork, Value>) -> Value {
        get { work[keyPath: keyPath] }
        set { work[keyPath: keyPath] = newValue }
    }

    /// The delimiters Bulk API 2.0 accepts, by name.
    static let delimiters: [String: UInt8] = [
        "COMMA": UInt8(ascii: ","), "BACKQUOTE": UInt8(ascii: "`"), "CARET": UInt8(ascii: "^"),
        "PIPE": UInt8(ascii: "|"), "SEMICOLON": UInt8(ascii: ";"), "TAB": UInt8(ascii: "\t"),
    ]

    /// The delimiter byte.
    var delimiterByte: UInt8 { Self.delimiters[columnDelimiter] ?? UInt8(ascii: ",") }

    /// The line ending bytes.
    var lineEndingBytes: [UInt8] { lineEnding == "CRLF" ? [0x0D, 0x0A] : [0x0A] }

    /// The job info body of `GET /jobs/{kind}/{id}`.
    var info: OrgJSONValue {
        var body: OrgJSONObject = [
            "id": .string(id),
            "operation": .string(operation),
            "object": .string(object),
            "createdById": .null,
            "createdDate": .string(OrgDateTime.format(milliseconds: work.createdAt)),
            "systemModstamp": .string(OrgDateTime.format(milliseconds: work.modifiedAt)),
            "state": .string(state.rawValue),
            "concurrencyMode": "Parallel",
            "contentType": "CSV",
            "apiVersion": .double(Double(apiVersion) ?? 0),
            "jobType": kind == .query ? "V2Query" : "V2Ingest",
            "lineEnding": .string(lineEnding),
            "columnDelimiter": .string(columnDelimiter),
        ]
        if let externalIDField { body["externalIdFieldName"] = .string(externalIDField) }
        if kind == .ingest {
            body["contentUrl"] = .string("services/data/v\(apiVersion)/jobs/ingest/\(id)/batches")
        }
        if state != .open, state != .uploadComplete || kind == .query {
            body["numberRecordsProcessed"] = .integer(Int64(work.processed))
            body["retries"] = .integer(0)
            body["totalProcessingTime"] = .integer(work.processingMilliseconds)
            if kind == .ingest { body["numberRecordsFailed"] = .integer(Int64(work.failed)) }
        }
        if let errorMessage { body["errorMessage"] = .string(errorMessage) }
        return .object(body)
    }
}

/// The storage of Bulk jobs: the table, reads and state changes, all on a `Database` connection.
enum BulkJobTable {
    /// Creates the table if this database has none yet (step `org-1` of ``OrgMigrator/versions``).
    static func create(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS _org_bulk_jobs (
                    id TEXT PRIMARY KEY, kind TEXT NOT NULL, operation TEXT NOT NULL, object TEXT NOT NULL,
                    query TEXT, apiVersion TEXT NOT NULL, state TEXT NOT NULL, createdAt INTEGER NOT NULL,
                    modifiedAt INTEGER NOT NULL, processed INTEGER NOT NULL DEFAULT 0,
                    failed INTEGER NOT NULL DEFAULT 0, errorMessage TEXT, cursorId TEXT,
                    firstSeq INTEGER NOT NULL DEFAULT 0, totalSize INTEGER NOT NULL DEFAULT 0,
                    columnDelimiter TEXT NOT NULL, lineEnding TEXT NOT NULL, externalIdFieldName TEXT,
                    processingMs INTEGER NOT NULL DEFAULT 0, data BLOB
                )
                """
        )
    }

    /// Adds the column naming the restricted user who created a job (step `org-3` of
    /// ``OrgMigrator/versions``); jobs stored before it have none, the org's own user's.
    static func addUsername(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE _org_bulk_jobs ADD COLUMN username TEXT")
    }

    static func insert(_ job: BulkJob, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO _org_bulk_jobs (id, kind, operation, object, query, apiVersion, state, createdAt,
                    modifiedAt, columnDelimiter, lineEnding, externalIdFieldName, username, contentType,
                    concurrencyMode)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                job.id, job.kind.rawValue, job.operation, job.object, job.query, job.apiVersion, job.state.rawValue,
                job.createdAt, job.modifiedAt, job.columnDelimiter, job.lineEnding, job.externalIDField, job.username,
                job.contentType, job.concurrencyMode,
            ]
        )
    }

    static func fetch(_ id: String, kind: BulkJob.Kind, _ db: Database) throws -> BulkJob? {
        guard
            let row = try Row.fetchOne(
                db,
                sql: "SELECT * FROM _org_bulk_jobs WHERE id = ? AND kind = ?",
                arguments: [id, kind.rawValue]
            )
        else { return nil }
        return job(row)
    }

    static func fetchAll(kind: BulkJob.Kind, _ db: Database) throws -> [BulkJob] {
        try Row.fetchAll(
            db,
            sql: "SELECT * FROM _org_bulk_jobs WHERE kind = ? ORDER BY createdAt, id",
            arguments: [kind.rawValue]
        )
        .map(job)
    }

    /// Jobs of `kind` created since `since` (milliseconds), for the daily limits.
    static func count(kind: BulkJob.Kind, since: Int64, _ db: Database) throws -> Int {
        try Int.fetchOne(
            db,
            sql: "SELECT count(*) FROM _org_bulk_jobs WHERE kind = ? AND createdAt >= ?",
            arguments: [kind.rawValue, since]
        ) ?? 0
    }

    /// Sets the state (and optionally the error message) of a job, stamping `modifiedAt`.
    static func setState(
        _ id: String,
        _ state: BulkJob.State,
        errorMessage: String? = nil,
        now: Int64,
        _ db: Database
    ) throws {
        try db.execute(
            sql:
                "UPDATE _org_bulk_jobs SET state = ?, errorMessage = coalesce(?, errorMessage), modifiedAt = ? WHERE id = ?",
            arguments: [state.rawValue, errorMessage, now, id]
        )
    }

    static func delete(_ id: String, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM _org_bulk_jobs WHERE id = ?", arguments: [id])
    }

    private static func job(_ row: Row) -> BulkJob {
        var job = BulkJob(
            id: row["id"],
            kind: BulkJob.Kind(rawValue: row["kind"]) ?? .query,
            operation: row["operation"],
            object: row["object"],
            query: row["query"],
            apiVersion: row["apiVersion"],
            state: BulkJob.State(rawValue: row["state"]) ?? .failed,
            work: BulkWork(row: row),
            errorMessage: row["errorMessage"],
            columnDelimiter: row["columnDelimiter"],
            lineEnding: row["lineEnding"],
            externalIDField: row["externalIdFieldName"]
        )
        job.contentType = row["contentType"] ?? "CSV"
        job.concurrencyMode = row["concurrencyMode"] ?? "Parallel"
        job.username = row["username"]
        return job
    }
}
