import ArgumentParser
import Foundation
import JSONCore
import Logging
import SOQL
import SoupStore
import SyncEngine

/// `syncrun status [NAME]`: the stored sync states.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the stored sync states (all, or one by name).",
        discussion: """
            --format json prints a JSON array of states with id, name, type, soupName, target, options, \
            status, progress, totalSize, maxTimeStamp, startTime, endTime and error, as stored in syncs_soup.
            """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "The sync's name (default: every sync).") var name: String?
    @Option(help: "Output format.") var format: SyncOutputFormat = .text

    func run() async throws {
        let soupStore = try store.openStoreForReading()
        let states = try StoreErrors.converting {
            try soupStore.read { reader in
                if let name { return try reader.syncState(named: name).map { [$0] } ?? [] }
                return try reader.syncStates()
            }
        }
        if let name, states.isEmpty {
            throw CLIError(
                "no sync named '\(JSONWriter.terminalSafe(name))' in '\(soupStore.path)'; it is created by its first 'syncrun sync'"
            )
        }
        switch format {
        case .json:
            StandardStreams.write("[" + states.map(Self.json).joined(separator: ",\n") + "]\n")
        case .text:
            for state in states { StandardStreams.write(Self.text(state) + "\n") }
            if states.isEmpty { StandardStreams.write("no syncs in '\(soupStore.path)'\n") }
        }
    }

    /// The state as a JSON object; `target` and `options` are the stored JSON objects, verbatim.
    static func json(_ state: StoredSyncState) -> String {
        let members: [(String, String)] = [
            ("id", String(state.id)), ("name", quoted(state.name)), ("type", quoted(state.kind.rawValue)),
            ("soupName", quoted(state.soupName)), ("target", state.targetJSON), ("options", state.optionsJSON),
            ("status", quoted(state.status.rawValue)), ("progress", String(state.progress)),
            ("totalSize", String(state.totalSize)), ("maxTimeStamp", String(state.maxTimeStamp)),
            ("startTime", String(state.startTime)), ("endTime", String(state.endTime)), ("error", quoted(state.error)),
        ]
        return "{" + members.map { "\(quoted($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    private static func quoted(_ text: String?) -> String {
        guard let text else { return "null" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return (try? encoder.encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    static func text(_ state: StoredSyncState) -> String {
        var line =
            "\(state.id)  \(state.name.map(JSONWriter.terminalSafe) ?? "(unnamed)")  \(state.kind.rawValue)  "
            + "\(JSONWriter.terminalSafe(state.soupName))  "
            + "\(state.status.rawValue)  \(state.progress)%"
        if state.totalSize >= 0 { line += "  total \(state.totalSize)" }
        if state.maxTimeStamp > 0 {
            line += "  watermark \(SalesforceDateTime.wireText(milliseconds: state.maxTimeStamp))"
        }
        if !state.error.isEmpty { line += "\n    error: \(JSONWriter.terminalSafe(state.error))" }
        return line
    }
}
