import Foundation

/// The config files of one run: up to four files found by name in a directory
/// (`userstore`, `usersyncs`, `globalstore`, `globalsyncs`, each `.json`, `.yaml` or `.yml`) or
/// named directly.
///
/// ```swift
/// let files = ConfigFiles.locate(in: URL(fileURLWithPath: "config"))
/// let loaded = try ConfigLoader().load(files)
/// ```
public struct ConfigFiles: Sendable, Hashable {
    /// The base names looked for, in load order.
    public static let baseNames = ["userstore", "usersyncs", "globalstore", "globalsyncs"]
    /// The extensions accepted, in order of preference.
    public static let extensions = ["json", "yaml", "yml"]

    /// The user store config (soups).
    public var userStore: URL?
    /// The user syncs config.
    public var userSyncs: URL?
    /// The global store config.
    public var globalStore: URL?
    /// The global syncs config.
    public var globalSyncs: URL?
    /// Problems found while locating (two candidates for one name: `ambiguous-file`; a directory
    /// under a config's name: `not-a-config`).
    public var diagnostics: [Diagnostic]

    /// Names files directly (`--store-config`, `--syncs-config`): they are the user store.
    public init(
        userStore: URL? = nil,
        userSyncs: URL? = nil,
        globalStore: URL? = nil,
        globalSyncs: URL? = nil,
        diagnostics: [Diagnostic] = []
    ) {
        self.userStore = userStore
        self.userSyncs = userSyncs
        self.globalStore = globalStore
        self.globalSyncs = globalSyncs
        self.diagnostics = diagnostics
    }

    /// Whether no file was found or named.
    public var isEmpty: Bool {
        userStore == nil && userSyncs == nil && globalStore == nil && globalSyncs == nil
    }

    /// The file names looked for, for messages: `userstore.json, userstore.yaml, …`.
    public static var expectedFileNames: [String] {
        baseNames.flatMap { name in extensions.map { "\(name).\($0)" } }
    }

    /// Finds the config files in `directory`. When two files share a base name (say
    /// `usersyncs.json` and `usersyncs.yaml`) the first in ``extensions`` order is used and an
    /// `ambiguous-file` error is reported at the other. A directory named like a config file
    /// (`usersyncs.json/`) is a `not-a-config` error.
    public static func locate(in directory: URL) -> ConfigFiles {
        var files = ConfigFiles()
        let manager = FileManager.default
        for name in baseNames {
            var candidates: [URL] = []
            for url in extensions.map({ directory.appendingPathComponent("\(name).\($0)") }) {
                var isDirectory: ObjCBool = false
                guard manager.fileExists(atPath: url.path, isDirectory: &isDirectory) else { continue }
                guard !isDirectory.boolValue else {
                    // A directory under a config's name is a mistake to report, never an empty config.
                    files.diagnostics.append(
                        Diagnostic(
                            location: SourceLocation(file: ConfigLoader.displayName(of: url), line: 1, column: 1),
                            severity: .error,
                            path: "",
                            code: .notAConfig,
                            message: ConfigMessages.directoryNotFile(url.lastPathComponent)
                        )
                    )
                    continue
                }
                candidates.append(url)
            }
            guard let chosen = candidates.first else { continue }
            if candidates.count > 1 {
                for other in candidates.dropFirst() {
                    files.diagnostics.append(
                        Diagnostic(
                            location: SourceLocation(file: ConfigLoader.displayName(of: other), line: 1, column: 1),
                            severity: .error,
                            path: "",
                            code: .ambiguousFile,
                            message: ConfigMessages.ambiguousFile(name, candidates: candidates.map(\.lastPathComponent))
                        )
                    )
                }
            }
            switch name {
            case "userstore": files.userStore = chosen
            case "usersyncs": files.userSyncs = chosen
            case "globalstore": files.globalStore = chosen
            default: files.globalSyncs = chosen
            }
        }
        return files
    }
}
