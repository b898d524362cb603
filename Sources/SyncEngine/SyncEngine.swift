import Logging
import OrgClient
import SoupStore
import SyncConfig

/// Runs sync downs, resyncs and ghost cleaning between an org and a store of soups, the way
/// Mobile SDK MobileSync does, with its weak points fixed (sync-semantics §3–§6, §11).
///
/// Definitions come from the config; the first run of a name creates its state in `syncs_soup`,
/// later runs are incremental resyncs from the stored watermark. Progress is reported as
/// ``SyncEvent``s on an `AsyncStream` continuation the caller owns (and finishes).
///
/// ```swift
/// let engine = SyncEngine(store: store, org: org, logger: logger)
/// _ = try engine.recoverInterruptedRuns()
/// let (events, continuation) = AsyncStream.makeStream(of: SyncEvent.self)
/// let summary = try await engine.syncDown(definition, events: continuation)
/// continuation.finish()
/// print(summary.status)   // DONE, FAILED or STOPPED
/// ```
public struct SyncEngine: Sendable {
    /// The store the engine writes to.
    public let store: SoupStore
    /// The org the engine reads from.
    public let org: any OrgClient
    /// The settings.
    public let configuration: SyncEngineConfiguration
    let logger: Logger

    /// Creates an engine.
    ///
    /// - Parameters:
    ///   - store: The soups and `syncs_soup`.
    ///   - org: The org (``RESTOrgClient`` for a real org or the local org).
    ///   - logger: Receives debug-level records (never record values or tokens).
    ///   - configuration: Owner identity and clock.
    public init(
        store: SoupStore,
        org: any OrgClient,
        logger: Logger,
        configuration: SyncEngineConfiguration = SyncEngineConfiguration()
    ) {
        self.store = store
        self.org = org
        self.logger = logger
        var configuration = configuration
        // Plug-ins log through the engine's logger, never one of their own (docs/architecture.md).
        configuration.customTargets.engineLogger = logger
        self.configuration = configuration
    }

    var registry: SyncStateRegistry {
        SyncStateRegistry(store: store, policy: SyncLockPolicy(configuration: configuration), logger: logger)
    }

    /// Turns the `RUNNING` states left by killed processes into `STOPPED` (§10.2). Call it once
    /// before running syncs.
    ///
    /// - Returns: The states it stopped.
    /// - Throws: `SyncEngineError` `.store`.
    public func recoverInterruptedRuns() throws -> [StoredSyncState] {
        do {
            return try registry.recoverInterruptedRuns()
        } catch {
            throw SyncEngineError.wrapping(error, syncName: nil)
        }
    }

    /// Checks that `definition` can run and returns its stored state, creating it (`NEW`) on
    /// first use.
    ///
    /// - Parameter replace: Recreate the stored definition when it differs from `definition`
    ///   (the watermark is reset; the records it fetched stay attributed to it).
    /// - Throws: `SyncEngineError`: `.wrongType`, `.notSupported`, `.invalidTarget`,
    ///   `.definitionChanged` (naming the keys that differ), `.alreadyRunning`, `.store`.
    @discardableResult
    public func prepare(_ definition: SyncDefinition, replace: Bool = false) throws -> StoredSyncState {
        switch definition.type {
        case .syncDown:
            let fetcher = try DownTargetFactory.makeFetcher(for: definition, plugins: configuration.customTargets)
            return try prepare(definition, fetcher: fetcher, replace: replace)
        case .syncUp:
            _ = try SyncUpTargetCheck.plan(for: definition, store: store, plugins: configuration.customTargets)
            return try storedState(of: definition, replace: replace)
        }
    }

    /// ``prepare(_:replace:)`` for a sync down whose fetcher is already made (a custom target's
    /// plug-in is made once per run).
    private func prepare(_ definition: SyncDefinition, fetcher: any DownTargetFetcher, replace: Bool) throws
        -> StoredSyncState
    {
        try DownTargetFactory.checkSoup(of: fetcher, syncName: definition.name, store: store)
        return try storedState(of: definition, replace: replace)
    }

    private func storedState(of definition: SyncDefinition, replace: Bool) throws -> StoredSyncState {
        do {
            return try registry.prepare(definition, replace: replace)
        } catch {
            throw SyncEngineError.wrapping(error, syncName: definition.name)
        }
    }

    /// Runs `definition` as a sync down: a full fetch the first time, then incremental from the
    /// stored watermark (a resync).
    ///
    /// - Parameters:
    ///   - full: Ignore the watermark and fetch everything (`--full`); the new watermark is stored.
    ///   - replace: As in ``prepare(_:replace:)``.
    ///   - stop: Checked between pages; when raised the run ends `STOPPED`.
    ///   - events: Receives the run's events; not finished by the engine.
    /// - Returns: The totals. A run that fails or stops is reported here (and in the state), not
    ///   thrown.
    /// - Throws: `SyncEngineError` when the run cannot start (see ``prepare(_:replace:)``).
    public func syncDown(
        _ definition: SyncDefinition,
        full: Bool = false,
        replace: Bool = false,
        stop: StopSignal = StopSignal(),
        events: AsyncStream<SyncEvent>.Continuation? = nil
    ) async throws -> SyncRunSummary {
        var fetcher = try DownTargetFactory.makeFetcher(for: definition, plugins: configuration.customTargets)
        let state = try prepare(definition, fetcher: fetcher, replace: replace)
        if var soql = fetcher as? SOQLDownFetcher {
            soql.journal = BulkJobJournal(store: store, syncID: state.id)
            soql.bulkPageSize = configuration.bulkResultsPageSize
            soql.maxConcurrentRequests =
                configuration.maxConcurrentRequests ?? definition.options.maxConcurrentRequests
            soql.bulkPoller = BulkJobPoller(policy: configuration.bulkJobPolling, clock: configuration.clock)
            fetcher = soql
        }
        var runner = SyncDownRunner(store: store, org: org, registry: registry, logger: logger, events: events)
        runner.longTransactions = configuration.longTransactions
        runner.setAside = configuration.scatteredIndexesSetAside
        runner.bytesPerCommit = configuration.longTransactionCommitBytes
        return try await runner.run(
            definition,
            state: state,
            fetcher: fetcher,
            full: full,
            localEntries: definition.options.mergeMode.localEntries,
            stop: stop
        )
    }

    /// Deletes the records `definition` fetched that the org no longer returns for it, unless
    /// another sync that fetched them may still return them, or they have local changes (§6).
    ///
    /// - Returns: The totals; ``SyncRunSummary/deletedGhosts`` is the number deleted.
    /// - Throws: `SyncEngineError` when the pass cannot start: `.ghostCleaningRefused` for a
    ///   query with LIMIT or OFFSET, and the errors of ``prepare(_:replace:)``.
    public func cleanGhosts(
        _ definition: SyncDefinition,
        stop: StopSignal = StopSignal(),
        events: AsyncStream<SyncEvent>.Continuation? = nil
    ) async throws -> SyncRunSummary {
        var fetcher = try DownTargetFactory.makeFetcher(for: definition, plugins: configuration.customTargets)
        if var soql = fetcher as? SOQLDownFetcher {
            soql.bulkPoller = BulkJobPoller(policy: configuration.bulkJobPolling, clock: configuration.clock)
            fetcher = soql
        }
        let state = try prepare(definition, fetcher: fetcher, replace: false)
        let cleaner = GhostCleaner(store: store, org: org, registry: registry, logger: logger, events: events)
        return try await cleaner.run(definition, state: state, fetcher: fetcher, stop: stop)
    }

    /// The stored sync states, by id: all of them, or the one named `name`.
    ///
    /// - Throws: `SyncEngineError` `.unknownSync` when `name` is given and not stored; `.store`.
    public func syncStates(named name: String? = nil) throws -> [StoredSyncState] {
        let states: [StoredSyncState]
        do {
            states = try store.read { reader in
                if let name { return try reader.syncState(named: name).map { [$0] } ?? [] }
                return try reader.syncStates()
            }
        } catch {
            throw SyncEngineError.wrapping(error, syncName: name)
        }
        if let name, states.isEmpty {
            throw SyncEngineError(
                code: .unknownSync,
                message: "no sync named '\(name)' in the store; it is created by its first 'syncrun sync'",
                syncName: name
            )
        }
        return states
    }

    /// The stored state with id `id`.
    ///
    /// - Throws: `SyncEngineError` `.unknownSync`, `.store`.
    public func syncState(id: Int64) throws -> StoredSyncState {
        let state: StoredSyncState?
        do {
            state = try store.read { try $0.syncState(id: id) }
        } catch {
            throw SyncEngineError.wrapping(error, syncName: nil)
        }
        guard let state else { throw SyncEngineError.unknownSync(id: id) }
        return state
    }
}
