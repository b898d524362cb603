import Foundation
import Logging
import OrgAccess
import OrgClient
import SoupStore
import SyncConfig
import SyncEngine
import SyncLedger

/// What every command does before it syncs, in a library so that `syncrun`'s commands and an
/// executable of one's own do it alike: open the store, connect to the org, check that the store
/// belongs to that org and user (``StoreBindingCheck``, before any store write or data request),
/// register the config's soups the store lacks, stop the runs a killed process left `RUNNING`,
/// and run the engine with an event stream the caller consumes.
///
/// A ``SyncSession`` is made only by ``with(config:org:connector:options:notify:_:)`` after the
/// binding check passed, so its ``engine`` never runs over a store of another org.
///
/// ```swift
/// try await SyncSession.with(config: loaded, org: definition, connector: connector, options: options,
///                            notify: { print($0) }) { session in
///     try await session.run(stop: StopSignal(), consume: { for await _ in $0 {} }) { engine, stop, events in
///         try await engine.syncDown(definition, stop: stop, events: events)
///     }
/// }
/// ```
public struct SyncSession: Sendable {
    /// What the caller chose.
    public struct Options: Sendable {
        /// The store file.
        public var storePath: String
        /// A dry run: nothing is created or repaired (a missing store is replaced by an empty
        /// temporary one, soups are not registered, killed runs are not recovered, the binding is
        /// checked but not recorded, a `local:DIR` org must already exist).
        public var dryRun: Bool
        /// The executable's plug-ins (custom targets in Swift).
        public var customTargets: CustomTargets
        /// Where the store, the clients and the engine log.
        public var logger: Logger
        /// The requests a sync up keeps in flight, overriding each sync's
        /// `options.maxConcurrentRequests` (`--max-requests`); `nil` leaves each sync's own.
        public var maxConcurrentRequests: Int?
        /// The API shares (percent) below which a sync up slows down and stops, overriding each
        /// sync's `minApiShare` / `stopApiShare` (`--min-api-share`, `--stop-api-share`).
        public var minApiShare: Int?
        public var stopApiShare: Int?

        /// Creates the options.
        public init(
            storePath: String,
            dryRun: Bool = false,
            customTargets: CustomTargets = CustomTargets(),
            logger: Logger,
            maxConcurrentRequests: Int? = nil
        ) {
            self.maxConcurrentRequests = maxConcurrentRequests
            self.storePath = storePath
            self.dryRun = dryRun
            self.customTargets = customTargets
            self.logger = logger
        }
    }

    /// The config, as loaded.
    public let config: LoadedConfig
    /// The org.
    public let connection: OrgConnection
    /// The store, checked to belong to ``connection``'s org and user.
    public let store: SoupStore
    /// The engine over ``store`` and ``connection``.
    public let engine: SyncEngine
    // Made only by `open` below (the memberwise initialiser is internal), so a caller outside this
    // module cannot have a session without its checks.

    /// Opens the store, connects to `definition`, runs the checks and repairs above, then `body`
    /// with the session; a local org runs, and the clients live, until `body` returns.
    ///
    /// - Throws: ``SyncSessionError`` (refused) when the store belongs to another org or user, or
    ///   a dry run names a local org that does not exist; (failed) when the identity call fails;
    ///   ``SoupStore/SoupStoreError``; ``OrgAccess/OrgAccessError``; ``SyncEngine/SyncEngineError``;
    ///   what `body` throws.
    public static func with<T: Sendable>(
        config: LoadedConfig,
        org definition: OrgDefinition,
        connector: OrgConnector,
        options: Options,
        notify: SessionNotice.Handler,
        _ body: (SyncSession) async throws -> T
    ) async throws -> T {
        var scratch: URL?
        defer { if let scratch { try? FileManager.default.removeItem(at: scratch) } }
        let store = try openStore(options, scratch: &scratch, notify: notify)
        if options.dryRun, case .local(let settings) = definition.source,
            !(connector.localOrgLauncher?.hasOrg(inDirectory: settings.directory) ?? true)
        {
            throw SyncSessionError(
                .refused,
                "there is no local org in '\(settings.directory)' yet, and a dry run creates nothing; run once "
                    + "without --dry-run (with --seed FILE to load data), or create it with 'syncrun org seed'"
            )
        }
        return try await connector.withConnection(to: definition) { connection in
            for note in connection.notes { notify(SessionNotice(note)) }
            // Before any store write: a store synced with another org or user is refused.
            try await StoreBindingCheck(store: store, path: options.storePath, connection: connection)
                .run(readOnly: options.dryRun, notify: notify)
            if !options.dryRun { try store.registerMissingSoups(of: config.userStore) }
            var settings = SyncEngineConfiguration()
            settings.customTargets = options.customTargets
            settings.maxConcurrentRequests = options.maxConcurrentRequests
            settings.minApiShare = options.minApiShare
            settings.stopApiShare = options.stopApiShare
            settings.applyTuning(environment: ProcessInfo.processInfo.environment)
            let engine = SyncEngine(
                store: store,
                org: connection.client,
                logger: options.logger,
                configuration: settings
            )
            if !options.dryRun {
                for state in try engine.recoverInterruptedRuns() {
                    notify(
                        SessionNotice(
                            "warning: sync '\(state.name ?? String(state.id))' was left RUNNING by a process that "
                                + "is gone; marked STOPPED"
                        )
                    )
                }
            }
            return try await body(SyncSession(config: config, connection: connection, store: store, engine: engine))
        }
    }

    /// Runs `work` with the engine, `stop` (which the caller may trigger, the CLI on SIGINT and
    /// SIGTERM) and the event stream that `consume` reads meanwhile (the CLI renders it).
    public func run<T: Sendable>(
        stop: StopSignal,
        consume: @escaping @Sendable (AsyncStream<SyncEvent>) async -> Void,
        _ work: (SyncEngine, StopSignal, AsyncStream<SyncEvent>.Continuation) async throws -> T
    ) async throws -> T {
        try await SyncEventStream.run(consume: consume) { events in try await work(engine, stop, events) }
    }

    /// The store a session works on: created when missing; in a dry run opened read-only, or
    /// replaced by an empty temporary one (in `scratch`) when missing.
    private static func openStore(
        _ options: Options,
        scratch: inout URL?,
        notify: SessionNotice.Handler
    ) throws -> SoupStore {
        let path = options.storePath
        guard options.dryRun else {
            let store = try SoupStore.ledger(path: path)
            for notice in SessionNotice.opening(store) { notify(notice) }
            return store
        }
        guard FileManager.default.fileExists(atPath: path) else {
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("syncrun-dry-run-\(UUID().uuidString)")
            scratch = directory
            return try SoupStore.ledger(path: directory.appendingPathComponent("store.db").path)
        }
        return try SoupStore.ledgerReadOnly(path: path)
    }
}
