import ArgumentParser

/// `--format text|json`, for every command that prints either: `text` for a person (for the sync
/// commands, a progress bar on a terminal and JSON lines otherwise), `json` for a script (for the
/// sync commands, always JSON lines).
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
}
