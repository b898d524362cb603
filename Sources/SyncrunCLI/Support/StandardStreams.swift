import Foundation

/// Writes to standard output and standard error without buffering surprises.
enum StandardStreams {
    /// Writes `text` to standard output.
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes raw bytes to standard output.
    static func write(_ data: Data) {
        FileHandle.standardOutput.write(data)
    }

    /// Writes `text` to standard error.
    static func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
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
