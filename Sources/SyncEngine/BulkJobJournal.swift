import Foundation
import OrgClient
import SoupStore
import SyncLedger

/// The journal of a sync down's Bulk query job (table `syncrun_bulk_jobs`, see SyncLedger): the
/// job id and the locator of the next results page, so a stopped or killed run resumes the job
/// instead of starting another.
struct BulkJobJournal: Sendable {
    let store: SoupStore
    let syncID: Int64

    /// A job to read on from `locator`.
    struct Resume: Sendable {
        var job: BulkJobInfo
        var query: String
        var since: Int64
        var locator: String?
    }

    /// The journaled job when it can be read on: the same query text and API version as this run
    /// would send from the watermark it started at, and the org still has it (not `Failed`,
    /// `Aborted` or expired). A job that cannot be reused is aborted (when still running) and
    /// forgotten, never left behind silently.
    ///
    /// - Parameter expectedQuery: the job query this run would send from a given watermark.
    func resumable(org: any BulkQueryClient, expectedQuery: (Int64) throws -> String) async throws -> Resume? {
        let syncID = syncID
        guard let entry = try await store.read({ try $0.bulkJob(syncID: syncID) }) else { return nil }
        let reusable = entry.apiVersion == org.apiVersion && (try? expectedQuery(entry.since)) == entry.query
        let job: BulkJobInfo?
        do {
            job = try await org.queryJob(entry.jobID)
        } catch let error as OrgClientError where error.code == .notFound {
            job = nil  // deleted, or its results expired
        }
        if reusable, let job, job.state != .failed, job.state != .aborted {
            return Resume(job: job, query: entry.query, since: entry.since, locator: entry.locator)
        }
        if let job, job.state?.isTerminal == false {
            do {
                _ = try await org.abortQueryJob(job.id)
            } catch let error as OrgClientError where error.serverErrorCode == "INVALIDJOBSTATE" {
                // It finished between the two calls: nothing is left running.
            }
        }
        try await store.write { try $0.clearBulkJob(syncID: syncID) }
        return nil
    }

    /// Journals a new job.
    func started(job: BulkJobInfo, query: String, since: Int64, apiVersion: String) async throws {
        let entry = BulkJobJournalEntry(
            syncID: syncID,
            jobID: job.id,
            query: query,
            apiVersion: apiVersion,
            since: since,
            locator: nil,
            createdAt: Int64(Date().timeIntervalSince1970 * 1000)
        )
        try await store.write { try $0.recordBulkJob(entry) }
    }

    /// Records that every page before `locator` is written.
    func advanced(jobID: String, locator: String?) async throws {
        let syncID = syncID
        try await store.write { try $0.advanceBulkJob(syncID: syncID, jobID: jobID, locator: locator) }
    }

    /// Forgets the journaled job (its results are gone).
    func forget() async throws {
        let syncID = syncID
        try await store.write { try $0.clearBulkJob(syncID: syncID) }
    }

    /// Forgets the job once all its results are written, and deletes it on the org.
    func finished(jobID: String, org: any BulkQueryClient) async throws {
        let syncID = syncID
        try await store.write { try $0.clearBulkJob(syncID: syncID) }
        try? await org.deleteQueryJob(jobID)
    }
}
