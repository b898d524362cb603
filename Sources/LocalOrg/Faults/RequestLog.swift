import Foundation

/// One line of the request log.
///
/// Written as one JSON object per line, for example
/// `{"durationMs":1.52,"method":"GET","path":"/services/data/v59.0/query?q=SELECT+Id+FROM+Account","status":200}`.
/// `status` is `null` when the connection was dropped by `--fail-after`.
public struct RequestLogEntry: Codable, Sendable, Equatable {
    /// The HTTP method.
    public var method: String
    /// The request path with its query string.
    public var path: String
    /// The response status, or `nil` when no response was sent.
    public var status: Int?
    /// The time spent serving the request, in milliseconds.
    public var durationMs: Double

    /// Creates an entry.
    public init(method: String, path: String, status: Int?, durationMs: Double) {
        self.method = method
        self.path = path
        self.status = status
        self.durationMs = durationMs
    }
}

/// An append-only log of requests, one JSON line each, so tests can count round trips while the
/// server runs.
///
/// Lines are written under a lock and handed to the file system one by one (no user-space buffer),
/// so a reader sees every complete line as soon as the response has been sent. The log never holds
/// headers or bodies, so tokens cannot leak into it.
final class RequestLog: Sendable {
    private let handle: ProtectedState<FileHandle>
    private let encoder: JSONEncoder

    /// Opens (creating if needed) the log at `url` for appending.
    ///
    /// - Throws: `OrgError` when the file cannot be created or opened.
    init(url: URL) throws {
        let manager = FileManager.default
        if !manager.fileExists(atPath: url.path) {
            guard manager.createFile(atPath: url.path, contents: nil) else {
                throw OrgError.configuration(
                    "cannot create the request log '\(url.path)'; check that its folder exists and is writable"
                )
            }
        }
        do {
            let handle = try FileHandle(forWritingTo: url)
            try handle.seekToEnd()
            self.handle = ProtectedState(handle)
        } catch {
            throw OrgError.configuration(
                "cannot open the request log '\(url.path)' for writing: \(error.localizedDescription)"
            )
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        self.encoder = encoder
    }

    /// Appends one entry as a JSON line.
    func append(_ entry: RequestLogEntry) {
        guard var line = try? encoder.encode(entry) else { return }
        line.append(0x0A)
        handle.withLock { handle in
            // A full disk must not take the server down; the line is lost, the request is not.
            try? handle.write(contentsOf: line)
        }
    }

    deinit {
        handle.withLock { try? $0.close() }
    }
}
