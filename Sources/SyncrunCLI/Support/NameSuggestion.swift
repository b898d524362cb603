import JSONCore
import SyncConfig

/// "Did you mean" for every name typed on the command line (sync names, soup names, object and
/// field paths, org names of the project file), worded once over the package's one rule
/// (`SyncConfig`'s `Suggestion.closest`, which config diagnostics and `plan --only` use too).
enum NameSuggestion {
    /// `; did you mean 'accountsDown'?` when a candidate is close to `name`, else the empty string.
    static func clause(for name: String, among candidates: [String]) -> String {
        guard let suggestion = Suggestion.closest(to: name, in: candidates), suggestion != name else { return "" }
        return "; did you mean '\(JSONWriter.terminalSafe(suggestion))'?"
    }
}

/// Counts in words: `1 entry`, `2 entries`, `1 conflict`, `3 conflicts`, the number a plain
/// integer (no thousands separator: scripts read it).
enum Count {
    static func of(_ value: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(value) " + (value == 1 ? singular : plural ?? singular + "s")
    }
}
