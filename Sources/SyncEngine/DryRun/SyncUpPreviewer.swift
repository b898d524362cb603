import OrgClient
import SoupStore
import SyncConfig

/// Previews one sync up (sync-semantics §7, §8.1–§8.3) with reads only: scans the dirty records in
/// entry-id order, a page of 2,000 at a time, runs the run's `LEAVE_IF_CHANGED` check on each
/// page (``SyncUpConflictChecker``: one collection retrieve per sObject type and 2,000 ids, a
/// read sent as `POST /composite/sobjects/<type>`), and decides each record as the run does
/// before sending.
///
/// What the org would answer to the sends themselves (refusals, or an update whose record was
/// deleted meanwhile under `OVERWRITE`) cannot be known without sending them. `parent_children`
/// targets are previewed tree by tree (see `SyncUpPreviewer+ParentChildren.swift`).
struct SyncUpPreviewer: SyncPreviewer {
    let store: SoupStore
    let org: any OrgClient
    let registry: SyncStateRegistry
    /// The executable's plug-ins (custom targets).
    var plugins = CustomTargets()

    /// Dirty records read, and checked, per page.
    static let pageSize = 2000

    /// - Throws: `SyncEngineError`: the errors a run of `definition` would start with
    ///   (`.wrongType`, `.notSupported` for custom targets, `.invalidTarget`, `.definitionChanged`,
    ///   `.alreadyRunning`), `.stopped`, `.server`, `.store`.
    func preview(_ definition: SyncDefinition, replace: Bool, stop: StopSignal) async throws -> SyncPreview {
        let name = definition.name
        let setup = try SyncUpTargetCheck.plan(for: definition, plugins: plugins)
        let (target, plan) = (setup.target, setup.plan)
        let soup = definition.soupName
        let hasSoup: Bool
        do {
            hasSoup = try await store.read { reader in try reader.hasSoup(soup) }
        } catch {
            throw SyncEngineError.wrapping(error, syncName: name)
        }
        let state = try registry.previewState(definition, replace: replace)
        var preview = SyncPreview(definition, operation: .syncUp, state: state)
        // A stop is seen between pages of dirty records (`.stopped` thrown by the page loops).
        try await read(syncName: name, into: &preview) { preview in
            if target.kind == .parentChildren, let info = target.parentChildren {
                let trees = ParentChildrenSyncUpPlan(info: info, target: target, parent: plan)
                try await previewTrees(trees, syncName: name, stop: stop, into: &preview)
            } else if hasSoup, let sender = setup.customSender(org: org) {
                try await previewCustom(in: soup, target: target, sender: sender, stop: stop, into: &preview)
            } else if hasSoup {
                // No soup yet: it would be registered empty, with nothing dirty.
                try await previewRecords(
                    in: soup,
                    target: target,
                    plan: plan,
                    syncName: name,
                    stop: stop,
                    into: &preview
                )
            }
            return false
        }
        return preview
    }

    /// Previews the sync up of a target with one soup, a page of dirty records at a time.
    private func previewRecords(
        in soup: String,
        target: SyncUpTarget,
        plan: SyncUpRequestPlan,
        syncName: String,
        stop: StopSignal,
        into preview: inout SyncPreview
    ) async throws {
        let checker = SyncUpConflictChecker(org: org, modificationDateFieldName: plan.modificationDateFieldName)
        try await forEachDirtyPage(in: soup, target: target, syncName: syncName, stop: stop) { records in
            // Endpoint targets read server versions with their `modificationDate` request (GETs).
            let endpoint = try target.endpoint.map { info in
                EndpointSyncUpSender(
                    client: try EndpointDownFetcher.endpointClient(org, syncName: syncName),
                    info: info,
                    plan: plan
                )
            }
            let versions: [Int64: SyncUpConflictChecker.ServerVersion]
            if plan.isOverwrite {
                versions = [:]
            } else if let endpoint {
                versions = try await endpoint.serverVersions(of: records)
            } else {
                versions = try await checker.serverVersions(of: records)
            }
            preview.pages += 1
            preview.selected += records.count
            for record in records {
                Self.decide(
                    record,
                    kind: target.kind,
                    plan: plan,
                    server: versions[record.entryID],
                    endpoint: endpoint,
                    into: &preview
                )
            }
        }
    }

    /// Reads the dirty records of `soup` a page at a time, in entry-id order, and hands each page
    /// to `body`.
    private func forEachDirtyPage(
        in soup: String,
        target: SyncUpTarget,
        syncName: String,
        stop: StopSignal,
        _ body: ([SyncUpRecord]) async throws -> Void
    ) async throws {
        var after: Int64 = 0
        while true {
            if stop.isStopRequested || Task.isCancelled { throw SyncEngineError.stopped(syncName) }
            let last = after
            let entries = try await store.read { reader in
                try reader.dirtyEntries(in: soup, afterEntryID: last, limit: Self.pageSize)
            }
            guard let lastEntry = entries.last else { return }
            after = lastEntry.entryID
            let records = try entries.map {
                try SyncUpRecord(
                    entry: $0,
                    idFieldName: target.idFieldName,
                    modificationDateFieldName: target.modificationDateFieldName,
                    dirtyWithoutOperationIsUpdate: target.kind != .single
                )
            }
            try await body(records)
            if entries.count < Self.pageSize { return }
        }
    }

    /// Previews a custom target's sync up with the run's decide step (its `isNewerThanServer`
    /// reads under `LEAVE_IF_CHANGED`), a page of dirty records at a time.
    private func previewCustom(
        in soup: String,
        target: SyncUpTarget,
        sender: CustomSyncUpSender,
        stop: StopSignal,
        into preview: inout SyncPreview
    ) async throws {
        try await forEachDirtyPage(in: soup, target: target, syncName: sender.definition.syncName, stop: stop) {
            records in
            let decisions = try await sender.decide(records)
            preview.pages += 1
            preview.selected += records.count
            for record in records {
                let count: SyncPreview.Count =
                    switch decisions[record.entryID] {
                    case .send(let view, _)?:
                        switch view.action {
                        case .create: .created(.org)
                        case .update: .updated(.org)
                        case .delete: .deleted(.org)
                        }
                    case .outcome(let outcome)?:
                        switch outcome {
                        case .removedLocally, .conflict, .failed: SyncPreview.Count(outcome)
                        default: .skipped
                        }
                    case nil: .skipped
                    }
                preview.record(count, recordID: record.storedID, entryID: record.entryID, isChild: false)
            }
        }
    }

    /// Counts and lists `record` as the run would decide it before sending.
    static func decide(
        _ record: SyncUpRecord,
        kind: SyncUpTargetKind,
        plan: SyncUpRequestPlan,
        server: SyncUpConflictChecker.ServerVersion?,
        endpoint: EndpointSyncUpSender? = nil,
        into preview: inout SyncPreview
    ) {
        let count: SyncPreview.Count
        if let outcome = SyncUpConflictChecker.outcomeBeforeSending(record, server: server) {
            count = SyncPreview.Count(outcome)
        } else if let endpoint {
            count =
                switch endpoint.write(for: record) {
                case .send(_, .create, _): .created(.org)
                case .send(_, .update, _): .updated(.org)
                case .send: .deleted(.org)
                case .invalid: .failed
                }
        } else {
            count =
                switch plan.request(for: record) {
                case .create, .upsert: .created(.org)
                case .update: .updated(.org)
                // A collection delete needs only ids; the single and batch requests name the type.
                case .delete(nil, _) where kind != .collection: .failed
                case .delete: .deleted(.org)
                case .invalid: .failed
                }
        }
        preview.record(count, recordID: record.storedID, entryID: record.entryID, isChild: false)
    }
}
