import OrgClient
import SoupStore
import SyncConfig

extension SyncEngine {
    /// Runs `definition` as a sync up: every record of its soup marked `__local__` is created,
    /// updated or deleted on the org, in entry-id order (sync-semantics §7, §8); `parent_children`
    /// targets send parent trees (§8.4). Dirty records are streamed batch by batch, and creates carry an intent so a lost
    /// response is recognised on the next run instead of creating the record twice.
    ///
    /// Under `LEAVE_IF_CHANGED` a record the server changed since it was synced down is left
    /// alone on both sides, with a structured `__last_error__`; under `OVERWRITE` the local version
    /// wins. Records the server refuses keep their flags and get the server's errors in
    /// `__last_error__`. Both are counted and listed in the summary, and the run still ends `DONE`
    /// (with `failedCount` / `conflictCount` in the state).
    ///
    /// ```swift
    /// let summary = try await engine.syncUp(definition)
    /// if summary.hasRecordIssues { exitCode = 1 }   // see summary.issues
    /// ```
    ///
    /// - Parameters:
    ///   - replace: As in ``prepare(_:replace:)``.
    ///   - stop: Checked between batches; when raised the run ends `STOPPED`.
    ///   - events: Receives a warning when records failed or conflicted; not finished by the engine.
    /// - Returns: The totals. A run that fails or stops is reported here (and in the state).
    /// - Throws: `SyncEngineError` when the run cannot start: `.wrongType`, `.notSupported`
    ///   (a custom target whose plug-in is not registered), `.invalidTarget`, `.definitionChanged`,
    ///   `.alreadyRunning`, `.store`.
    public func syncUp(
        _ definition: SyncDefinition,
        replace: Bool = false,
        stop: StopSignal = StopSignal(),
        events: AsyncStream<SyncEvent>.Continuation? = nil
    ) async throws -> SyncUpSummary {
        let setup = try SyncUpTargetCheck.plan(for: definition, store: store, plugins: configuration.customTargets)
        let state: StoredSyncState
        do {
            state = try registry.prepare(definition, replace: replace)
        } catch {
            throw SyncEngineError.wrapping(error, syncName: definition.name)
        }
        var runner = SyncUpRunner(store: store, org: org, registry: registry, logger: logger, events: events)
        runner.customSender = setup.customSender(org: org)
        runner.bulkPoller = BulkJobPoller(policy: configuration.bulkJobPolling, clock: configuration.clock)
        runner.window = RequestWindow(
            limit: configuration.maxConcurrentRequests ?? definition.options.maxConcurrentRequests
        )
        runner.lockRetry = RecordLockRetry(policy: configuration.recordLockRetry, clock: configuration.clock)
        runner.allocation = APIAllocationGuard(
            slowBelow: Double(configuration.minApiShare ?? definition.options.minApiShare),
            stopBelow: Double(configuration.stopApiShare ?? definition.options.stopApiShare)
        )
        return try await runner.run(definition, target: setup.target, plan: setup.plan, state: state, stop: stop)
    }
}
