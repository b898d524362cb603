import Foundation
import LocalOrg

/// A `syncrun org serve` child process on a free loopback port, so that a benchmark's client CPU
/// time and memory are its own: the org's work happens in another process.
///
/// ```swift
/// let writes = try await OrgServeProcess.withRunning(syncrun, data: directory, requestLog: log) { org in
///     try await syncUp(against: org.url, token: org.accessToken)
/// }
/// ```
struct OrgServeProcess {
    /// The org's base URL, `http://127.0.0.1:PORT`.
    let url: String
    /// The bearer token the org accepts.
    let accessToken: String
    private let process: Process

    /// The JSON line `org serve --format json` prints once it listens.
    private struct StartLine: Decodable {
        var url: String
        var accessToken: String
    }

    /// Starts `executable org serve` on `data`, runs `body` against it, and stops it with SIGTERM
    /// (also when `body` throws).
    ///
    /// - Parameters:
    ///   - executable: The `syncrun` executable.
    ///   - data: The org's data directory.
    ///   - requestLog: Where the org appends one JSON line per request, or `nil` for no log.
    ///   - latencyMilliseconds: Added by the org before every response (`org serve --latency`), as a
    ///     real org's 100–300 ms per call.
    /// - Throws: ``BenchmarkError`` when the org does not start or exits with a failure; `body`'s error.
    static func withRunning<T>(
        _ executable: URL,
        data: URL,
        requestLog: URL?,
        latencyMilliseconds: Int = 0,
        _ body: (OrgServeProcess) async throws -> T
    ) async throws -> T {
        let org = try start(executable, data: data, requestLog: requestLog, latency: latencyMilliseconds)
        let result: T
        do {
            result = try await body(org)
        } catch {
            _ = org.stop()
            throw error
        }
        let status = org.stop()
        guard status == 0 else {
            throw BenchmarkError("'syncrun org serve' on '\(data.path)' exited with status \(status)")
        }
        return result
    }

    private static func start(_ executable: URL, data: URL, requestLog: URL?, latency: Int) throws -> OrgServeProcess {
        let process = Process()
        process.executableURL = executable
        process.arguments =
            ["org", "serve", "--data", data.path, "--port", "0", "--format", "json", "--request-limit", "100000000"]
            + (requestLog.map { ["--log", $0.path] } ?? []) + (latency > 0 ? ["--latency", "\(latency)"] : [])
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw BenchmarkError("cannot run '\(executable.path)': \(error); build it or pass --syncrun")
        }
        // The start-up line is the only output; read up to its newline.
        var bytes = Data()
        while !bytes.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            bytes.append(chunk)
        }
        guard let line = try? JSONDecoder().decode(StartLine.self, from: bytes) else {
            process.terminate()
            process.waitUntilExit()
            throw BenchmarkError(
                "'syncrun org serve' did not start (status \(process.terminationStatus)); run it by hand: "
                    + "\(executable.path) org serve --data \(data.path)"
            )
        }
        return OrgServeProcess(url: line.url, accessToken: line.accessToken, process: process)
    }

    /// Sends SIGTERM, waits for the exit, and returns the exit status.
    private func stop() -> Int32 {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// A benchmark run that went wrong: the message says what and where.
struct BenchmarkError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
