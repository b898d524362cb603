import GRDB

/// What the one Bulk engine (``BulkJobs``) keeps alike for a unit of work, whether a Bulk API 2.0
/// job (``BulkJob``) or a Bulk API 1.0 batch (``BulkBatch``): when it was created and last changed,
/// how many records it processed and failed and how long that took, and, for a query, its result
/// snapshot. Both tables (`_org_bulk_jobs`, `_org_bulk_v1_batches`) store it in the same columns.
struct BulkWork: Sendable, Equatable {
    var createdAt: Int64
    var modifiedAt: Int64
    var processed = 0
    var failed = 0
    var processingMilliseconds: Int64 = 0
    /// The result snapshot (`_org_cursor` row) of a completed query.
    var cursorID: String?
    /// The snapshot's first row in `_org_cursor_rows`.
    var firstSeq: Int64 = 0
    var totalSize = 0

    /// Work created at `now` (milliseconds), with nothing processed yet.
    init(createdAt now: Int64) {
        createdAt = now
        modifiedAt = now
    }

    /// The work columns of a row of `_org_bulk_jobs` or `_org_bulk_v1_batches`.
    init(row: Row) {
        createdAt = row["createdAt"]
        modifiedAt = row["modifiedAt"]
        processed = row["processed"]
        failed = row["failed"]
        processingMilliseconds = row["processingMs"]
        cursorID = row["cursorId"]
        firstSeq = row["firstSeq"]
        totalSize = row["totalSize"]
    }
}
