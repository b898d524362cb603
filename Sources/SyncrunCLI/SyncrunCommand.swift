import ArgumentParser

/// The `syncrun` root command.
struct SyncrunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "syncrun",
        abstract: "Check and run the syncs declared in Mobile SDK config files (userstore / usersyncs).",
        discussion: ExitStatus.helpText + "\n\n" + """
            Logging: --log-level trace|debug|info|notice|warning|error|critical (anywhere on the \
            command line, or SYNCRUN_LOG_LEVEL) writes library logs to standard error; at debug, one \
            line per org request (method, path, status, duration). Off by default.
            """,
        version: "0.1.0",
        subcommands: [
            ValidateCommand.self,
            PlanCommand.self,
            StoreCommand.self,
            OrgCommand.self,
            RunCommand.self, SyncCommand.self, ResyncCommand.self, CleanGhostsCommand.self, StatusCommand.self,
            WatchCommand.self,
            MigrateCommand.self,
        ]
    )
}
