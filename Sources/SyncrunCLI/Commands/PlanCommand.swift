import ArgumentParser
import SyncConfig
import SyncPlan

/// `syncrun plan`: prints the order in which the syncs of a config run, and why.
struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Print the ordered steps (sync up, sync down, clean ghosts) the syncs run in.",
        discussion: """
            Order: for each soup its sync ups before its sync downs; parent soups before children \
            soups (parent_children targets); each sync after the syncs in its 'dependsOn'; a \
            clean-ghosts step right after a sync down with 'cleanGhosts: true'. Ties keep config \
            order, so the same config always prints the same plan; commit '--format json' and diff \
            it in CI. Config warnings go to standard error. Exit status: 0 success, 1 config errors \
            or a dependency cycle, 2 usage errors (including an unknown --only name).
            """
    )

    /// Output formats (`--format`).
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text
        case json
        case mermaid
        case dot

        var planFormat: PlanFormat {
            switch self {
            case .text: .text
            case .json: .json
            case .mermaid: .mermaid
            case .dot: .dot
            }
        }
    }

    @OptionGroup var config: ConfigOptions

    @Option(help: "Output format: text (numbered steps), json (stable, for CI diffs), mermaid or dot.")
    var format: Format = .text

    @Option(
        name: .customLong("only"),
        help: ArgumentHelp(
            "Plan only this sync and what it waits for (repeatable).",
            valueName: "name"
        )
    )
    var onlyNames: [String] = []

    @Flag(help: "Plan the global store's syncs (globalsyncs) instead of the user store's.")
    var global = false

    func run() throws {
        let loaded = try config.loadValid()
        guard let syncs = global ? loaded.globalSyncs : loaded.userSyncs else {
            let scope = global ? "globalsyncs" : "usersyncs"
            throw CLIError.usage(
                "no \(scope) config was found; add \(scope).json (or .yaml) to the config directory"
                    + (global ? "" : " or name the file with --syncs-config")
            )
        }
        var plan: SyncPlan
        do {
            plan = try SyncPlan(planning: syncs)
        } catch let error as PlanError {
            // Located errors read like the config diagnostics: FILE:LINE:COLUMN: error: message.
            guard error.location != nil else { throw CLIError(error.message) }
            StandardStreams.writeError(error.description + "\n")
            throw ExitStatus.failure.exitCode
        }
        if !onlyNames.isEmpty {
            do {
                plan = try plan.only(onlyNames)
            } catch let error as PlanError {
                throw CLIError.usage("--only: \(error.message)")
            }
        }
        StandardStreams.write(plan.rendered(as: format.planFormat))
    }
}
