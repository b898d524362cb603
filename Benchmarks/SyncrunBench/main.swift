import ArgumentParser

/// Benchmarks for syncrun. Each subcommand prints what it measured (rates, peak memory) beside its
/// baseline. Run in release: `swift run -c release syncrun-bench <name> --help`.
struct SyncrunBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "syncrun-bench",
        abstract: "Benchmarks for syncrun (run in release builds).",
        subcommands: [
            PlanBenchmark.self, OrgBenchmark.self, StoreBenchmark.self, PageServerCommand.self, FloorBenchmark.self,
            SeedAccountsCommand.self, SyncUpBenchmark.self,
        ]
    )
}

/// Runs the root command through its `async` entry point (a plain call at top level resolves to the
/// synchronous `ParsableCommand.main()`, which cannot run async subcommands).
func runMain<Command: AsyncParsableCommand>(_: Command.Type) async {
    await Command.main()
}

await runMain(SyncrunBench.self)
