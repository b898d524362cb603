import Foundation
import GRDB

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
    let workers = ProtectedState<[String: Task<Void, Never>]>([:])

    init(database: OrgDatabase, delay: Duration, failureMessage: String?) {
        self.database = database
        self.delay = delay
        self.failureMessage = failureMessage
    }

    /// Runs `body` in a write transaction, with storage errors as ``OrgError``.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try database.pool.write(body)
        } catch let error as OrgError {
            throw error
        } catch {
            throw OrgError.storage("Writing Bulk jobs", error)
        }
    }

    /// Runs `body` on a read-only snapshot, with storage errors as ``OrgError``.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try database.pool.read(body)
        } catch let error as OrgError {
            throw error
        } catch {
            throw OrgError.storage("Reading Bulk jobs", error)
        }
    }

    /// How long a worker has run, in milliseconds.
    static func milliseconds(since started: ContinuousClock.Instant) -> Int64 {
        let elapsed = ContinuousClock.now - started
        return elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
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
        workers.withLock { running in
            guard running[job.id] == nil else { return }
            let id = job.id
            let kind = job.kind
            running[id] = Task.detached { [self] in
                await self.process(id, kind: kind)
                self.workers.withLock { _ = $0.removeValue(forKey: id) }
            }
        }
    }

    /// Stops the worker of `id`, if any (abort, delete).
    func cancel(_ id: String) {
        workers.withLock { $0.removeValue(forKey: id) }?.cancel()
    }

    /// Stops every worker (server shutdown); unfinished jobs resume when read again.
    func cancelAll() {
        let tasks = workers.withLock { running in
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

    private func finishQuery(_ id: String) throws {
        let started = ContinuousClock.now
        try write { db in
            guard let job = try BulkJobTable.fetch(id, kind: .query, db), job.state == .inProgress else { return }
            let now = database.context.nowMilliseconds
            if let failureMessage {
                try BulkJobTable.setState(id, .failed, errorMessage: failureMessage, now: now, db)
                return
            }
            do {
                let result = try BulkQueryRunner(db: db, context: context(of: job)).snapshot(job)
                let elapsed = ContinuousClock.now - started
                try db.execute(
                    sql: """
                        UPDATE _org_bulk_jobs SET state = 'JobComplete', processed = ?, cursorId = ?, firstSeq = ?,
                            totalSize = ?, processingMs = ?, modifiedAt = ? WHERE id = ?
                        """,
                    arguments: [
                        result.totalSize, result.cursorID, result.firstSeq, result.totalSize,
                        elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000,
                        now, id,
                    ]
                )
            } catch let error as OrgError {
                try BulkJobTable.setState(id, .failed, errorMessage: "\(error.code): \(error.message)", now: now, db)
            }
        }
    }

    private func finishIngest(_ id: String) throws {
        let started = ContinuousClock.now
        try write { db in
            guard let job = try BulkJobTable.fetch(id, kind: .ingest, db), job.state == .inProgress else { return }
            let now = database.context.nowMilliseconds
            if let failureMessage {
                try BulkJobTable.setState(id, .failed, errorMessage: failureMessage, now: now, db)
                return
            }
            let data = try Data.fetchOne(db, sql: "SELECT data FROM _org_bulk_jobs WHERE id = ?", arguments: [id])
            do {
                let jobContext = context(of: job)
                let writer = OrgWriter(db: db, context: jobContext)
                let counts = try BulkIngestRunner(writer: writer, db: db, context: jobContext)
                    .run(job, data: data ?? Data())
                let elapsed = ContinuousClock.now - started
                try db.execute(
                    sql: """
                        UPDATE _org_bulk_jobs SET state = 'JobComplete', processed = ?, failed = ?, processingMs = ?,
                            modifiedAt = ? WHERE id = ?
                        """,
                    arguments: [
                        counts.processed, counts.failed,
                        elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000,
                        now, id,
                    ]
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
