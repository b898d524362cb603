import OrgClient
import SoupStore
import SyncConfig

/// Previews one sync down (sync-semantics §4, §5) with reads only: runs the queries the run would
/// send, from the same watermark, page by page, and asks the store what `upsertPage` would do
/// with each page (``SoupReader/previewPage(_:in:options:recordLimit:)``), keeping only counts.
/// `parent_children` targets split each page as the run does first (see
/// `SyncDownPreviewer+ParentChildren.swift`).
struct SyncDownPreviewer: SyncPreviewer {
    /// Stands for the id a sync that never ran gets on its first run: a new one, which no stored
    /// entry carries yet, so no stored record is unchanged for it.
    static let newSyncID = Int64.max

    let store: SoupStore
    let org: any OrgClient
    let registry: SyncStateRegistry
    /// The executable's plug-ins (custom targets).
    var plugins = CustomTargets()

    /// - Throws: `SyncEngineError`: the errors a run of `definition` would start with, `.stopped`,
    ///   `.server` and `.store` when a page fails.
    func preview(_ definition: SyncDefinition, full: Bool, replace: Bool, stop: StopSignal) async throws
        -> SyncPreview
    {
        let name = definition.name
        var fetcher = try DownTargetFactory.makeFetcher(for: definition, plugins: plugins)
        var soqlFetcher = fetcher as? SOQLDownFetcher
        if var soql = soqlFetcher {
            soql.restOnly = true  // decide, but create no job
            soqlFetcher = soql
            fetcher = soql
        }
        // A soup the store config declares but that is not registered yet would be registered
        // empty before the run; with no soup there is no index to check.
        var allSoupsExist = true
        for destination in fetcher.destinations where try !hasSoup(destination.soupName, syncName: name) {
            allSoupsExist = false
        }
        if allSoupsExist { try DownTargetFactory.checkSoup(of: fetcher, syncName: name, store: store) }
        let state = try registry.previewState(definition, replace: replace)
        let baseline = full || !fetcher.isIncremental ? -1 : max(state?.maxTimeStamp ?? -1, -1)
        var preview = SyncPreview(definition, operation: .syncDown, state: state)
        preview.isIncremental = baseline > 0
        preview.maxTimeStamp = baseline
        if let refresh = fetcher as? RefreshDownFetcher, try !self.hasSoup(refresh.sourceSoup, syncName: name) {
            return preview  // nothing stored to re-read
        }

        try await read(syncName: name, into: &preview) { preview in
            if stop.isStopRequested { return true }
            if let trees = fetcher as? ParentChildrenDownFetcher {
                return try await previewTrees(trees, since: baseline, syncID: state?.id, stop: stop, into: &preview)
            }
            return try await previewRecords(
                fetcher,
                since: baseline,
                localEntries: definition.options.mergeMode.localEntries,
                syncID: state?.id,
                soql: soqlFetcher,
                stop: stop,
                into: &preview
            )
        }
        return preview
    }

    /// Previews the pages `fetcher` reads from `baseline` as the run would write them; returns
    /// whether a stop was requested.
    private func previewRecords(
        _ fetcher: any DownTargetFetcher,
        since baseline: Int64,
        localEntries: LocalEntries,
        syncID: Int64?,
        soql soqlFetcher: SOQLDownFetcher?,
        stop: StopSignal,
        into preview: inout SyncPreview
    ) async throws -> Bool {
        var stopped = false
        try await fetcher.fetch(since: baseline, org: org, store: store) { page in
            if stop.isStopRequested {
                stopped = true
                return false
            }
            if let soqlFetcher, preview.apiDecision == nil {
                preview.apiDecision = soqlFetcher.decide(totalSize: page.totalSize, org: org).description
            }
            let destination = fetcher.destination(of: page)
            let options = PageUpsertOptions(
                externalIDPath: destination.idFieldName,
                localEntries: localEntries,
                syncID: syncID ?? Self.newSyncID,
                modificationDateField: nil
            )
            preview.pages += 1
            try await previewPage(page.json, in: destination.soupName, options: options, isChild: false, into: &preview)
            return true
        }
        return stopped
    }

    private func hasSoup(_ soup: String, syncName: String) throws -> Bool {
        do {
            return try store.read { try $0.hasSoup(soup) }
        } catch {
            throw SyncEngineError.wrapping(error, syncName: syncName)
        }
    }

    /// Counts and lists what `upsertPage` (or the save of a page of children) would do with one
    /// page of records (a query response or a JSON array) written into `soup`.
    func previewPage(
        _ page: String,
        in soup: String,
        options: PageUpsertOptions,
        isChild: Bool,
        into preview: inout SyncPreview
    ) async throws {
        let limit = preview.remainingItems
        let result = try await store.read { reader in
            try reader.previewPage(page, in: soup, options: options, recordLimit: limit)
        }
        Self.add(result, isChild: isChild, to: &preview)
    }

    private static func add(_ result: PagePreviewResult, isChild: Bool, to preview: inout SyncPreview) {
        // As the run counts them: a record repeated within one page counts once.
        let fetched = result.inserted + result.updated + result.skipped + result.unchanged
        preview.add(fetched, .fetched, isChild: isChild)
        preview.add(result.inserted, .created(.local), isChild: isChild)
        preview.add(result.updated, .updated(.local), isChild: isChild)
        preview.add(result.skipped, .skippedLocallyChanged, isChild: isChild)
        for record in result.records {
            let action: SyncPreview.Action
            switch record.action {
            case .insert: action = .create
            case .update: action = .update
            case .skip: action = .skip
            case .unchanged: continue  // nothing would change: not listed
            }
            preview.list(.local, action, recordID: record.recordID, entryID: record.entryID, isChild: isChild)
        }
        if fetched > result.records.count {
            preview.itemsTruncated = true
        }
    }
}
