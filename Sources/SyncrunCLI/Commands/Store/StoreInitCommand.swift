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
    @Option(help: "Output format.") var format: OutputFormat = .text

    struct Outcome: Encodable {
        var soup: String
        var action: String
    }

    func run() throws {
        let specs = try loadSoupSpecs()
        let store = try options.openStore(create: true)
        let outcomes = try LibraryErrors.converting(SoupStoreError.self) { try store.registerSoups(specs) }
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
        if let storeConfig = config.storeConfig, !FileManager.default.fileExists(atPath: storeConfig) {
            throw CLIError.usage("store config '\(storeConfig)' does not exist")
        }
        // The whole config is parsed first, as by every command: a broken one fails here (exit 1).
        guard let loaded = try config.loadValidIfPresent(), loaded.userStore != nil else {
            throw CLIError.usage(
                "no userstore.json, userstore.yaml or userstore.yml in '\(config.configDirectory)'; "
                    + "pass --config DIR or --store-config FILE"
            )
        }
        return try LibraryErrors.converting(SoupStoreError.self) {
            try (loaded.userStore?.soups ?? []).map(SoupSpec.init(declared:))
        }
    }
}
