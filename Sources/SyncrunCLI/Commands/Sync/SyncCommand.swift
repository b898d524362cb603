import ArgumentParser
import SyncConfig
import SyncEngine
import SyncPlan

/// `syncrun sync [NAME…]`: runs the plan's sync up, sync down and ghost-cleaning steps (all, or those of
/// the named syncs) against an org, page by page, resuming from each sync's watermark.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Run the syncs of the config (or the named ones) in plan order.",
        discussion: """
            A sync's first run fetches everything; later runs fetch what changed since its watermark. \
            Output: a progress bar on a terminal; otherwise (and with --format json) one JSON object per \
            event and a final summary. SIGINT / SIGTERM stop between pages (status STOPPED). \
            Exit status ('syncrun --help'): 0 when every step ended DONE; 1 when one failed or stopped, \
            left records conflicted or failed, or the config has errors; 2 for usage errors and refusals.
            """
    )

    @OptionGroup var store: StoreOptions
    @OptionGroup var org: OrgOptions
    @OptionGroup var requests: RequestOptions
    @Argument(help: "Syncs to run (default: all).") var names: [String] = []
    @Flag(help: "Ignore the watermarks: fetch everything, then store the new watermark.") var full = false
    @Flag(help: "Recreate stored definitions that differ from the config (resets their watermark).")
    var replace = false
    @Option(help: "Output format.") var format: OutputFormat = .text

    func run() async throws {
        let (names, full, replace) = (names, full, replace)
        let session = SyncCommandSession(store: store, org: org, format: format, requests: requests.settings)
        try await session.run(names: names) { config, engine, stop, events in
            let plan = try SyncCommandSession.plan(of: config, only: names)
            var summaries: [SyncRunSummary] = []
            for step in plan.steps {
                let definition = try SyncCommandSession.definition(named: step.syncName, in: config)
                let summary: SyncRunSummary
                switch step.kind {
                case .syncUp:
                    summary = try await engine.syncUp(definition, replace: replace, stop: stop, events: events)
                        .runSummary
                case .syncDown:
                    summary = try await engine.syncDown(
                        definition,
                        full: full,
                        replace: replace,
                        stop: stop,
                        events: events
                    )
                case .cleanGhosts:
                    summary = try await engine.cleanGhosts(definition, stop: stop, events: events)
                }
                summaries.append(summary)
                if summary.status != .done { break }
            }
            return summaries
        }
    }
}
