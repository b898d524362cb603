import ArgumentParser
import SoupStore

/// `syncrun store export SOUP`: every entry, in `_soupEntryId` order, streamed.
struct StoreExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every entry of a soup, ordered by _soupEntryId, as a JSON array (or JSON lines).",
        discussion: "--format json (default) writes one array; jsonl and text write one entry per line."
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case json
        case jsonl
        case text
    }

    @OptionGroup var options: StoreOptions
    @Option(help: "Output format.") var format: Format = .json
    @Argument(help: "The soup.") var soup: String

    func run() throws {
        let store = try options.checkConfigThenOpenForReading()
        try StoreOptions.checkSoup(soup, in: store)
        let asArray = format == .json
        var output = BufferedOutput()
        var first = true
        try LibraryErrors.converting(SoupStoreError.self) {
            try store.read { reader in
                // Resolve the soup before writing anything, so an error leaves stdout empty.
                _ = try reader.indexSpecs(of: soup)
                if asArray { output.write("[") }
                try reader.forEachEntry(in: soup) { entry in
                    if asArray {
                        output.write(first ? "\n" : ",\n")
                    }
                    first = false
                    output.write(entry.json)
                    if !asArray { output.write("\n") }
                }
            }
        }
        if asArray { output.write(first ? "]\n" : "\n]\n") }
        output.flush()
    }
}
