import ArgumentParser

/// The `syncrun` root command.
struct SyncrunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "syncrun",
        abstract: "Check and run the syncs declared in Mobile SDK config files (userstore / usersyncs).",
        discussion: """
            Exit status: 0 success (or warnings only), 1 a failure (config errors, a failed sync), \
            2 usage errors (bad flags or arguments).
            """,
        version: "0.1.0",
        subcommands: [
            ValidateCommand.self,
            PlanCommand.self,
            StoreCommand.self,
            OrgCommand.self,
            RunCommand.self, SyncCommand.self, ResyncCommand.self, CleanGhostsCommand.self, StatusCommand.self,
        ]
    )
}
