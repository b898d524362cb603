import ArgumentParser

/// Output of the sync commands: `text` (a progress bar on a terminal, JSON lines otherwise) or
/// `json` (always JSON lines).
enum SyncOutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
}
