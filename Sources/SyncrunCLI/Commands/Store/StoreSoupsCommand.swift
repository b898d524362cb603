import ArgumentParser
import SoupStore

/// `syncrun store soups`: the soups of a store with their index specs and entry counts.
struct StoreSoupsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soups",
        abstract: "List the store's soups, their index specs and entry counts."
    )

    @OptionGroup var options: StoreOptions
    @Option(help: "Output format.") var format: OutputFormat = .text

    struct Row: Encodable {
        struct Index: Encodable {
            var path: String
            var type: String
        }

        var soupName: String
        var table: String
        var entries: Int
        var indexes: [Index]
    }

    func run() throws {
        let store = try options.checkConfigThenOpenForReading()
        let soups = try LibraryErrors.converting(SoupStoreError.self) { try store.read { try $0.soups() } }
        let rows = soups.map { soup in
            Row(
                soupName: soup.name,
                table: soup.tableName,
                entries: soup.entryCount,
                indexes: soup.indexes.map { Row.Index(path: $0.path, type: $0.type.rawValue) }
            )
        }
        switch format {
        case .json:
            try StandardStreams.writeJSON(rows)
        case .text:
            if rows.isEmpty { StandardStreams.write("no soups\n") }
            for row in rows {
                let indexes = row.indexes.map { "\($0.path):\($0.type)" }.joined(separator: ", ")
                StandardStreams.write(
                    "\(row.soupName) (\(row.table)): \(Count.of(row.entries, "entry", "entries")); indexes \(indexes)\n"
                )
            }
        }
    }
}
