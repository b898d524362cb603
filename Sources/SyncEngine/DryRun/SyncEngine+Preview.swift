import SyncConfig

extension SyncEngine {
    /// What running `operation` for `definition` now would change, computed with reads only
    /// (`syncrun run --dry-run`).
    ///
    /// The preview sends the requests the run would read with (the queries, page by page, from
    /// the same watermark; the ids-only queries of ghost cleaning; the sync up conflict check,
    /// a collection retrieve sent as `POST`) and none that write. The store is only read, in read
    /// transactions: a sync that never ran is previewed as a first run without creating its
    /// state, no lock is taken, and a soup that is not registered yet is taken as empty. Records
    /// are counted page by page, never held; ghost cleaning holds the ids of this sync's
    /// candidates (see ``SyncPreview``). `parent_children` targets are previewed with the run's
    /// own walk of the queries and nested child pages (sync down, ghost cleaning) or selection of
    /// trees (sync up); their counts cover parents and children (``SyncPreview/children`` is the
    /// children's share).
    ///
    /// ```swift
    /// let preview = try await engine.preview(definition, operation: .syncUp)
    /// print(preview.org.created, preview.org.updated, preview.org.deleted, preview.conflicts)
    /// for item in preview.items { print(item.side, item.action, item.recordID ?? "-") }
    /// ```
    ///
    /// - Parameters:
    ///   - definition: The sync, from the config.
    ///   - operation: `.syncDown`, `.cleanGhosts` (both for a sync down definition) or `.syncUp`.
    ///   - full: Sync down: ignore the watermark, as `syncDown(_:full:)` does.
    ///   - replace: As in ``prepare(_:replace:)``: a stored definition that differs from
    ///     `definition` is previewed as recreated (no watermark) instead of refused.
    ///   - stop: Checked between pages; when raised the preview throws `.stopped`.
    /// - Returns: The counts and the first ``SyncPreview/itemLimit`` affected records.
    /// - Throws: `SyncEngineError`, with the sync's name: the errors the run would start with
    ///   (`.wrongType`, `.notSupported`, `.invalidTarget`, `.definitionChanged`,
    ///   `.alreadyRunning`, `.ghostCleaningRefused`), `.stopped`, `.server` and `.store`.
    public func preview(
        _ definition: SyncDefinition,
        operation: SyncOperation,
        full: Bool = false,
        replace: Bool = false,
        stop: StopSignal = StopSignal()
    ) async throws -> SyncPreview {
        switch operation {
        case .syncDown:
            try await previewer(SyncDownPreviewer.self).preview(definition, full: full, replace: replace, stop: stop)
        case .cleanGhosts:
            try await previewer(GhostPreviewer.self).preview(definition, replace: replace, stop: stop)
        case .syncUp:
            try await previewer(SyncUpPreviewer.self).preview(definition, replace: replace, stop: stop)
        }
    }

    /// A previewer of this engine's store and org, with its plug-ins.
    private func previewer<Previewer: SyncPreviewer>(_: Previewer.Type) -> Previewer {
        Previewer(store: store, org: org, registry: registry, plugins: configuration.customTargets)
    }
}
