import Foundation

/// A temporary directory owned by one test, removed when the scope ends.
public struct TemporaryDirectory: Sendable {
    /// The directory's URL.
    public let url: URL

    /// Creates a fresh, empty directory under the system temporary directory.
    public init(prefix: String = "syncrun-test") throws {
        let base = FileManager.default.temporaryDirectory
        url = base.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Runs `body` with a fresh temporary directory and removes it afterwards.
    public static func with<T>(
        prefix: String = "syncrun-test",
        _ body: (URL) async throws -> T
    ) async throws -> T {
        let dir = try TemporaryDirectory(prefix: prefix)
        defer { try? FileManager.default.removeItem(at: dir.url) }
        return try await body(dir.url)
    }
}

/// Paths of the repository, found from this source file's location.
public enum RepositoryPaths {
    /// The package root (the folder holding Package.swift).
    public static var root: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // SyncrunTestSupport
            .deletingLastPathComponent()  // Sources
            .deletingLastPathComponent()
    }

    /// `Tests/Fixtures/sdk-configs`: the Mobile SDK's own configs, copied into the repository (their
    /// sources are named in `Tests/Fixtures/README.md`), so a clone with nothing beside it tests them.
    public static var sdkFixtures: URL {
        root.appendingPathComponent("Tests/Fixtures/sdk-configs")
    }

    /// The `examples/` folder.
    public static var examples: URL { root.appendingPathComponent("examples") }

    /// The built `syncrun` executable in the debug build folder.
    public static var syncrunExecutable: URL {
        executable(named: "syncrun")
    }

    /// An executable product of the package in the debug build folder (the examples' own).
    public static func executable(named name: String) -> URL {
        root.appendingPathComponent(".build/debug").appendingPathComponent(name)
    }
}
