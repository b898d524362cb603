import ArgumentParser
import Foundation
import JSONCore
import SoupStore

/// `syncrun store mark SOUP --created|--updated|--deleted`: record local changes as an app would.
struct StoreMarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mark",
        abstract: "Mark entries as created, updated or deleted locally (sets __local__ and the operation flag).",
        discussion: """
            Sets __local__ and __locally_created__, __locally_updated__ or __locally_deleted__ to \
            true, as an app does before a sync up. --created also gives entries without an id \
            (--id-field, default Id) a local_<uuid> id. --where PATH=VALUE limits the change to \
            entries whose value at PATH, written as text, is VALUE (true, 42, Acme).
            """
    )

    enum Change: String, EnumerableFlag {
        case created
        case updated
        case deleted
    }

    @OptionGroup var options: StoreOptions
    @Option(help: "Output format.") var format: OutputFormat = .text
    @Flag(help: "The local change to record.") var change: Change
    @Option(
        name: .customLong("where"),
        help: ArgumentHelp("Only entries with this value at this path.", valueName: "path=value")
    )
    var filter: String?
    @Option(help: ArgumentHelp("The id field (for --created).", valueName: "path")) var idField: String = "Id"
    @Option(
        name: .customLong("set"),
        help: ArgumentHelp(
            "Also write a value (repeatable): PATH=TEXT sets a string, PATH:=JSON any JSON value (42, true, null).",
            valueName: "path=value"
        )
    )
    var assignments: [String] = []
    @Argument(help: "The soup.") var soup: String

    struct Summary: Encodable {
        var soup: String
        var change: String
        var marked: Int
    }

    func validate() throws {
        if let filter, !filter.contains("=") {
            throw ValidationError("--where takes PATH=VALUE, for example --where Id=001xx000003DGb2AAG")
        }
        for assignment in assignments where !assignment.contains("=") {
            throw ValidationError(
                "--set takes PATH=TEXT or PATH:=JSON, for example --set Phone=555-0100, not '\(assignment)'"
            )
        }
        for assignment in entryAssignments {
            guard case .json(let json) = assignment.value else { continue }
            var text = json
            let isJSON = text.withUTF8 { bytes in
                var reader = JSONReader(bytes: bytes)
                return (try? reader.validateDocument()) != nil
            }
            if !isJSON {
                throw ValidationError(
                    "--set \(assignment.path):=… needs a JSON value (42, true, null, \"text\"), not '\(json)'"
                )
            }
        }
    }

    /// The `--set` values, parsed.
    var entryAssignments: [EntryAssignment] {
        assignments.compactMap { text in
            guard let equals = text.firstIndex(of: "=") else { return nil }
            let value = String(text[text.index(after: equals)...])
            let path = text[..<equals]
            if path.hasSuffix(":") { return EntryAssignment(path: String(path.dropLast()), value: .json(value)) }
            return EntryAssignment(path: String(path), value: .text(value))
        }
    }

    func run() throws {
        var entryFilter: EntryFilter?
        if let filter, let equals = filter.firstIndex(of: "=") {
            entryFilter = EntryFilter(
                path: String(filter[..<equals]),
                value: String(filter[filter.index(after: equals)...])
            )
        }
        let localChange: LocalChange =
            switch change {
            case .created: .created
            case .updated: .updated
            case .deleted: .deleted
            }
        let store = try options.checkConfigThenOpen()
        let soups = try StoreOptions.soups(of: store)
        try StoreOptions.checkSoup(soup, in: store, soups: soups)
        let marked = try LibraryErrors.converting(SoupStoreError.self) {
            try store.write {
                try $0.markEntries(
                    localChange,
                    in: soup,
                    where: entryFilter,
                    idPath: idField,
                    setting: entryAssignments
                )
            }
        }
        switch format {
        case .json: try StandardStreams.writeJSON(Summary(soup: soup, change: change.rawValue, marked: marked))
        case .text:
            let name = JSONWriter.terminalSafe(soup)
            if marked == 0, let entryFilter {
                // Nothing matched: say so, and suggest the path when it looks misspelt.
                let paths = soups.first { $0.name == soup }?.indexes.map(\.path) ?? []
                let hint =
                    paths.contains(entryFilter.path)
                    ? "" : NameSuggestion.clause(for: entryFilter.path, among: paths)
                StandardStreams.write(
                    "\(name): no entries match --where \(JSONWriter.terminalSafe(filter ?? ""))\(hint); nothing was marked "
                        + "('syncrun store export \(name)' shows the entries)\n"
                )
            } else {
                StandardStreams.write("\(name): \(Count.of(marked, "entry", "entries")) marked \(change.rawValue)\n")
            }
        }
    }
}
