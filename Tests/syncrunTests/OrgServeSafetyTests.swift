import AsyncHTTPClient
import Foundation
import NIOCore
import SyncrunTestSupport
import Testing

/// Issue 27 item 1 through the executable: `org serve` refuses risky start-up options with exit 2,
/// refuses the client-credentials grant without `--client-secret-file`, and prints its start-up
/// line and nothing else.
struct OrgServeSafetyTests {
    /// A running `syncrun org serve`: its start-up line, and its output after it.
    final class Server: @unchecked Sendable {
        // @unchecked: the process and handles are used by the test's one task at a time.
        let process = Process()
        let output = Pipe()
        let errorFile: URL
        private(set) var startLine = ""

        init(_ arguments: [String], in directory: URL) throws {
            errorFile = directory.appendingPathComponent("serve-stderr.txt")
            _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
            process.executableURL = RepositoryPaths.syncrunExecutable
            process.arguments = ["org", "serve", "--data", directory.appendingPathComponent("org").path] + arguments
            process.standardOutput = output
            process.standardError = try FileHandle(forWritingTo: errorFile)
            process.standardInput = FileHandle.nullDevice
            try process.run()
            var bytes = Data()
            while !bytes.contains(0x0A) {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                bytes.append(chunk)
            }
            startLine = String(decoding: bytes, as: UTF8.self)
        }

        /// Stops the server with SIGTERM; returns what it wrote after the start-up line.
        func stop() -> (stdout: String, stderr: String, status: Int32) {
            process.terminate()
            process.waitUntilExit()
            let rest = output.fileHandleForReading.readDataToEndOfFile()
            let errors = (try? Data(contentsOf: errorFile)) ?? Data()
            return (
                String(decoding: rest, as: UTF8.self), String(decoding: errors, as: UTF8.self),
                process.terminationStatus
            )
        }
    }

    /// Runs `syncrun` and stops it with SIGTERM if it has not exited within 20 seconds (a server
    /// that started instead of refusing).
    static func runWithDeadline(
        _ arguments: [String],
        in directory: URL
    ) async throws -> (status: Int32, stdout: String, stderr: String, timedOut: Bool) {
        let outputFile = directory.appendingPathComponent("run-stdout.txt")
        let errorFile = directory.appendingPathComponent("run-stderr.txt")
        for file in [outputFile, errorFile] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        let process = Process()
        process.executableURL = RepositoryPaths.syncrunExecutable
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        process.standardInput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let timedOut = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let result = exited.wait(timeout: .now() + 20)
                if result == .timedOut {
                    process.terminate()
                    exited.wait()
                }
                continuation.resume(returning: result == .timedOut)
            }
        }
        return (
            process.terminationStatus,
            String(decoding: try Data(contentsOf: outputFile), as: UTF8.self),
            String(decoding: try Data(contentsOf: errorFile), as: UTF8.self),
            timedOut
        )
    }

    @Test(arguments: [
        ["--host", "0.0.0.0"], ["--host", "192.0.2.10"], ["--host", "::"], ["--refresh-token", ""],
        ["--refresh-token", "  "], ["--token", ""],
    ])
    func riskyStartOptionsExitWithTwoBeforeServing(_ options: [String]) async throws {
        try await TemporaryDirectory.with { directory in
            let result = try await Self.runWithDeadline(
                ["org", "serve", "--data", directory.appendingPathComponent("org").path, "--port", "0"] + options,
                in: directory
            )
            #expect(!result.timedOut, "\(options): the server started instead of refusing")
            #expect(result.status == 2, "\(options): \(result.stdout) \(result.stderr)")
            #expect(result.stdout.isEmpty)
            if options[0] == "--host" {
                #expect(result.stderr.contains("not a loopback address"))
                #expect(result.stderr.contains("--allow-remote"))
            } else {
                #expect(result.stderr.contains("empty or blank"))
            }
        }
    }

    @Test func anEmptyClientSecretFileExitsWithTwo() async throws {
        try await TemporaryDirectory.with { directory in
            let secret = directory.appendingPathComponent("secret")
            try " \n".write(to: secret, atomically: true, encoding: .utf8)
            let result = try await Self.runWithDeadline(
                [
                    "org", "serve", "--data", directory.appendingPathComponent("org").path, "--port", "0",
                    "--client-secret-file", secret.path,
                ],
                in: directory
            )
            #expect(!result.timedOut, "the server started instead of refusing")
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stderr.contains("is empty"))
        }
    }

    @Test func serveRefusesClientCredentialsWithoutASecretAndPrintsOnlyItsStartLine() async throws {
        try await TemporaryDirectory.with { directory in
            // --log-level debug: even then, nothing reaches stderr once the server runs.
            let server = try Server(
                [
                    "--port", "0", "--format", "json", "--log-level", "debug", "--log",
                    directory.appendingPathComponent("requests.jsonl").path,
                ],
                in: directory
            )
            let line = try #require(
                try JSONSerialization.jsonObject(with: Data(server.startLine.utf8)) as? [String: Any],
                "start line: \(server.startLine)"
            )
            #expect(line["warning"] == nil)
            let url = try #require(line["url"] as? String)
            var request = HTTPClientRequest(url: url + "/services/oauth2/token")
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(
                ByteBuffer(string: "grant_type=client_credentials&client_id=anything&client_secret=anything")
            )
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 1 << 20)
            #expect(response.status.code == 400)
            let error = try #require(
                try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: String]
            )
            #expect(error["error"] == "invalid_client")
            #expect(error["access_token"] == nil)
            let stopped = server.stop()
            #expect(stopped.stdout.isEmpty, "after the start line: \(stopped.stdout)")
            #expect(stopped.stderr.isEmpty, "stderr: \(stopped.stderr)")
            #expect(stopped.status == 0)
        }
    }

    @Test func allowRemoteServesWithAWarningInTheStartLine() async throws {
        try await TemporaryDirectory.with { directory in
            // Bound to every interface for as long as it takes to read the start line.
            let server = try Server(
                ["--host", "0.0.0.0", "--allow-remote", "--port", "0", "--format", "json"],
                in: directory
            )
            let stopped = server.stop()
            let line = try #require(
                try JSONSerialization.jsonObject(with: Data(server.startLine.utf8)) as? [String: Any],
                "start line: \(server.startLine)"
            )
            let warning = try #require(line["warning"] as? String)
            #expect(warning.contains("reachable from other machines"))
            #expect(warning.contains("plain HTTP"))
            #expect(stopped.stderr.isEmpty)
        }
    }

    @Test func helpStatesTheRiskOfAllowRemote() async throws {
        let result = try await SyncrunProcess.runOffThePool(["org", "serve", "--help"])
        #expect(result.status == 0)
        let help = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("--allow-remote"))
        #expect(help.contains("RISK: every machine that can reach the port"))
        #expect(help.contains("client-credentials grant is off unless --client-secret-file"))
    }
}
