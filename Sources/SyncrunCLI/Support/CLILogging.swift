import Foundation
import Logging

/// The executable's one logging bootstrap: `--log-level LEVEL` (anywhere on the command line) or
/// `SYNCRUN_LOG_LEVEL`, rendered by a swift-log stream handler on standard error.
///
/// Logs are off (level `critical`) unless asked for: what a user sees while a sync runs is the
/// progress stream, not log lines. At `debug` the org client logs one line per request (method,
/// path without its query string, status, duration); nothing logs a token, a secret or a record's
/// field values.
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
            return handler
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
