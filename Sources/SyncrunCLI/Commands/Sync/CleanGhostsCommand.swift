import ArgumentParser
import SyncEngine

/// `syncrun clean-ghosts NAME`: deletes the records a sync down fetched that the org no longer
/// returns for it.
struct CleanGhostsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clean-ghosts",
        abstract: "Delete the records a sync down fetched that the org no longer returns.",
        discussion: """
            Lists the ids the sync's target returns now (ids only, paged, kept in the store, not in \
            memory) and deletes the clean records the sync fetched that are missing, unless another sync \
            that fetched them may still return them. Records with local changes are never deleted. \
            Queries with LIMIT or OFFSET are refused. Prints how many records were removed.
            """
    )

    @OptionGroup var store: StoreOptions
    @OptionGroup var org: OrgOptions
    @Argument(help: "The sync's name.") var name: String
    @Option(help: "Output format.") var format: OutputFormat = .text

    func run() async throws {
        let name = name
        try await SyncCommandSession(store: store, org: org, format: format).run(names: [name]) {
            config,
            engine,
            stop,
            events in
            let definition = try SyncCommandSession.definition(named: name, in: config)
            return [try await engine.cleanGhosts(definition, stop: stop, events: events)]
        }
    }
}
