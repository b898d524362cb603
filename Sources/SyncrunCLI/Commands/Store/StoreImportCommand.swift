import ArgumentParser
import Foundation
import SoupStore

/// `syncrun store import SOUP FILE|-`: upsert entries as given, all or nothing.
struct StoreImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Upsert a JSON array (or JSON lines) of entries into a soup, control fields included.",
        discussion: """
            Entries are stored as given. By default they are matched by _soupEntryId (an entry \
            with an id that exists is replaced; one with an unknown id is inserted with that id; one \
            without is inserted with a new id); --external-id PATH matches them by an indexed path \
            instead. Any bad entry aborts the whole import: nothing is written.
            """
    )

    @OptionGroup var options: StoreOptions
    @Option(help: "Output format.") var format: OutputFormat = .text
    @Option(help: ArgumentHelp("Match entries by this indexed path instead of _soupEntryId.", valueName: "path"))
    var externalID: String = "_soupEntryId"

    @Argument(help: "The soup.") var soup: String
    @Argument(help: ArgumentHelp("The file of entries, or - for standard input.", valueName: "file|-"))
    var file: String

    struct Summary: Encodable {
        var soup: String
        var inserted: Int
        var updated: Int
    }

    func run() throws {
        let data: Data
        if file == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let contents = FileManager.default.contents(atPath: file) else {
                throw CLIError.usage("cannot read '\(file)'; check the path")
            }
            data = contents
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw CLIError("'\(file)' is not UTF-8 text")
        }
        let source = file == "-" ? "<stdin>" : file
        let store = try options.checkConfigThenOpen()
        try StoreOptions.checkSoup(soup, in: store)
        let counts = try LibraryErrors.converting(SoupStoreError.self) {
            let entries = try EntriesText.jsonArray(from: text, source: source)
            return try store.write { try $0.upsert(entries: entries, into: soup, byExternalIDPath: externalID) }
        }
        let summary = Summary(soup: soup, inserted: counts.inserted, updated: counts.updated)
        switch format {
        case .json: try StandardStreams.writeJSON(summary)
        case .text: StandardStreams.write("\(soup): \(counts.inserted) inserted, \(counts.updated) updated\n")
        }
    }
}
