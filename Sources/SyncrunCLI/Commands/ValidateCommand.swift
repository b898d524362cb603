import ArgumentParser
import Foundation
import JSONCore
import SyncConfig

/// `syncrun validate`: loads the config files and reports every problem.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check config files and report every problem, compiler style.",
        discussion: """
            Prints one line per problem, FILE:LINE:COLUMN: error|warning: PATH: message [code], then a \
            summary. Exit status: 0 clean or warnings only, 1 any error, 2 usage error.
            """
    )

    @OptionGroup var config: ConfigOptions

    @Option(help: "Output format: text (one line per problem and a summary) or json (an array of diagnostics).")
    var format: OutputFormat = .text

    func run() throws {
        let loaded = try config.load()
        switch format {
        case .json:
            try StandardStreams.writeJSON(loaded.diagnostics)
        case .text:
            let report = DiagnosticsReport(loaded: loaded, showsSource: StandardStreams.isOutputTerminal)
            StandardStreams.write(report.text)
        }
        if loaded.hasErrors {
            throw ExitStatus.failure.exitCode
        }
    }
}

/// The text form of `syncrun validate`: one line per diagnostic, then a summary line.
private struct DiagnosticsReport {
    let loaded: LoadedConfig
    /// Whether to quote the source line with a caret under each diagnostic (on a terminal only,
    /// so piped output stays one line per problem).
    var showsSource = false

    var text: String {
        var output = ""
        var sources: [String: [Substring]] = [:]
        for diagnostic in loaded.diagnostics {
            output += DiagnosticText.line(diagnostic) + "\n"
            // A file that is not a config is never quoted (it may be a key or binary data).
            guard showsSource, diagnostic.code != .notAConfig else { continue }
            if sources[diagnostic.file] == nil {
                // Quoted from the masked text, as the loader read it: no credential is shown.
                let text = (try? String(contentsOfFile: diagnostic.file, encoding: .utf8)) ?? ""
                sources[diagnostic.file] = CredentialMask.masked(text)
                    .split(separator: "\n", omittingEmptySubsequences: false)
            }
            guard let lines = sources[diagnostic.file], diagnostic.line <= lines.count else { continue }
            let line = lines[diagnostic.line - 1]
            // Keep tabs so the caret lines up with the character it points at.
            let indent = line.unicodeScalars.prefix(diagnostic.column - 1).map { $0 == "\t" ? "\t" : " " }.joined()
            output += "    " + JSONWriter.terminalSafeLines(String(line)) + "\n" + "    " + indent + "^\n"
        }
        output += summary + "\n"
        return output
    }

    /// `2 errors, 1 warning in 2 files`, or `OK: 3 syncs, 2 soups` when there is nothing to say.
    var summary: String {
        // Files read, and those reported without being read (a directory named like a config).
        let fileCount = Set(loaded.files + loaded.diagnostics.map(\.file)).count
        if loaded.diagnostics.isEmpty {
            return "OK: \(Self.count(loaded.allSyncs.count, "sync")), \(Self.count(loaded.allSoups.count, "soup"))"
        }
        var parts: [String] = []
        if loaded.errorCount > 0 { parts.append(Self.count(loaded.errorCount, "error")) }
        if loaded.warningCount > 0 { parts.append(Self.count(loaded.warningCount, "warning")) }
        return parts.joined(separator: ", ") + " in " + Self.count(fileCount, "file")
    }

    private static func count(_ value: Int, _ noun: String) -> String {
        "\(value) \(noun)\(value == 1 ? "" : "s")"
    }
}

/// How `validate` and `org check` print one diagnostic: `FILE:LINE:COL: error|warning: PATH: message [code]`,
/// the code last as linters print their rule ids (the code is what `docs/diagnostics.md` lists).
/// One line whatever the message quotes: control characters are escaped (`JSONWriter.terminalSafe`).
enum DiagnosticText {
    static func line(_ diagnostic: Diagnostic) -> String {
        JSONWriter.terminalSafe(diagnostic.description + " [\(diagnostic.code.rawValue)]")
    }

    /// `FILE:LINE:COLUMN: error|warning: PATH: message`, without the code (standard error of the
    /// commands that load a config), control characters escaped.
    static func plain(_ diagnostic: Diagnostic) -> String {
        JSONWriter.terminalSafe(diagnostic.description)
    }
}
