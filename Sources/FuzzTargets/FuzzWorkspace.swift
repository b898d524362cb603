import Foundation

/// A scratch folder per process for the targets whose parsers read files.
enum FuzzWorkspace {
    /// `$TMPDIR/syncrun-fuzz-<pid>-<uuid>/`, created on first use.
    static let folder: URL = {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("syncrun-fuzz-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }()

    /// Writes `bytes` to `name` in a folder of its own for this call, and returns the file.
    ///
    /// Each call gets a fresh folder (removed by `cleanUp`), so concurrent callers — the replay
    /// suite runs in parallel — never read each other's files.
    static func write(_ bytes: [UInt8], named name: String) -> URL {
        let call = folder.appendingPathComponent(UUID().uuidString)
        try? FileManager.default.createDirectory(at: call, withIntermediateDirectories: true)
        let url = call.appendingPathComponent(name)
        _ = FileManager.default.createFile(atPath: url.path, contents: Data(bytes))
        return url
    }

    /// Removes the folder `write` made for `file`.
    static func cleanUp(_ file: URL) {
        try? FileManager.default.removeItem(at: file.deletingLastPathComponent())
    }
}
