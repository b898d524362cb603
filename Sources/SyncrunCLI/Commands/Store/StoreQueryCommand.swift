import ArgumentParser
import SoupStore

/// `syncrun store query 'SMART SQL'`: rows as JSON arrays, streamed.
struct StoreQueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Run a Smart SQL query ({soup}, {soup:path}, {soup:_soup}); print rows as JSON arrays.",
        discussion: """
            Only SELECT (or WITH) queries run. Values go in ? placeholders with --arg, one per \
            placeholder, in order; they are bound, never spliced. --format json prints one array of \
            rows; text prints one row per line.
            """
    )

    @OptionGroup var options: StoreOptions
    @Option(help: "Output format.") var format: OutputFormat = .text
    @Option(
        name: .customLong("arg"),
        help: ArgumentHelp("A value for the next ? placeholder (text).", valueName: "value")
    )
    var arguments: [String] = []
    @Argument(help: ArgumentHelp("The Smart SQL query.", valueName: "smart-sql")) var smartSQL: String

    /// Checks the soups the query names (`{soup}`, `{soup:path}`): an unknown one is a usage error
    /// with a suggestion, before the query runs.
    static func checkSoups(of smartSQL: String, in store: SoupStore) throws {
        let soups = try StoreOptions.soups(of: store)
        var rest = Substring(smartSQL)
        while let open = rest.firstIndex(of: "{") {
            rest = rest[rest.index(after: open)...]
            guard let close = rest.firstIndex(of: "}") else { break }
            let reference = rest[..<close]
            let name = String(reference.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)[0])
            rest = rest[rest.index(after: close)...]
            try StoreOptions.checkSoup(name, in: store, soups: soups)
        }
    }

    func run() throws {
        let store = try options.checkConfigThenOpenForReading()
        try Self.checkSoups(of: smartSQL, in: store)
        let asArray = format == .json
        var output = BufferedOutput()
        var first = true
        try LibraryErrors.converting(SoupStoreError.self) {
            try store.read { reader in
                try reader.query(smartSQL, arguments: arguments.map { .text($0) }) { row in
                    if asArray { output.write(first ? "[\n" : ",\n") }
                    first = false
                    output.write(row.jsonArray)
                    if !asArray { output.write("\n") }
                }
            }
        }
        if asArray { output.write(first ? "[]\n" : "\n]\n") }
        output.flush()
    }
}
