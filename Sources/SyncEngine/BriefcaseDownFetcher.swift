import Foundation
import OrgClient
import SoupStore
import SyncConfig

/// The `briefcase` target (sync-semantics §9.5, §4.5, §6, §11 item 27): the records of the
/// briefcases assigned to the app, several object types, each saved into its info's soup.
///
/// Per page of the priming-records API, the ids of the configured types are fetched with
/// collection retrieves (`POST /composite/sobjects/<type>` with `{ids, fields}`) in slices of
/// `countIdsPerRetrieve`, type by type, and each slice is one page for the runner, routed to its
/// type's soup. Only one priming page of ids and one slice of records are in memory.
///
/// Differences from the Mobile SDK, on purpose:
/// - `totalSize` is the number of ids of configured types in the priming pages read so far: it
///   grows as pages arrive instead of counting only the first page (§11 item 27).
/// - A resync asks for records changed after the watermark minus 1 ms, so records stamped in the
///   same millisecond as the watermark are fetched again (and upserted, never duplicated) instead
///   of missed; this holds after `DONE`, `STOPPED` and `FAILED` runs alike (§11 item 12).
/// - Ghost cleaning covers every configured type, including types the briefcase no longer returns
///   at all, whose records are then all ghosts (§11 item 27).
/// - A priming page that reports rule errors fails the run (and refuses ghost cleaning): records
///   of a failed rule are missing from the answer, so going on would advance the watermark past
///   them, or delete them as ghosts.
///
/// `LEAVE_IF_CHANGED` protects a record with local changes in the soup it is saved into. Ids are
/// unique across object types, so this equals the SDK's union of dirty ids across the soups
/// unless two types share a soup with clashing ids, which cannot happen with Salesforce ids.
struct BriefcaseDownFetcher: DownTargetFetcher {
    let syncName: String
    let soupName: String
    let target: BriefcaseSyncDownTarget

    var idFieldName: String { target.idFieldName }
    var modificationDateFieldName: String { target.modificationDateFieldName }
    var isSortedByModification: Bool { false }
    var isIncremental: Bool { true }

    var destinations: [PageDestination] { target.infos.map(Self.destination) }

    /// - Throws: `SyncEngineError` `.invalidTarget` when two infos name the same object type.
    init(syncName: String, soupName: String, target: BriefcaseSyncDownTarget) throws {
        self.syncName = syncName
        self.target = target
        // The sync's own soupName is optional for briefcase (each info names its soup).
        self.soupName = soupName.isEmpty ? target.infos.first?.soupName ?? "" : soupName
        var seen: Set<String> = []
        for info in target.infos where !seen.insert(info.sobjectType.lowercased()).inserted {
            throw SyncEngineError.invalidTarget(
                syncName,
                "the briefcase target lists '\(info.sobjectType)' in two infos; keep one info per object type"
            )
        }
    }

    private static func destination(_ info: BriefcaseObjectInfo) -> PageDestination {
        PageDestination(
            soupName: info.soupName,
            idFieldName: info.idFieldName,
            modificationDateFieldName: info.modificationDateFieldName
        )
    }

    func fetch(
        since maxTimeStamp: Int64,
        org: any OrgClient,
        store: SoupStore,
        body: (DownPage) async throws -> Bool
    ) async throws {
        let changedAfter = maxTimeStamp > 0 ? Date(timeIntervalSince1970: Double(maxTimeStamp - 1) / 1000) : nil
        var relayToken: String?
        var total = 0
        var sentAny = false
        repeat {
            let page = try await org.primingRecords(
                relayToken: relayToken,
                changedAfter: relayToken == nil ? changedAfter : nil
            )
            try check(page)
            let batches = target.infos.map { info in (info, Self.unique(page.ids(of: info.sobjectType))) }
            total += batches.reduce(0) { $0 + $1.1.count }
            for (info, ids) in batches {
                let fields = SOQLText.ensuring([info.idFieldName, info.modificationDateFieldName], in: info.fieldlist)
                for start in stride(from: 0, to: ids.count, by: target.countIdsPerRetrieve) {
                    let slice = Array(ids[start..<min(start + target.countIdsPerRetrieve, ids.count)])
                    let records = try await org.retrieveCollection(info.sobjectType, ids: slice, fields: fields)
                    // Records deleted since the priming page come back as null: nothing to save.
                    let json = "[" + records.compactMap { $0?.jsonText }.joined(separator: ",") + "]"
                    sentAny = true
                    let downPage = DownPage(json: json, totalSize: total, destination: Self.destination(info))
                    guard try await body(downPage) else { return }
                }
            }
            relayToken = page.relayToken
        } while relayToken != nil
        if !sentAny {
            // Nothing changed: one empty page still records the run's totalSize (0).
            _ = try await body(DownPage(json: "[]", totalSize: 0))
        }
    }

    func remoteIDs(
        org: any OrgClient,
        store: SoupStore,
        syncID: Int64,
        body: (RemoteIDPage) async throws -> Bool
    ) async throws {
        var relayToken: String?
        repeat {
            let page = try await org.primingRecords(relayToken: relayToken, changedAfter: nil)
            try check(page)
            let ids = target.infos.flatMap { page.ids(of: $0.sobjectType) }
            guard try await body(.ids(ids)) else { return }
            relayToken = page.relayToken
        } while relayToken != nil
    }

    /// Refuses a page whose rules the org could not all serve.
    private func check(_ page: PrimingRecordsPage) throws {
        guard page.ruleErrors.isEmpty else {
            throw SyncEngineError.briefcaseRuleErrors(syncName, ruleIDs: page.ruleErrors)
        }
    }

    /// `ids` without repeats (a record two rules select is listed twice), first occurrence kept.
    private static func unique(_ ids: [String]) -> [String] {
        var seen: Set<String> = []
        return ids.filter { seen.insert($0).inserted }
    }
}
