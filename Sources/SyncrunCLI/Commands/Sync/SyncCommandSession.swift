import Foundation
import JSONCore
import Logging
import OrgClient
import SyncConfig
import SyncEngine
import SyncPlan
import SyncrunSession

/// What the sync commands share: load the config, resolve the org, run the library's
/// ``SyncrunSession/SyncSession`` (store, binding check, soups, recovery, event stream), install the
/// signal handlers, render events, and turn the outcome into an exit status (0 only when every
/// step ended `DONE`; 1 when one failed or stopped, and for config errors; 2 for usage errors and
/// refusals before anything ran: ``ExitStatus``).
struct SyncCommandSession {
    let store: StoreOptions
    let org: OrgOptions
    let format: OutputFormat
    /// `--max-requests`, `--min-api-share`, `--stop-api-share`, where the command has them.
    var requests = RequestSettings()

    static var logger: Logger { CLILogging.logger }

    /// The user syncs config, valid, or a failure (status 1) naming the problems.
    func loadConfig() throws -> LoadedConfig {
        try store.config.loadValid()
    }

    /// Runs `work`, which runs steps and returns their summaries; prints the totals and turns
    /// them into the exit status; conflicts are said as conflicts, with the commands that resolve
    /// them (``ConflictAdvice``).
    func run(
        names: [String] = [],
        _ work:
            @escaping (LoadedConfig, SyncEngine, StopSignal, AsyncStream<SyncEvent>.Continuation) async throws
            -> [SyncRunSummary]
    ) async throws {
        let renderer = SyncEventRenderer(format: format)
        let (config, summaries) = try await session(renderer: renderer, names: names, work)
        let failed = summaries.first { $0.status != .done }
        let withIssues = summaries.filter { $0.status == .done && !$0.isClean }
        renderer.renderTotals(summaries, status: failed?.status.rawValue ?? "DONE")
        if let failed {
            throw CLIError(
                "sync '\(failed.syncName)' ended \(failed.status.rawValue)"
                    + (failed.error.map { ": \($0)" } ?? "")
            )
        }
        guard !withIssues.isEmpty else { return }
        if let conflicts = ConflictAdvice.text(withIssues, config: config) {
            StandardStreams.writeError(conflicts + "\n")
        }
        let failedRecords = withIssues.reduce(0) { $0 + $1.failed }
        if failedRecords > 0 {
            StandardStreams.writeError(
                "error: \(Count.of(failedRecords, "record")) failed on the org; they stay marked local with the reason "
                    + "in '__last_error__' ('syncrun store export SOUP --format jsonl' shows it); fix them and run again\n"
            )
        }
        throw ExitStatus.failure.exitCode
    }

    /// Loads the config, resolves the org, and runs `work` in a ``SyncrunSession/SyncSession`` (the
    /// library opens the store, checks its binding to the org, registers missing soups and recovers
    /// killed runs) with the signal handlers installed, while `renderer` renders its events.
    ///
    /// `names` (sync names typed on the command line) are checked against the config first: an
    /// unknown one is a usage error with a suggestion, before the org or the store is touched.
    /// With `readOnly` (dry runs) nothing is created or repaired (``SyncrunSession/SyncSession/Options/dryRun``).
    func session<T: Sendable>(
        renderer: SyncEventRenderer,
        readOnly: Bool = false,
        names: [String] = [],
        _ work: @escaping (LoadedConfig, SyncEngine, StopSignal, AsyncStream<SyncEvent>.Continuation) async throws -> T
    ) async throws -> (LoadedConfig, T) {
        try await withSyncSession(readOnly: readOnly, names: names) { config, session in
            let stop = StopSignal()
            let stopper = SignalStopper(stop: stop)
            defer { withExtendedLifetime(stopper) {} }
            return (
                config,
                try await session.run(stop: stop, consume: { await renderer.render($0) }) { engine, stop, events in
                    try await work(config, engine, stop, events)
                }
            )
        }
    }

    /// Loads the config, checks `names` against it, resolves the org and runs `body` in a
    /// ``SyncrunSession/SyncSession`` (``session(renderer:readOnly:names:_:)`` without signal
    /// handlers and events, for commands that run their own loop: `watch`). `launcher` starts a
    /// `local:DIR` org.
    func withSyncSession<T: Sendable>(
        readOnly: Bool = false,
        names: [String] = [],
        launcher: LocalOrgServerLauncher = LocalOrgServerLauncher(),
        _ body: @escaping (LoadedConfig, SyncSession) async throws -> T
    ) async throws -> T {
        let config = try loadConfig()
        // Names typed on the command line are checked before the org or the store is touched.
        for name in names { _ = try Self.definition(named: name, in: config) }
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
        return try await SessionErrors.converting(hint: OrgOptions.projectOrgHint(for: org.org, project: project)) {
            try await SyncSession.with(
                config: config,
                org: definition,
                connector: try org.connector(logger: Self.logger, launcher: launcher),
                options: options,
                notify: StandardStreams.notify
            ) { session in
                try await body(config, session)
            }
        }
    }

    /// The plan of the config's syncs, restricted to `only` (names) and what they depend on.
    static func plan(of config: LoadedConfig, only: [String]) throws -> SyncPlan {
        guard let syncs = config.userSyncs else { throw CLIError.usage("the config has no syncs (usersyncs)") }
        do {
            let plan = try SyncPlan(planning: syncs)
            return only.isEmpty ? plan : try plan.only(only)
        } catch let error as PlanError {
            throw CLIError.usage(error.message)
        }
    }

    /// The sync named `name` in the user syncs config.
    static func definition(named name: String, in config: LoadedConfig) throws -> SyncDefinition {
        guard let definition = config.userSyncs?.sync(named: name) else {
            throw CLIError.usage(
                "no sync named '\(JSONWriter.terminalSafe(name))' in the syncs config"
                    + NameSuggestion.clause(for: name, among: config.userSyncs?.syncs.map(\.name) ?? [])
                    + "; 'syncrun plan' lists them"
            )
        }
        return definition
    }
}
