import Foundation

/// Runs the built `syncrun` executable as a child process, for end-to-end command tests.
///
/// Standard output and standard error go to temporary files rather than pipes, so a command that
/// writes a lot to both can never deadlock the test while it reads one of them.
///
/// ```swift
/// let result = try SyncrunProcess.run(["plan", "--config", dir.path, "--format", "json"])
/// #expect(result.status == 0)
/// ```
public enum SyncrunProcess {
    /// Serialises `Process.run` across the test process.
    private static let spawnLock = NSLock()

    /// Starts `process`, one start at a time across the test process: Foundation's `Process.run`
    /// on Linux crashed (SIGSEGV in a memmove) when parallel tests started children at once.
    public static func spawn(_ process: Process) throws {
        try spawnLock.withLock { try process.run() }
    }

    /// What a finished run printed and how it exited.
    public struct Result: Sendable {
        /// The exit status.
        public var status: Int32
        /// Everything written to standard output.
        public var stdout: String
        /// Everything written to standard error.
        public var stderr: String
        /// The signal that ended the process, when one did (`SIGKILL` for a killed run).
        public var signal: Int32?
    }

    /// Errors starting the executable.
    public struct LaunchError: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// Runs `syncrun` (or `executable`) with `arguments`, in `directory` when given, feeding
    /// `stdin` when given; `onStart` is called with the child's process id once it runs (a test
    /// that kills it at a chosen moment keeps it).
    ///
    /// - Throws: `LaunchError` when the executable has not been built (`swift build --product syncrun`).
    public static func run(
        _ arguments: [String],
        in directory: URL? = nil,
        stdin: String? = nil,
        environment: [String: String]? = nil,
        executable: URL = RepositoryPaths.syncrunExecutable,
        onStart: (@Sendable (_ processID: Int32) -> Void)? = nil
    ) throws -> Result {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw LaunchError(
                description: "'\(executable.path)' is not built; run 'swift build --product syncrun' first"
            )
        }
        let scratch = try TemporaryDirectory(prefix: "syncrun-process")
        defer { try? FileManager.default.removeItem(at: scratch.url) }
        let outputURL = scratch.url.appendingPathComponent("stdout")
        let errorURL = scratch.url.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputURL)
        let error = try FileHandle(forWritingTo: errorURL)
        defer {
            try? output.close()
            try? error.close()
        }

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        process.standardOutput = output
        process.standardError = error
        let input = Pipe()
        process.standardInput = input
        try spawn(process)
        onStart?(process.processIdentifier)
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()

        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: outputURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errorURL), as: UTF8.self),
            signal: process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil
        )
    }

    /// ``run(_:in:stdin:environment:)`` on a dispatch thread, for tests that serve an org in
    /// their own process: blocking a thread of the cooperative pool while the child process talks
    /// to that org can starve the server's handlers (the pool has one thread per core).
    public static func runOffThePool(
        _ arguments: [String],
        in directory: URL? = nil,
        stdin: String? = nil,
        environment: [String: String]? = nil,
        onStart: (@Sendable (_ processID: Int32) -> Void)? = nil
    ) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    with: Swift.Result {
                        try run(arguments, in: directory, stdin: stdin, environment: environment, onStart: onStart)
                    }
                )
            }
        }
    }

    /// Starts `syncrun` with `arguments` (and `environment`, in place of this process's, when
    /// given) and kills it with SIGKILL after `delay` unless it ended first; for crash-safety tests.
    ///
    /// - Returns: Whether the process was killed (`false` when it exited on its own first), and its
    ///   exit status when it was not.
    public static func runKilled(
        _ arguments: [String],
        after delay: Duration,
        in directory: URL? = nil,
        environment: [String: String]? = nil
    ) async throws -> (killed: Bool, status: Int32?) {
        let executable = RepositoryPaths.syncrunExecutable
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw LaunchError(
                description: "'\(executable.path)' is not built; run 'swift build --product syncrun' first"
            )
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try spawn(process)
        try await Task.sleep(for: delay)
        var killed = false
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            killed = true
        }
        process.waitUntilExit()
        if killed, process.terminationReason == .exit {
            // It ended on its own between the check and the signal.
            return (false, process.terminationStatus)
        }
        return (killed, killed ? nil : process.terminationStatus)
    }
}
