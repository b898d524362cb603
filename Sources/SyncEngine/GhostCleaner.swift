import Logging
import OrgClient
import SoupStore
import SyncConfig
import SyncLedger

/// Cleans the ghosts of one sync down (sync-semantics §6, §11 items 8–9): streams the ids the org
/// returns for the target now into a store table, page by page, then deletes the clean records
/// this sync fetched that are no longer returned and that no other sync still claims. Records
/// another sync fetched too are asked about by id (``SharedGhostCheck``): those the server no
/// longer has are deleted as well (issue 19 item 4).
///
/// The sync state is not modified; the sync is locked for the duration, so it cannot run at the
/// same time. A stop between id pages abandons the pass without deleting anything.
struct GhostCleaner: Sendable {
    let store: SoupStore
    let org: any OrgClient
    let registry: SyncStateRegistry
    let logger: Logger
    let events: AsyncStream<SyncEvent>.Continuation?

    /// - Returns: The totals (`deletedGhosts`); `status` is `DONE`, `FAILED` or `STOPPED`.
    /// - Throws: `SyncEngineError` when the pass cannot start (`.ghostCleaningRefused`,
    ///   `.alreadyRunning`).
    func run(
        _ definition: SyncDefinition,
        state: StoredSyncState,
        fetcher: any DownTargetFetcher,
        stop: StopSignal
    ) async throws -> SyncRunSummary {
        if let soql = fetcher as? SOQLDownFetcher, !soql.canCleanGhosts {
            throw SyncEngineError.ghostsWithLimit(definition.name)
        }
        if let endpoint = fetcher as? EndpointDownFetcher, endpoint.target.idsRequest == nil {
            throw EndpointDownFetcher.noIDsRequest(definition.name)
        }
        let startedAt = registry.now
        let before = org.statistics()
        let (claimed, lock) = try registry.claim(id: state.id, name: definition.name, operation: .cleanGhosts) { _ in
            nil
        }
        let syncID = claimed.id
        events?.yield(
            .started(
                SyncRunStart(
                    syncName: definition.name,
                    syncID: syncID,
                    operation: .cleanGhosts,
                    targetKind: definition.targetKindName,
                    isIncremental: false,
                    maxTimeStamp: claimed.maxTimeStamp
                )
            )
        )
        var pages = 0
        var stopped = stop.isStopRequested
        var failure: String?
        var result = GhostCleaningResult(notReturned: 0, deleted: 0, keptForOtherSyncs: 0)
        let idPath = fetcher.idFieldName
        let soups = fetcher.destinations.map { (soup: $0.soupName, idPath: $0.idFieldName) }
        do {
            try await store.write { writer in try writer.beginGhostScan(syncID: syncID) }
            if !stopped {
                try await fetcher.remoteIDs(org: org, store: store, syncID: syncID) { page in
                    if stop.isStopRequested {
                        stopped = true
                        return false
                    }
                    try await store.write { writer in
                        switch page {
                        case .records(let json): try writer.addGhostScanIDs(of: json, idPath: idPath, syncID: syncID)
                        case .ids(let ids): try writer.addGhostScanIDs(ids, syncID: syncID)
                        }
                    }
                    pages += 1
                    return true
                }
            }
            if !stopped {
                for soup in soups {
                    let check = SharedGhostCheck(org: org, store: store, soup: soup.soup, idPath: soup.idPath)
                    guard try await check.run(syncID: syncID, stop: stop) else {
                        stopped = true
                        break
                    }
                }
            }
            if !stopped {
                result = try await store.write { writer in try writer.finishGhostScan(soups: soups, syncID: syncID) }
            }
        } catch is CancellationError {
            stopped = true
        } catch {
            failure = SyncEngineError.wrapping(error, syncName: definition.name).message
        }
        if stopped || failure != nil {
            try? await store.write { writer in try writer.abandonGhostScan(syncID: syncID) }
        }
        do {
            try await registry.release(lock, saving: nil)
        } catch {
            throw SyncEngineError.wrapping(error, syncName: definition.name)
        }
        logger.debug(
            "Ghost cleaning ended",
            metadata: ["sync.name": "\(definition.name)", "sync.id": "\(syncID)", "sync.ghosts": "\(result.deleted)"]
        )
        let after = org.statistics()
        let status: StoredSyncState.Status = failure != nil ? .failed : stopped ? .stopped : .done
        var summary = SyncRunSummary(
            syncName: definition.name,
            syncID: syncID,
            operation: .cleanGhosts,
            status: status,
            deletedGhosts: result.deleted,
            pages: pages,
            requests: after.requests - before.requests,
            retries: after.retries - before.retries,
            durationMilliseconds: registry.now - startedAt,
            maxTimeStamp: claimed.maxTimeStamp,
            error: status == .done ? nil : (failure ?? SyncEngineError.stopped(definition.name).message)
        )
        summary.apiUsage = after.apiUsage
        if result.keptForOtherSyncs > 0 {
            events?.yield(
                .warning(
                    syncName: definition.name,
                    message: "\(result.keptForOtherSyncs) record(s) no longer returned by this sync were kept "
                        + "because another sync fetched them too"
                )
            )
        }
        events?.yield(.finished(summary))
        return summary
    }
}

/// Asks the server about the records a ghost-cleaning pass would keep only because another sync
/// of the same soup fetched them too (issue 19 item 4): `SELECT <id> FROM <type> WHERE <id> IN
/// (…)`, ids only, one request per ``idsPerRequest`` records and sObject type (each record's
/// `attributes.type`). The answers go to the store, where `finishGhostScan` deletes the records the
/// server no longer has, whichever syncs fetched them; records it still has are kept for the other
/// syncs, which clean them when their own queries stop returning them. Records without
/// `attributes.type` cannot be asked about and are kept.
struct SharedGhostCheck: Sendable {
    let org: any OrgClient
    let store: SoupStore
    let soup: String
    let idPath: String

    /// Ids per existence request (short enough for a `GET` query URL).
    static let idsPerRequest = 200

    /// Checks every such record of sync `syncID`'s pass; returns `false` when a stop was requested
    /// between requests (nothing is recorded for the slice in flight).
    func run(syncID: Int64, stop: StopSignal) async throws -> Bool {
        let soup = self.soup
        guard try await store.read({ try $0.hasRecordsOfOtherSyncs(in: soup, syncID: syncID) }) else { return true }
        var after: String?
        while true {
            let (soup, idPath, last) = (self.soup, self.idPath, after)
            let slice = try await store.read { reader in
                try reader.sharedGhostCandidates(
                    in: soup,
                    idPath: idPath,
                    syncID: syncID,
                    after: last,
                    limit: Self.idsPerRequest
                )
            }
            guard let lastID = slice.last?.id else { return true }
            after = lastID
            var byType: [String: [String]] = [:]
            for candidate in slice {
                guard let type = candidate.objectType, !type.isEmpty else { continue }
                byType[type, default: []].append(candidate.id)
            }
            for (type, ids) in byType.sorted(by: { $0.key < $1.key }) {
                if stop.isStopRequested { return false }
                let query = SOQLText.select(fields: [idPath], from: type, idField: idPath, in: ids)
                var answers: [String] = []
                for try await page in org.queryPages(query) {
                    answers.append(page.body.text)
                }
                try await store.write { [answers] writer in
                    try writer.addGhostExistenceCheck(asked: ids, answers: answers, idPath: idPath, syncID: syncID)
                }
            }
        }
    }
}
