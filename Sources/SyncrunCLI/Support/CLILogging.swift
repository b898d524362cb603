import Foundation
import JSONCore
import Logging
import SyncConfig

/// The executable's one logging bootstrap: `--log-level LEVEL` (anywhere on the command line) or
/// `SYNCRUN_LOG_LEVEL`, rendered by a swift-log stream handler on standard error.
///
/// Logs are off (level `critical`) unless asked for: what a user sees while a sync runs is the
/// progress stream, not log lines. At `debug` the org client logs one line per request (method,
/// path without its query string, status, duration); nothing logs a token, a secret or a record's
/// field values. Every line passes ``MaskingLogHandler`` on its way out (credentials masked,
/// control characters escaped), whatever library wrote it.
enum CLILogging {
    /// The option's name on the command line.
    static let optionName = "--log-level"
    /// The environment variable read when the option is absent.
    static let environmentVariable = "SYNCRUN_LOG_LEVEL"

    /// The logger commands hand to the libraries.
    static var logger: Logger { Logger(label: "syncrun") }

    /// Removes `--log-level LEVEL` / `--log-level=LEVEL` from `arguments` (before a `--`) and
    /// returns the rest with the level asked for (the option wins over the environment).
    ///
    /// - Throws: ``CLIError`` (usage) for a missing or unknown level.
    static func extractLevel(
        from arguments: [String],
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> (arguments: [String], level: Logger.Level?) {
        var remaining: [String] = []
        var level: Logger.Level?
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--" {
                remaining.append(contentsOf: arguments[index...])
                break
            }
            if argument == optionName {
                guard index + 1 < arguments.endIndex else {
                    throw CLIError.usage("\(optionName) needs a value: \(levelNames)")
                }
                level = try parse(arguments[index + 1], from: optionName)
                index += 2
                continue
            }
            if argument.hasPrefix(optionName + "=") {
                level = try parse(String(argument.dropFirst(optionName.count + 1)), from: optionName)
                index += 1
                continue
            }
            remaining.append(argument)
            index += 1
        }
        if level == nil, let value = environment[environmentVariable], !value.isEmpty {
            level = try parse(value, from: environmentVariable)
        }
        return (remaining, level)
    }

    /// Bootstraps swift-log once for the process: a stderr stream handler at `level`, or logs off.
    static func bootstrap(level: Logger.Level?) {
        let threshold = level ?? .critical
        let isEnabled = level != nil
        LoggingSystem.bootstrap { label in
            guard isEnabled else { return SwiftLogNoOpLogHandler() }
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = threshold
            return MaskingLogHandler(handler)
        }
    }

    private static var levelNames: String {
        Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
    }

    private static func parse(_ value: String, from source: String) throws -> Logger.Level {
        guard let level = Logger.Level(rawValue: value.lowercased()) else {
            throw CLIError.usage("\(source): unknown log level '\(value)'; use one of \(levelNames)")
        }
        return level
    }
}

/// The stream handler behind a mask: each message and metadata value is passed through
/// `CredentialMask` and JSONCore's terminal escaper before it is written, so a library's log line
/// (an error that quotes a URL's user-info, a token in a description) never prints a credential
/// or a control character.
struct MaskingLogHandler: LogHandler {
    private var inner: StreamLogHandler

    init(_ inner: StreamLogHandler) {
        self.inner = inner
    }

    var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { inner.metadataProvider }
        set { inner.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        event.message = Logger.Message(stringLiteral: Self.safe(event.message.description))
        event.metadata = event.metadata.map(Self.safe)
        var inner = inner
        inner.metadata = Self.safe(inner.metadata)
        inner.log(event: event)
    }

    static func safe(_ text: String) -> String {
        JSONWriter.terminalSafe(CredentialMask.masked(text))
    }

    static func safe(_ metadata: Logger.Metadata) -> Logger.Metadata {
        metadata.mapValues(safe)
    }

    static func safe(_ value: Logger.Metadata.Value) -> Logger.Metadata.Value {
        switch value {
        case .string(let text): .string(safe(text))
        case .stringConvertible(let convertible): .string(safe(convertible.description))
        case .array(let values): .array(values.map(safe))
        case .dictionary(let values): .dictionary(safe(values))
        }
    }
}
