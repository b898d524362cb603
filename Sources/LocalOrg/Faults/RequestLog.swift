import Foundation
import NIOConcurrencyHelpers

/// One line of the request log.
///
/// Written as one JSON object per line, for example
/// `{"durationMs":1.52,"method":"GET","path":"/services/data/v59.0/query?q=SELECT+Id+FROM+Account","startedAt":1764396000123.456,"status":200}`.
/// `status` is `null` when the connection was dropped by `--fail-after`. `startedAt` (when the request
/// arrived, before any injected latency) with `durationMs` places each request on a timeline, so the
/// requests a client keeps in flight can be counted from the log alone.
public struct RequestLogEntry: Codable, Sendable, Equatable {
    /// The HTTP method.
    public var method: String
    /// The request path with its query string.
    public var path: String
    /// The response status, or `nil` when no response was sent.
    public var status: Int?
    /// The time spent serving the request, in milliseconds.
    public var durationMs: Double
    /// When the request arrived, in milliseconds since the Unix epoch (with microseconds), or
    /// `nil` in a line written before the log recorded it.
    public var startedAt: Double?

    /// Creates an entry.
    public init(method: String, path: String, status: Int?, durationMs: Double, startedAt: Double? = nil) {
        self.method = method
        self.path = path
        self.status = status
        self.durationMs = durationMs
        self.startedAt = startedAt
    }
}

/// An append-only log of requests, one JSON line each, so tests can count round trips while the
/// server runs.
///
/// Lines are written under a lock and handed to the file system one by one (no user-space buffer),
/// so a reader sees every complete line as soon as the response has been sent. The log never holds
/// headers or bodies, and the values of credential parameters of a query string (`refresh_token`,
/// `client_secret`, `password`, `code`, `assertion`, …) are replaced by `REDACTED`, so tokens
/// cannot leak into it.
final class RequestLog: Sendable {
    private let handle: NIOLockedValueBox<FileHandle>
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
            self.handle = NIOLockedValueBox(handle)
        } catch {
            throw OrgError.configuration(
                "cannot open the request log '\(url.path)' for writing: \(error.localizedDescription)"
            )
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        self.encoder = encoder
    }

    /// The query-string parameters whose values are credentials: never written to the log.
    static let secretParameters: Set<String> = [
        "refresh_token", "client_secret", "password", "code", "assertion", "client_assertion", "access_token",
        "token", "code_verifier",
    ]

    /// The mask written in place of a secret parameter's value.
    static let redactedValue = "REDACTED"

    /// `path` with the value of every credential parameter of its query string (``secretParameters``,
    /// names compared case-insensitively after percent-decoding) replaced by ``redactedValue``.
    /// Other parameters, the SOQL `q` among them, are kept as sent.
    static func redacted(_ path: String) -> String {
        guard let question = path.firstIndex(of: "?") else { return path }
        let query = path[path.index(after: question)...]
        var changed = false
        let parameters = query.split(separator: "&", omittingEmptySubsequences: false).map { parameter -> String in
            let name = parameter.prefix { $0 != "=" }
            let decoded =
                (String(name).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(name))
                .lowercased()
            guard secretParameters.contains(decoded), name.count < parameter.count else { return String(parameter) }
            changed = true
            return name + "=" + redactedValue
        }
        guard changed else { return path }
        return String(path[...question]) + parameters.joined(separator: "&")
    }

    /// Appends one entry as a JSON line, credential parameters of its query string redacted.
    func append(_ entry: RequestLogEntry) {
        var entry = entry
        entry.path = Self.redacted(entry.path)
        guard var line = try? encoder.encode(entry) else { return }
        line.append(0x0A)
        handle.withLockedValue { handle in
            // A full disk must not take the server down; the line is lost, the request is not.
            try? handle.write(contentsOf: line)
        }
    }

    deinit {
        handle.withLockedValue { try? $0.close() }
    }
}
