import ArgumentParser
import Foundation
import SoupStore
import SyncConfig
import SyncEngine

/// `syncrun store init`: create or upgrade the soups of the store config.
struct StoreInitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create the store and its soups from the store config; alter soups whose indexes changed.",
        discussion: """
            Reads userstore.{json,yaml,yml} from --config DIR (or --store-config FILE). New soups are \
            created; a soup whose index specs differ is altered and re-indexed, keeping its entries.
            """
    )

    @OptionGroup var options: StoreOptions
    @Option(help: "Output format.") var format: StoreOutputFormat = .text

    struct Outcome: Encodable {
        var soup: String
        var action: String
    }

    func run() throws {
        let specs = try loadSoupSpecs()
        let store = try options.openStore(create: true)
        let outcomes = try StoreErrors.converting { try store.registerSoups(specs) }
        let rows = zip(specs, outcomes).map { Outcome(soup: $0.name, action: $1.rawValue) }
        switch format {
        case .json:
            try StandardStreams.writeJSON(rows)
        case .text:
            for row in rows { StandardStreams.write("\(row.action) \(row.soup)\n") }
            StandardStreams.write("store: \(store.path)\n")
        }
    }

    private func loadSoupSpecs() throws -> [SoupSpec] {
        let config = options.config
        let files: ConfigFiles
        if let storeConfig = config.storeConfig {
            guard FileManager.default.fileExists(atPath: storeConfig) else {
                throw CLIError.usage("store config '\(storeConfig)' does not exist")
            }
            files = ConfigFiles(userStore: URL(fileURLWithPath: storeConfig))
        } else {
            let located = ConfigFiles.locate(in: URL(fileURLWithPath: config.configDirectory))
            guard let userStore = located.userStore else {
                throw CLIError.usage(
                    "no userstore.json, userstore.yaml or userstore.yml in '\(config.configDirectory)'; "
                        + "pass --config DIR or --store-config FILE"
                )
            }
            files = ConfigFiles(userStore: userStore, diagnostics: located.diagnostics)
        }
        let loaded: LoadedConfig
        do {
            loaded = try ConfigLoader(registry: InstalledPlugins.targets.implRegistry).load(files)
        } catch let error as SyncConfigError {
            throw CLIError(error.message)
        }
        for diagnostic in loaded.diagnostics { StandardStreams.writeError(DiagnosticText.plain(diagnostic) + "\n") }
        if loaded.hasErrors {
            throw CLIError("the store config has \(loaded.errorCount) error(s); nothing was changed")
        }
        return try StoreErrors.converting { try (loaded.userStore?.soups ?? []).map(SoupSpec.init(declared:)) }
    }
}
