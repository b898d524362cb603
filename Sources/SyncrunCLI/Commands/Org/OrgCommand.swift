import ArgumentParser

/// `syncrun org`: the embedded local org (serve it, seed it, export it), and `whoami` for any org.
struct OrgCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "org",
        abstract: "Run and manage an embedded local org that speaks the Salesforce REST API.",
        subcommands: [
            OrgServeCommand.self, OrgSeedCommand.self, OrgExportCommand.self, OrgQueryCommand.self,
            OrgWhoamiCommand.self, OrgCheckCommand.self, OrgSchemaCommand.self, OrgDiffCommand.self,
        ]
    )
}
