import Foundation
import GRDB
import NIOConcurrencyHelpers

/// The Bulk API 2.0 job engine of the local org: stores jobs and processes them in the background
/// with Salesforce's states (`UploadComplete` → `InProgress` → `JobComplete` | `Failed` | `Aborted`).
///
/// Each state change waits `delay` first, so a client sees every state as it would on a real org.
/// A job found unfinished with no worker (the server stopped while it ran) is picked up again when
/// it is next read.
final class BulkJobs: Sendable {
    let database: OrgDatabase
    /// The wait before each state change.
    let delay: Duration
    /// When set, every job ends `Failed` with this message (fault injection).
    let failureMessage: String?
    /// The running workers by job ID (Bulk API 2.0) or batch ID (Bulk API 1.0).
    let workers = NIOLockedValueBox<[String: Task<Void, Never>]>([:])

    init(database: OrgDatabase, delay: Duration, failureMessage: String?) {
        self.database = database
        self.delay = delay
        self.failureMessage = failureMessage
    }

    /// Runs `body` in a write transaction, with storage errors as ``OrgError``.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        try OrgError.mappingStorageErrors("Writing Bulk jobs") { try database.pool.write(body) }
    }

    /// Runs `body` on a read-only snapshot, with storage errors as ``OrgError``.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try OrgError.mappingStorageErrors("Reading Bulk jobs") { try database.pool.read(body) }
    }

    /// How long a worker has run, in milliseconds.
    static func milliseconds(since started: ContinuousClock.Instant) -> Int64 {
        let elapsed = ContinuousClock.now - started
        return elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
    }

    /// Stores a new job created by `creator`'s user (its ``OrgContext/access``; `nil` the org's
    /// own), numbered from the org's id counter and stamped now, with nothing processed yet: the
    /// one way the Bulk 1.0 and 2.0 endpoints create jobs.
    func create(
        kind: BulkJob.Kind,
        operation: String,
        object: String,
        query: String? = nil,
        apiVersion: String,
        state: BulkJob.State,
        columnDelimiter: String,
        lineEnding: String,
        externalIDField: String? = nil,
        contentType: String = "CSV",
        concurrencyMode: String = "Parallel",
        creator: OrgContext
    ) throws -> BulkJob {
        try write { db in
            let job = BulkJob(
                id: OrgRecordID.make(prefix: BulkJob.idPrefix, counter: try OrgMeta.nextIDCounter(db)),
                kind: kind,
                operation: operation,
                object: object,
                query: query,
                apiVersion: apiVersion,
                state: state,
                work: BulkWork(createdAt: creator.nowMilliseconds),
                errorMessage: nil,
                columnDelimiter: columnDelimiter,
                lineEnding: lineEnding,
                externalIDField: externalIDField,
                contentType: contentType,
                concurrencyMode: concurrencyMode,
                username: creator.access?.username
            )
            try BulkJobTable.insert(job, db)
            return job
        }
    }

    /// The job `id` of `kind`; restarts its worker if it is unfinished and nobody works on it.
    func job(_ id: String, kind: BulkJob.Kind) throws -> BulkJob {
        guard let job = try read({ try BulkJobTable.fetch(id, kind: kind, $0) }) else {
            throw OrgError.jobNotFound(id)
        }
        if job.state == .uploadComplete || job.state == .inProgress { startIfIdle(job) }
        return job
    }

    /// Starts the background processing of `job` unless a worker already runs it.
    func startIfIdle(_ job: BulkJob) {
        let kind = job.kind
        startWorker(job.id) { [self] in await process(job.id, kind: kind) }
    }

    /// Runs `work` as the worker of job or batch `id` unless one already runs; the worker leaves
    /// ``workers`` when `work` returns.
    func startWorker(_ id: String, _ work: @escaping @Sendable () async -> Void) {
        workers.withLockedValue { running in
            guard running[id] == nil else { return }
            running[id] = Task.detached { [self] in
                await work()
                self.workers.withLockedValue { _ = $0.removeValue(forKey: id) }
            }
        }
    }

    /// Stops the worker of `id`, if any (abort, delete).
    func cancel(_ id: String) {
        workers.withLockedValue { $0.removeValue(forKey: id) }?.cancel()
    }

    /// Stops every worker (server shutdown); unfinished jobs resume when read again.
    func cancelAll() {
        let tasks = workers.withLockedValue { running in
            defer { running.removeAll() }
            return Array(running.values)
        }
        for task in tasks { task.cancel() }
    }

    private func process(_ id: String, kind: BulkJob.Kind) async {
        do {
            try await Task.sleep(for: delay)
            let moved = try write { db -> Bool in
                guard let job = try BulkJobTable.fetch(id, kind: kind, db) else { return false }
                if job.state == .uploadComplete {
                    try BulkJobTable.setState(id, .inProgress, now: database.context.nowMilliseconds, db)
                }
                return job.state == .uploadComplete || job.state == .inProgress
            }
            guard moved else { return }
            try await Task.sleep(for: delay)
            try Task.checkCancellation()
            switch kind {
            case .query: try finishQuery(id)
            case .ingest: try finishIngest(id)
            case .classic: return  // Bulk API 1.0 jobs run batch by batch (BulkJobs+Batches.swift)
            }
        } catch {
            // Cancelled (abort, delete, shutdown) or a storage failure: the job stays as it is and
            // is picked up again when read.
        }
    }

    /// Ends job `id` of `kind` if it is still in progress: `Failed` when failures are injected,
    /// else as `body` (given the job and the time) writes it.
    private func finish(
        _ id: String,
        kind: BulkJob.Kind,
        _ body: (Database, BulkJob, _ now: Int64) throws -> Void
    ) throws {
        try write { db in
            guard let job = try BulkJobTable.fetch(id, kind: kind, db), job.state == .inProgress else { return }
            let now = database.context.nowMilliseconds
            if let failureMessage {
                try BulkJobTable.setState(id, .failed, errorMessage: failureMessage, now: now, db)
                return
            }
            try body(db, job, now)
        }
    }

    private func finishQuery(_ id: String) throws {
        let started = ContinuousClock.now
        try finish(id, kind: .query) { db, job, now in
            do {
                let result = try BulkQueryRunner(db: db, context: context(of: job)).snapshot(job)
                try db.execute(
                    sql: """
                        UPDATE _org_bulk_jobs SET state = 'JobComplete', processed = ?, cursorId = ?, firstSeq = ?,
                            totalSize = ?, processingMs = ?, modifiedAt = ? WHERE id = ?
                        """,
                    arguments: [
                        result.totalSize, result.cursorID, result.firstSeq, result.totalSize,
                        Self.milliseconds(since: started), now, id,
                    ]
                )
            } catch let error as OrgError {
                try BulkJobTable.setState(id, .failed, errorMessage: "\(error.code): \(error.message)", now: now, db)
            }
        }
    }

    private func finishIngest(_ id: String) throws {
        let started = ContinuousClock.now
        try finish(id, kind: .ingest) { db, job, now in
            let data = try Data.fetchOne(db, sql: "SELECT data FROM _org_bulk_jobs WHERE id = ?", arguments: [id])
            do {
                let jobContext = context(of: job)
                let writer = OrgWriter(db: db, context: jobContext)
                let counts = try BulkIngestRunner(writer: writer, db: db, context: jobContext)
                    .run(job, data: data ?? Data())
                try db.execute(
                    sql: """
                        UPDATE _org_bulk_jobs SET state = 'JobComplete', processed = ?, failed = ?, processingMs = ?,
                            modifiedAt = ? WHERE id = ?
                        """,
                    arguments: [counts.processed, counts.failed, Self.milliseconds(since: started), now, id]
                )
            } catch let error as OrgError {
                try BulkJobTable.setState(id, .failed, errorMessage: error.message, now: now, db)
            }
        }
    }

    /// The context a job's records are read and written in: its creator's access.
    func context(of job: BulkJob) -> OrgContext {
        database.acting(as: job.username).context
    }

    /// Deletes a job's result snapshot rows.
    static func dropResults(_ job: BulkJob, _ db: Database) throws {
        guard let cursorID = job.cursorID else { return }
        try db.execute(
            sql: "DELETE FROM _org_cursor_rows WHERE seq >= ? AND seq < ?",
            arguments: [job.firstSeq, job.firstSeq + Int64(job.totalSize)]
        )
        try db.execute(sql: "DELETE FROM _org_cursor WHERE id = ?", arguments: [cursorID])
    }

    /// Deletes an ingest job's data and results.
    static func dropIngestResults(_ job: BulkJob, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM _org_bulk_results WHERE jobId = ?", arguments: [job.id])
    }
}
