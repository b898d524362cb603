import Foundation
import SyncConfig

/// The config loaders through to diagnostics: the bytes as a store config and a syncs config at
/// once (JSON or YAML, by the file name), and as a project file.
enum ConfigTarget {
    static func runJSON(_ bytes: [UInt8]) async {
        load(bytes, named: "usersyncs.json")
    }

    static func runYAML(_ bytes: [UInt8]) async {
        load(bytes, named: "usersyncs.yaml")
    }

    /// `syncrun.json` when the input starts with `{`, else `syncrun.yaml`.
    static func runProjectFile(_ bytes: [UInt8]) async {
        let name = bytes.first == UInt8(ascii: "{") ? "syncrun.json" : "syncrun.yaml"
        let file = FuzzWorkspace.write(bytes, named: name)
        defer { FuzzWorkspace.cleanUp(file) }
        guard let loaded = try? ConfigLoader().loadProjectFile(file) else { return }
        render(loaded.diagnostics)
        _ = loaded.project.map { String(describing: $0) }
    }

    private static func load(_ bytes: [UInt8], named name: String) {
        let file = FuzzWorkspace.write(bytes, named: name)
        defer { FuzzWorkspace.cleanUp(file) }
        guard let loaded = try? ConfigLoader().load(storeConfig: file, syncsConfig: file) else { return }
        render(loaded.diagnostics)
        for sync in loaded.userSyncs?.syncs ?? [] {
            _ = String(describing: sync)
        }
    }

    private static func render(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics {
            _ = diagnostic.description
        }
    }
}
