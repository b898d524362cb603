import ArgumentParser
import SyncEngine

/// `syncrun resync NAME | --id N`: re-runs one sync down from its watermark.
struct ResyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resync",
        abstract: "Re-run one sync down, by name or by id, fetching what changed since its watermark.",
        discussion: """
            The first run of a sync is full; later runs are incremental. Safe after a STOPPED or FAILED \
            run: records stamped in the same instant as the watermark are fetched again and de-duplicated. \
            Exit status: 0 DONE, 1 FAILED or STOPPED or config errors, 2 usage errors and refusals.
            """
    )

    @OptionGroup var store: StoreOptions
    @OptionGroup var org: OrgOptions
    @Argument(help: "The sync's name.") var name: String?
    @Option(help: ArgumentHelp("The sync's id (see 'syncrun status').", valueName: "n")) var id: Int64?
    @Flag(help: "Ignore the watermark: fetch everything, then store the new watermark.") var full = false
    @Flag(help: "Recreate the stored definition if it differs from the config (resets its watermark).")
    var replace = false
    @Option(help: "Output format.") var format: OutputFormat = .text

    func validate() throws {
        guard (name == nil) != (id == nil) else { throw ValidationError("give either a sync name or --id N") }
    }

    func run() async throws {
        let (name, id, full, replace) = (name, id, full, replace)
        try await SyncCommandSession(store: store, org: org, format: format).run(names: name.map { [$0] } ?? []) {
            config,
            engine,
            stop,
            events in
            let syncName: String
            if let id {
                let state = try engine.syncState(id: id)
                guard let stateName = state.name else {
                    throw CLIError.usage("sync \(id) has no name, so it has no definition in the config to run")
                }
                syncName = stateName
            } else {
                syncName = name ?? ""
            }
            let definition = try SyncCommandSession.definition(named: syncName, in: config)
            return [
                try await engine.syncDown(definition, full: full, replace: replace, stop: stop, events: events)
            ]
        }
    }
}
