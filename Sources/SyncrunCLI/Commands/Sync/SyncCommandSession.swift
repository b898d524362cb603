import Foundation
import Logging
import OrgClient
import SyncConfig
import SyncEngine
import SyncrunSession

/// What the sync commands share: load the config, resolve the org, run the library's
/// ``SyncrunSession/SyncSession`` (store, binding check, soups, recovery, event stream), install the
/// signal handlers, render events, and turn the outcome into an exit status (0 only when every
/// step ended `DONE`; 1 when one failed or stopped; 2 for usage and config errors).
struct SyncCommandSession {
    let store: StoreOptions
    let org: OrgOptions
    let format: SyncOutputFormat
    /// `--max-requests`, `--min-api-share`, `--stop-api-share`, where the command has them.
    var requests = RequestSettings()

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

    /// Loads the config, resolves the org, and runs `work` in a ``SyncrunSession/SyncSession`` (the
    /// library opens the store, checks its binding to the org, registers missing soups and recovers
    /// killed runs) with the signal handlers installed, while `renderer` renders its events.
    ///
    /// With `readOnly` (dry runs) nothing is created or repaired (``SyncrunSession/SyncSession/Options/dryRun``).
    func session<T: Sendable>(
        renderer: SyncEventRenderer,
        readOnly: Bool = false,
        _ work: @escaping (LoadedConfig, SyncEngine, StopSignal, AsyncStream<SyncEvent>.Continuation) async throws -> T
    ) async throws -> T {
        let config = try loadConfig()
        let project = try ProjectContext.load(configDirectory: store.config.configDirectory)
        let definition = try await org.definition(project: project)
        var options = SyncSession.Options(
            storePath: store.resolvedStorePath,
            dryRun: readOnly,
            customTargets: InstalledPlugins.targets,
            logger: Self.logger,
            maxConcurrentRequests: requests.maxRequests
        )
        options.minApiShare = requests.minApiShare
        options.stopApiShare = requests.stopApiShare
        return try await SessionErrors.converting {
            try await SyncSession.with(
                config: config,
                org: definition,
                connector: org.connector(logger: Self.logger),
                options: options,
                notify: StandardStreams.notify
            ) { session in
                let stop = StopSignal()
                let stopper = SignalStopper(stop: stop)
                defer { withExtendedLifetime(stopper) {} }
                return try await session.run(stop: stop, consume: { await renderer.render($0) }) {
                    engine,
                    stop,
                    events in
                    try await work(config, engine, stop, events)
                }
            }
        }
    }

    /// The sync named `name` in the user syncs config.
    static func definition(named name: String, in config: LoadedConfig) throws -> SyncDefinition {
        guard let definition = config.userSyncs?.sync(named: name) else {
            throw CLIError.usage("no sync named '\(name)' in the syncs config; 'syncrun plan' lists them")
        }
        return definition
    }
}
