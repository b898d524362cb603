import Foundation
import LocalOrg
import Logging
import OrgClient
import SoupStore
import SyncConfig
import SyncEngine
import SyncLedger

/// What the sync commands share: load the config, open the store (registering missing soups),
/// start the org, recover killed runs, install the signal handlers, render events, and turn the
/// outcome into an exit status (0 only when every step ended `DONE`; 1 when one failed or
/// stopped; 2 for usage and config errors).
struct SyncSession {
    let store: StoreOptions
    let org: OrgOptions
    let format: SyncOutputFormat

    static var logger: Logger { CLILogging.logger }

    /// The user syncs config, valid, or a usage error (status 2) naming the problems.
    func loadConfig() throws -> LoadedConfig {
        let loaded = try store.config.load()
        for diagnostic in loaded.diagnostics { StandardStreams.writeError(DiagnosticText.plain(diagnostic) + "\n") }
        if loaded.hasErrors {
            throw CLIError.usage(
                "the config has \(loaded.errorCount) error(s); run 'syncrun validate' for details"
            )
        }
        return loaded
    }

    /// Runs `work`, which runs steps and returns their summaries; prints the totals and turns
    /// them into the exit status.
    func run(
        _ work:
            @escaping (LoadedConfig, SyncEngine, StopSignal, AsyncStream<SyncEvent>.Continuation) async throws
            -> [SyncRunSummary]
    ) async throws {
        let renderer = SyncEventRenderer(format: format)
        let summaries = try await session(renderer: renderer, work)
        let failed = summaries.first { $0.status != .done }
        let withIssues = summaries.first { $0.status == .done && !$0.isClean }
        renderer.renderTotals(summaries, status: failed?.status.rawValue ?? "DONE")
        if let failed {
            throw CLIError(
                "sync '\(failed.syncName)' ended \(failed.status.rawValue)"
                    + (failed.error.map { ": \($0)" } ?? "")
            )
        }
        if let withIssues {
            throw CLIError(
                "sync '\(withIssues.syncName)' ended DONE but \(withIssues.conflicts) record(s) conflicted and "
                    + "\(withIssues.failed) failed; they stay marked local with the reason in '__last_error__' "
                    + "('syncrun store get' shows them); fix them and run again"
            )
        }
    }

    /// Loads the config, opens the store (registering missing soups), starts the org, recovers
    /// killed runs, installs the signal handlers and runs `work` while `renderer` renders its events.
    ///
    /// With `readOnly` (dry runs) nothing is created or repaired: a missing store is replaced by
    /// an empty temporary one, soups are not registered, killed runs are not recovered, and a
    /// `local:DIR` org must already exist.
    func session<T: Sendable>(
        renderer: SyncEventRenderer,
        readOnly: Bool = false,
        _ work: @escaping (LoadedConfig, SyncEngine, StopSignal, AsyncStream<SyncEvent>.Continuation) async throws -> T
    ) async throws -> T {
        let config = try loadConfig()
        var scratch: URL?
        defer { if let scratch { try? FileManager.default.removeItem(at: scratch) } }
        let soupStore: SoupStore
        if readOnly, !FileManager.default.fileExists(atPath: store.resolvedStorePath) {
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("syncrun-dry-run-\(UUID().uuidString)")
            scratch = directory
            soupStore = try StoreErrors.converting {
                try SoupStore.ledger(path: directory.appendingPathComponent("store.db").path)
            }
        } else if readOnly {
            soupStore = try StoreErrors.converting { try SoupStore.ledgerReadOnly(path: store.resolvedStorePath) }
        } else {
            soupStore = try store.openStore(create: true)
        }
        if readOnly, let directory = org.localDirectory,
            !FileManager.default.fileExists(
                atPath: URL(fileURLWithPath: directory).appendingPathComponent(OrgDatabase.fileName).path
            )
        {
            throw CLIError.usage(
                "there is no local org in '\(directory)' yet, and a dry run creates nothing; run once without "
                    + "--dry-run (with --seed FILE to load data), or create it with 'syncrun org seed'"
            )
        }
        let project = try ProjectContext.load(configDirectory: store.config.configDirectory)
        return try await org.withConnection(project: project, logger: Self.logger) { connection in
            let client = connection.client
            // Before any store write: a store synced with another org or user is refused.
            try await StoreBindingCheck(store: soupStore, path: store.resolvedStorePath, connection: connection)
                .run(readOnly: readOnly)
            if !readOnly { try registerMissingSoups(config.userStore, in: soupStore) }
            var settings = SyncEngineConfiguration()
            settings.customTargets = InstalledPlugins.targets
            let engine = SyncEngine(store: soupStore, org: client, logger: Self.logger, configuration: settings)
            let recovered = readOnly ? [] : try Self.converting { try engine.recoverInterruptedRuns() }
            for state in recovered {
                StandardStreams.writeError(
                    "warning: sync '\(state.name ?? String(state.id))' was left RUNNING by a process that is gone; "
                        + "marked STOPPED\n"
                )
            }
            let stop = StopSignal()
            let stopper = SignalStopper(stop: stop)
            let (events, continuation) = AsyncStream.makeStream(of: SyncEvent.self)
            async let rendering: Void = renderer.render(events)
            let result: T
            do {
                result = try await Self.converting { try await work(config, engine, stop, continuation) }
            } catch {
                continuation.finish()
                await rendering
                throw error
            }
            continuation.finish()
            await rendering
            withExtendedLifetime(stopper) {}
            return result
        }
    }

    /// Registers the soups of the store config that the store lacks; existing soups are left
    /// untouched, as MobileSync does.
    private func registerMissingSoups(_ config: StoreConfig?, in soupStore: SoupStore) throws {
        guard let config else { return }
        try StoreErrors.converting {
            try soupStore.write { writer in
                for soup in config.soups where try !writer.reader.hasSoup(soup.name) {
                    let indexes = try soup.indexes.map { index in
                        let type = try SoupIndexType(configName: index.type.rawValue, soup: soup.name)
                        return IndexSpec(path: index.path, type: type)
                    }
                    try writer.registerSoup(SoupSpec(name: soup.name, indexes: indexes))
                }
            }
        }
    }

    /// Engine errors as CLI errors: definition problems are usage errors (2), the rest failures (1).
    static func converting<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as SyncEngineError {
            throw cliError(error)
        }
    }

    static func converting<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SyncEngineError {
            throw cliError(error)
        }
    }

    static func cliError(_ error: SyncEngineError) -> CLIError {
        let usageCodes: [SyncEngineError.Code] = [
            .unknownSync, .wrongType, .notSupported, .invalidTarget, .definitionChanged, .ghostCleaningRefused,
        ]
        return usageCodes.contains(error.code) ? CLIError.usage(error.message) : CLIError(error.message)
    }

    /// The sync named `name` in the user syncs config.
    static func definition(named name: String, in config: LoadedConfig) throws -> SyncDefinition {
        guard let definition = config.userSyncs?.sync(named: name) else {
            throw CLIError.usage("no sync named '\(name)' in the syncs config; 'syncrun plan' lists them")
        }
        return definition
    }
}
