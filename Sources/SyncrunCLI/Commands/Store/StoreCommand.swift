import ArgumentParser

/// `syncrun store`: create, inspect and edit the local SmartStore-compatible store.
struct StoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Create, inspect and edit the local store (SmartStore-compatible soups in SQLite).",
        discussion: """
            Every subcommand takes --store FILE (default: .syncrun/store.db under the --config \
            directory) and --format text|json. Errors change nothing: imports are all-or-nothing.
            """,
        subcommands: [
            StoreInitCommand.self,
            StoreSoupsCommand.self,
            StoreImportCommand.self,
            StoreExportCommand.self,
            StoreQueryCommand.self,
            StoreMarkCommand.self,
        ]
    )
}
