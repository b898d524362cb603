import Foundation
import JSONCore
import SyncConfig
import SyncrunSession

/// Writes to standard output and standard error without buffering surprises.
///
/// Text never reaches a terminal raw: every control character but line feed and tab (ESC, BEL,
/// CR, DEL, C1 controls, bidirectional overrides) is escaped by JSONCore's one escaper
/// (`JSONWriter.terminalSafeLines`), so a sync name or an org's message cannot clear the screen,
/// retitle the window or hide text. JSON text is unchanged by it (its strings hold no raw control
/// character, and an escaped DEL or C1 control is the same JSON string). Standard error (errors,
/// diagnostics, notes) is also passed through ``CredentialMask``: no token, key or URL
/// user-info is printed there, whatever message carried it.
enum StandardStreams {
    /// Writes a session's notice as a line on standard error (a ``SessionNotice/Handler``).
    @Sendable static func notify(_ notice: SessionNotice) {
        writeError(notice.text + "\n")
    }

    /// Writes `text` to standard output, its control characters escaped; on a terminal, lines
    /// longer than its width are wrapped to it (``TerminalWidth``), never when output is a pipe or file.
    static func write(_ text: String) {
        var safe = JSONWriter.terminalSafeLines(text)
        if let width = TerminalWidth.ofStandardOutput { safe = TerminalWidth.wrap(safe, width: width) }
        FileHandle.standardOutput.write(Data(safe.utf8))
    }

    /// Writes a progress line that starts with a carriage return: the one control character the
    /// command writes on purpose. The rest of the line is escaped like ``write(_:)`` and, on a
    /// terminal, cut to its width (a progress line that wrapped would not be redrawn in place).
    static func writeProgress(_ line: String) {
        var safe = JSONWriter.terminalSafeLines(line)
        if let width = TerminalWidth.ofStandardOutput { safe = TerminalWidth.truncate(safe, width: width) }
        FileHandle.standardOutput.write(Data(("\r" + safe).utf8))
    }

    /// Writes UTF-8 text (JSON lines, whole: never a split character) to standard output, its
    /// control characters escaped like ``write(_:)``'s; bytes that cannot hold one are written as
    /// they are.
    static func write(_ data: Data) {
        let mayHoldControl = data.contains { (byte: UInt8) -> Bool in
            if byte < 0x20 { return byte != 0x0A && byte != 0x09 }
            return byte == 0x7F || byte == 0xC2 || byte == 0xE2
        }
        guard mayHoldControl else { return FileHandle.standardOutput.write(data) }
        write(String(decoding: data, as: UTF8.self))
    }

    /// Writes `text` to standard error, credentials masked and control characters escaped.
    static func writeError(_ text: String) {
        FileHandle.standardError.write(Data(JSONWriter.terminalSafeLines(CredentialMask.masked(text)).utf8))
    }

    /// Whether standard output is a terminal (progress bars) or a pipe/file (JSON lines).
    static var isOutputTerminal: Bool {
        isatty(STDOUT_FILENO) != 0
    }

    /// Encodes `value` as pretty, key-sorted JSON followed by a newline on standard output.
    static func writeJSON<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(value)
        data.append(0x0A)
        write(data)
    }
}

/// The width of the terminal standard output is, and text fitted to it.
enum TerminalWidth {
    /// The columns of the terminal standard output is (the terminal's own size, else `COLUMNS`);
    /// `nil` when standard output is not a terminal (pipes and files are never wrapped) or the
    /// width is unknown.
    static let ofStandardOutput: Int? = {
        guard isatty(STDOUT_FILENO) != 0 else { return nil }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col >= 20 { return Int(size.ws_col) }
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns >= 20 {
            return columns
        }
        return nil
    }()

    /// `text` with every line longer than `width` characters wrapped at the last space that
    /// fits (or cut where none does), continuation lines indented by two spaces.
    static func wrap(_ text: String, width: Int) -> String {
        guard width >= 20 else { return text }
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var rest = line
            var continuation = false
            while true {
                let room = continuation ? width - 2 : width
                guard rest.count > room else { break }
                let limit = rest.index(rest.startIndex, offsetBy: room)
                let cut = rest[rest.index(after: rest.startIndex)..<limit].lastIndex(of: " ") ?? limit
                lines.append((continuation ? "  " : "") + String(rest[..<cut]))
                rest = rest[cut...].drop { $0 == " " }
                continuation = true
            }
            lines.append((continuation ? "  " : "") + String(rest))
        }
        return lines.joined(separator: "\n")
    }

    /// `line` cut to `width - 1` characters (a progress line; the last column stays free so the
    /// cursor does not wrap).
    static func truncate(_ line: String, width: Int) -> String {
        guard line.count >= width else { return line }
        return String(line.prefix(max(1, width - 1)))
    }
}
