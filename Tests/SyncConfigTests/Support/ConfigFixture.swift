import Foundation
import SyncConfig
import SyncrunTestSupport

/// Writes config files into a fresh temporary directory and loads them the way
/// `syncrun validate --config DIR` does.
enum ConfigFixture {
    /// Loads `files` (name → content) from a temporary directory.
    static func load(_ files: [String: String], registry: TargetImplRegistry = TargetImplRegistry()) throws
        -> LoadedConfig
    {
        let directory = try TemporaryDirectory(prefix: "syncconfig-test")
        defer { try? FileManager.default.removeItem(at: directory.url) }
        for (name, content) in files {
            try Data(content.utf8).write(to: directory.url.appendingPathComponent(name))
        }
        var loaded = try ConfigLoader(registry: registry).load(ConfigFiles.locate(in: directory.url))
        // Name files as a user running in that directory would see them.
        for index in loaded.diagnostics.indices {
            loaded.diagnostics[index].file = URL(fileURLWithPath: loaded.diagnostics[index].file).lastPathComponent
        }
        return loaded
    }

    /// The diagnostics as `LINE:COLUMN: severity: path: code` lines, for compact assertions.
    static func summary(_ loaded: LoadedConfig) -> [String] {
        loaded.diagnostics.map { "\($0.line):\($0.column): \($0.severity.rawValue): \($0.path): \($0.code)" }
    }
}
