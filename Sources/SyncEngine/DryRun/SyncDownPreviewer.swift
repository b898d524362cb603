import OrgClient
import SoupStore
import SyncConfig

/// Previews one sync down (sync-semantics §4, §5) with reads only: runs the queries the run would
/// send, from the same watermark, page by page, and asks the store what `upsertPage` would do
/// with each page (``SoupReader/previewPage(_:in:options:recordLimit:)``), keeping only counts.
struct SyncDownPreviewer: Sendable {
    let store: SoupStore
    let org: any OrgClient
    let registry: SyncStateRegistry

    /// - Throws: `SyncEngineError`: the errors a run of `definition` would start with, `.stopped`,
    ///   `.server` and `.store` when a page fails.
    func preview(_ definition: SyncDefinition, full: Bool, replace: Bool, stop: StopSignal) async throws
        -> SyncPreview
    {
        let name = definition.name
        let fetcher = try DownTargetFactory.makeFetcher(for: definition)
        if fetcher is ParentChildrenDownFetcher {
            throw SyncEngineError.previewNotSupported(name, kind: "parent_children", operation: .syncDown)
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
        var preview = SyncPreview(
            syncName: name,
            syncID: state?.id,
            operation: .syncDown,
            targetKind: definition.targetKindName
        )
        preview.isIncremental = baseline > 0
        preview.maxTimeStamp = baseline
        if let refresh = fetcher as? RefreshDownFetcher, try !self.hasSoup(refresh.sourceSoup, syncName: name) {
            return preview  // nothing stored to re-read
        }

        let before = org.statistics()
        let mergeMode = definition.options.storeMergeMode
        var stopped = stop.isStopRequested
        if !stopped {
            do {
                try await fetcher.fetch(since: baseline, org: org, store: store) { page in
                    if stop.isStopRequested {
                        stopped = true
                        return false
                    }
                    let limit = preview.remainingItems
                    let destination = fetcher.destination(of: page)
                    let options = PageUpsertOptions(
                        externalIDPath: destination.idFieldName, mergeMode: mergeMode, modificationDateField: nil)
                    let result = try await store.read { reader in
                        try reader.previewPage(
                            page.json, in: destination.soupName, options: options, recordLimit: limit)
                    }
                    Self.add(result, to: &preview)
                    return true
                }
            } catch is CancellationError {
                stopped = true
            } catch {
                throw SyncEngineError.wrapping(error, syncName: name)
            }
        }
        if stopped { throw SyncEngineError.stopped(name) }
        preview.requests = org.statistics().requests - before.requests
        return preview
    }

    private func hasSoup(_ soup: String, syncName: String) throws -> Bool {
        do {
            return try store.read { try $0.hasSoup(soup) }
        } catch {
            throw SyncEngineError.wrapping(error, syncName: syncName)
        }
    }

    private static func add(_ result: PagePreviewResult, to preview: inout SyncPreview) {
        preview.pages += 1
        // As the run counts them: a record repeated within one page counts once.
        preview.fetched += result.inserted + result.updated + result.skipped
        preview.local.created += result.inserted
        preview.local.updated += result.updated
        preview.skippedLocallyChanged += result.skipped
        for record in result.records {
            let action: SyncPreview.Action =
                switch record.action {
                case .insert: .create
                case .update: .update
                case .skip: .skip
                }
            preview.list(.local, action, recordID: record.recordID, entryID: record.entryID)
        }
        if result.inserted + result.updated + result.skipped > result.records.count {
            preview.itemsTruncated = true
        }
    }
}
