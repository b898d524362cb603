import ArgumentParser
import Foundation
import JSONCore
import Logging
import SOQL
import SoupStore
import SyncEngine
import SyncLedger

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
    @Option(help: "Output format.") var format: OutputFormat = .text

    func run() async throws {
        // The config is parsed first, as by every command: a broken one fails here (exit 1).
        let config = try store.config.loadValidIfPresent()
        let configNames = config?.userSyncs?.syncs.map(\.name) ?? []
        let path = store.resolvedStorePath
        guard FileManager.default.fileExists(atPath: path) else {
            if let name, !configNames.isEmpty, !configNames.contains(name) {
                throw Self.unknownName(name, in: path, among: configNames)
            }
            throw CLIError(
                "no sync has run yet: the store '\(path)' does not exist; 'syncrun run' runs every sync "
                    + "(or 'syncrun sync NAME' one), then 'syncrun status' shows them"
            )
        }
        let soupStore = try store.openStoreForReading()
        let (states, storedNames, positions) = try LibraryErrors.converting(SoupStoreError.self) {
            try soupStore.read { reader in
                // `syncrun watch`'s replay positions, by sync id.
                let positions = Dictionary(try reader.watchPositions().map { ($0.syncID, $0) }) { first, _ in first }
                if let name {
                    return (
                        try reader.syncState(named: name).map { [$0] } ?? [],
                        try reader.syncStates().compactMap(\.name),
                        positions
                    )
                }
                return (try reader.syncStates(), [], positions)
            }
        }
        if let name, states.isEmpty {
            if configNames.contains(name) {
                throw CLIError(
                    "sync '\(JSONWriter.terminalSafe(name))' has not run yet in '\(soupStore.path)'; "
                        + "run it with 'syncrun sync \(JSONWriter.terminalSafe(name))' (or every sync with 'syncrun run')"
                )
            }
            throw Self.unknownName(name, in: soupStore.path, among: configNames + storedNames)
        }
        switch format {
        case .json:
            StandardStreams.write(
                "[" + states.map { Self.json($0, watch: positions[$0.id]) }.joined(separator: ",\n") + "]\n"
            )
        case .text:
            for state in states { StandardStreams.write(Self.text(state, watch: positions[state.id]) + "\n") }
            if states.isEmpty {
                StandardStreams.write(
                    "no sync has run yet in '\(soupStore.path)'; 'syncrun run' runs every sync (or 'syncrun sync NAME' one)\n"
                )
            }
        }
    }

    /// A name that is neither a sync of the config nor a stored one: a usage error (2).
    static func unknownName(_ name: String, in path: String, among candidates: [String]) -> CLIError {
        CLIError.usage(
            "no sync named '\(JSONWriter.terminalSafe(name))' in the syncs config or in '\(path)'"
                + NameSuggestion.clause(for: name, among: candidates) + "; 'syncrun plan' lists the config's syncs"
        )
    }

    /// The state as a JSON object; `target` and `options` are the stored JSON objects, verbatim;
    /// `watch` is `syncrun watch`'s position in the sync's change events (`null` when never watched).
    static func json(_ state: StoredSyncState, watch: WatchPosition? = nil) -> String {
        let members: [(String, String)] = [
            ("id", String(state.id)), ("name", quoted(state.name)), ("type", quoted(state.kind.rawValue)),
            ("soupName", quoted(state.soupName)), ("target", state.targetJSON), ("options", state.optionsJSON),
            ("status", quoted(state.status.rawValue)), ("progress", String(state.progress)),
            ("totalSize", String(state.totalSize)), ("maxTimeStamp", String(state.maxTimeStamp)),
            ("startTime", String(state.startTime)), ("endTime", String(state.endTime)), ("error", quoted(state.error)),
            ("watch", watch.map(Self.watchJSON) ?? "null"),
        ]
        return "{" + members.map { "\(quoted($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    private static func quoted(_ text: String?) -> String {
        guard let text else { return "null" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return (try? encoder.encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    /// `{"topic": …, "replayId": hex, "appliedAt": ms}`.
    static func watchJSON(_ position: WatchPosition) -> String {
        JSONValue.object(
            JSONObject([
                ("topic", .string(position.topic)), ("replayId", .string(HexText.lowercase(position.replayID))),
                ("appliedAt", .integer(position.appliedAt)),
            ])
        ).jsonText()
    }

    static func text(_ state: StoredSyncState, watch: WatchPosition? = nil) -> String {
        var line =
            "\(state.id)  \(state.name.map(JSONWriter.terminalSafe) ?? "(unnamed)")  \(state.kind.rawValue)  "
            + "\(JSONWriter.terminalSafe(state.soupName))  "
            + "\(state.status.rawValue)  \(state.progress)%"
        if state.totalSize >= 0 { line += "  total \(state.totalSize)" }
        if state.maxTimeStamp > 0 {
            line += "  watermark \(SalesforceDateTime.wireText(milliseconds: state.maxTimeStamp))"
        }
        if let watch {
            line +=
                "\n    watch: \(JSONWriter.terminalSafe(watch.topic)) replay id \(HexText.lowercase(watch.replayID)) applied "
                + SalesforceDateTime.wireText(milliseconds: watch.appliedAt)
        }
        if !state.error.isEmpty { line += "\n    error: \(JSONWriter.terminalSafe(state.error))" }
        return line
    }
}
