import ArgumentParser

/// `syncrun org`: commands for orgs, real or local: the embedded local org (serve, seed, export,
/// query) and, for any org, `whoami`, `check`, `schema pull` and `diff`.
struct OrgCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "org",
        abstract: "Work with orgs: run and fill the embedded local org; check any org, real or local.",
        discussion: """
            For the embedded local org (a Salesforce REST API over SQLite, in a folder): serve, seed, export \
            and query. For any org, real (--org ALIAS, an http(s) URL, an org of the project file) or \
            local (--org local:DIR): whoami (who the login is), check (the config against the org's \
            shape), schema pull (the org's shape as a local org schema file) and diff (two orgs compared \
            for what the config uses).
            """,
        subcommands: [
            OrgServeCommand.self, OrgSeedCommand.self, OrgExportCommand.self, OrgQueryCommand.self,
            OrgWhoamiCommand.self, OrgCheckCommand.self, OrgSchemaCommand.self, OrgDiffCommand.self,
        ]
    )
}
