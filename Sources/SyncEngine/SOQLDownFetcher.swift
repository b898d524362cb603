import OrgClient
import SOQL
import SoupStore
import SyncConfig

/// The `soql` target (sync-semantics §4.2–§4.4): the query, with the id and modification fields
/// added when missing and `ORDER BY <modification field>` when it has no ORDER BY, paged through
/// `OrgClient.queryPages` (the next page fetched while one is written).
///
/// Resync uses `<mod> >= <watermark> AND (<original condition>)`: inclusive, so records stamped
/// in the same instant as the watermark but committed after the last run are fetched; the ones
/// already stored are upserted again by id, so nothing is duplicated (docs/sync-engine.md).
struct SOQLDownFetcher: DownTargetFetcher {
    let soupName: String
    let idFieldName: String
    let modificationDateFieldName: String
    /// The query as written in the config.
    let original: SOQLQuery
    /// The query a sync down sends (fields and order ensured).
    let mutated: SOQLQuery
    let batchSize: Int?
    /// The sync's name, for errors.
    let syncName: String
    /// The config's `api` key.
    let api: SyncAPI
    /// The config's `bulkThreshold`.
    let bulkThreshold: Int
    /// When `true`, pages always come through REST (a dry run decides, but creates no job).
    var restOnly = false
    /// Where Bulk jobs are journaled for a resumed run; `nil` to start fresh jobs only.
    var journal: BulkJobJournal?
    /// The records asked for per Bulk results page.
    var bulkPageSize = 10_000
    /// How a query job is awaited (the engine's clock and ``SyncEngineConfiguration/bulkJobPolling``).
    var bulkPoller = BulkJobPoller(policy: BulkJobPolling(), clock: ContinuousClock())
    /// The Bulk results pages downloaded at once where the org offers `resultPages`
    /// (`maxConcurrentRequests`).
    var maxConcurrentRequests = 4
    /// The records written per page from a Bulk results page (REST's largest query page).
    static let bulkWritePageSize = 2_000

    var isSortedByModification: Bool { mutated.isOrdered(by: modificationDateFieldName) }
    var isIncremental: Bool { true }

    /// Parses and prepares the target's query.
    ///
    /// - Throws: `SyncEngineError` `.invalidTarget` when the query does not parse.
    init(syncName: String, soupName: String, target: SOQLSyncDownTarget) throws {
        self.soupName = soupName
        self.syncName = syncName
        api = target.api
        bulkThreshold = target.bulkThreshold
        idFieldName = target.idFieldName
        modificationDateFieldName = target.modificationDateFieldName
        do {
            original = try SOQLQuery.parse(target.query)
        } catch {
            throw SyncEngineError.invalidQuery(syncName, "\(error)")
        }
        mutated = original.ensuringFields([idFieldName, modificationDateFieldName])
            .ensuringOrder(by: modificationDateFieldName)
        let clamped = min(max(target.maxBatchSize, 200), 2000)
        batchSize = clamped == SOQLSyncDownTarget.defaultMaxBatchSize ? nil : clamped
    }

    /// The query text a run from `maxTimeStamp` sends.
    func queryText(since maxTimeStamp: Int64) -> String {
        guard maxTimeStamp > 0 else { return mutated.text }
        return mutated.addingModifiedFilter(field: modificationDateFieldName, after: maxTimeStamp, inclusive: true).text
    }

    func fetch(
        since maxTimeStamp: Int64,
        org: any OrgClient,
        store: SoupStore,
        body: (DownPage) async throws -> Bool
    ) async throws {
        let options = QueryOptions(batchSize: batchSize)
        let bulk = restOnly ? nil : org as? any BulkQueryClient
        if let bulk, let resume = try await resumableJob(org: bulk) {
            do {
                return try await fetchThroughBulk(since: maxTimeStamp, resume: resume, org: bulk, body: body)
            } catch let error as OrgClientError where error.code == .notFound {
                // The job's results expired or were deleted since: forget it and start a new one.
                try await journal?.forget()
                return try await fetchThroughBulk(since: maxTimeStamp, resume: nil, org: bulk, body: body)
            }
        }
        if let bulk, decide(totalSize: nil, org: org).usesBulk {
            return try await fetchThroughBulk(since: maxTimeStamp, resume: nil, org: bulk, body: body)
        }
        let first = try await org.queryFirstPage(queryText(since: maxTimeStamp), options: options)
        let totalSize = first.totalSize
        if let bulk, decide(totalSize: totalSize, org: org).usesBulk {
            // `auto` at or above the threshold: the whole result comes from a job; this first page
            // is not written (the job returns its records too), so progress counts each record once.
            return try await fetchThroughBulk(since: maxTimeStamp, resume: nil, org: bulk, body: body)
        }
        // The next page travels while this one is written; leaving the loop early (stop, error)
        // cancels it.
        for try await page in org.queryPages(continuing: first, options: options) {
            guard try await body(DownPage(json: page.body.text, totalSize: totalSize)) else { return }
        }
    }

    /// Whether ghost cleaning would be exact: not with LIMIT or OFFSET (§11 item 9).
    var canCleanGhosts: Bool { !original.hasLimitOrOffset }

    func remoteIDs(
        org: any OrgClient,
        store: SoupStore,
        syncID: Int64,
        body: (RemoteIDPage) async throws -> Bool
    ) async throws {
        let options = QueryOptions(batchSize: batchSize)
        let idsQuery = original.idsOnly(idField: idFieldName).text
        let bulk = restOnly ? nil : org as? any BulkQueryClient
        if let bulk, decide(totalSize: nil, org: org).usesBulk {
            return try await remoteIDsThroughBulk(idsQuery, org: bulk, body: body)
        }
        let first = try await org.queryFirstPage(idsQuery, options: options)
        if let bulk, decide(totalSize: first.totalSize, org: org).usesBulk {
            return try await remoteIDsThroughBulk(idsQuery, org: bulk, body: body)
        }
        for try await page in org.queryPages(continuing: first, options: options) {
            guard try await body(.records(page.body.text)) else { return }
        }
    }
}
