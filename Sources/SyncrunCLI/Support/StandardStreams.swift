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

    /// Writes `text` to standard output, its control characters escaped.
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(JSONWriter.terminalSafeLines(text).utf8))
    }

    /// Writes a progress line that starts with a carriage return: the one control character the
    /// command writes on purpose. The rest of the line is escaped like ``write(_:)``.
    static func writeProgress(_ line: String) {
        FileHandle.standardOutput.write(Data(("\r" + JSONWriter.terminalSafeLines(line)).utf8))
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
