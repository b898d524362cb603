/// JSON text: the one string escaper of the package and the writer of ``JSONValue``.
///
/// Strings escape `"`, `\`, `\b`, `\f`, `\n`, `\r`, `\t` by name and every other control
/// character as `\u00XX` (lower-case hex); `/` and non-ASCII characters are written as they are.
/// Numbers: integers in decimal; other numbers in Swift's shortest round-trip form (integral ones
/// with a `.0`: `2.0`; `1e+16`), non-finite ones (which JSON cannot express) as `null`.
public enum JSONWriter {
    /// `text` as a JSON string literal, quotes included.
    public static func quoted(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count + 2)
        appendQuoted(text, to: &output)
        return output
    }

    /// Appends `text` as a JSON string literal, quotes included.
    public static func appendQuoted(_ text: String, to output: inout String) {
        output += "\""
        appendEscaped(text, to: &output, mode: .json)
        output += "\""
    }

    /// `text` safe to print on a terminal, without quotes: every control character is escaped as
    /// in a JSON string (`\n`, `\t`, `\u001b`, …), and so are DEL, the C1 controls (U+0080 to
    /// U+009F, which some terminals obey like ESC sequences) and the bidirectional overrides and
    /// isolates (U+202A to U+202E, U+2066 to U+2069), which reorder what a reader sees. `"` and `\`
    /// stay as they are. For values that came from a file or an org, printed in text output.
    public static func terminalSafe(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        appendEscaped(text, to: &output, mode: .terminal)
        return output
    }

    /// `terminalSafe(text)`, keeping line feeds and tabs (for text that is several lines on purpose,
    /// such as a report or a message printed as it is); every other control character is escaped.
    public static func terminalSafeLines(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        appendEscaped(text, to: &output, mode: .terminalLines)
        return output
    }

    private enum EscapeMode {
        /// A JSON string's content: `"`, `\` and C0 controls.
        case json
        /// Terminal text: C0 controls, DEL, C1 controls, bidirectional controls.
        case terminal
        /// Like ``terminal`` but line feeds and tabs are kept.
        case terminalLines
    }

    /// The one escaper: runs of characters that need no escape are appended whole; escapes are
    /// found byte by byte (every escaped character is ASCII, or one of the few multi-byte
    /// controls of the terminal modes, so the run boundaries are character boundaries).
    private static func appendEscaped(_ text: String, to output: inout String, mode: EscapeMode) {
        let bytes = text.utf8
        let isJSON = mode == .json
        var runStart = bytes.startIndex
        var index = runStart
        while index != bytes.endIndex {
            let byte = bytes[index]
            var length = 1
            var scalar = UInt32(byte)
            if byte < 0x20 {
                if mode == .terminalLines, byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t") {
                    bytes.formIndex(after: &index)
                    continue
                }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                guard isJSON else {
                    bytes.formIndex(after: &index)
                    continue
                }
            } else if isJSON || byte < 0x7F {
                bytes.formIndex(after: &index)
                continue
            } else if byte == 0x7F {
                scalar = 0x7F
            } else if let control = terminalControl(bytes, at: index) {
                scalar = control.scalar
                length = control.length
            } else {
                bytes.formIndex(after: &index)
                continue
            }
            if runStart != index { output.append(contentsOf: text[runStart..<index]) }
            switch scalar {
            case 0x22: output += "\\\""
            case 0x5C: output += "\\\\"
            case 0x0A: output += "\\n"
            case 0x0D: output += "\\r"
            case 0x09: output += "\\t"
            case 0x08: output += "\\b"
            case 0x0C: output += "\\f"
            default:
                let hex = String(scalar, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
            index = bytes.index(index, offsetBy: length)
            runStart = index
        }
        // `append(contentsOf:)` takes a Substring directly; `+=` would go through the generic
        // `RangeReplaceableCollection` path and its runtime type checks.
        if runStart != bytes.endIndex { output.append(contentsOf: text[runStart..<bytes.endIndex]) }
    }

    /// The C1 control (`C2 80`…`C2 9F`) or bidirectional control (`E2 80 AA`…`E2 80 AE`,
    /// `E2 81 A6`…`E2 81 A9`) starting at `index`, with its length in bytes.
    private static func terminalControl(
        _ bytes: String.UTF8View,
        at index: String.UTF8View.Index
    ) -> (scalar: UInt32, length: Int)? {
        let lead = bytes[index]
        guard lead == 0xC2 || lead == 0xE2 else { return nil }
        let second = bytes.index(after: index)
        guard second != bytes.endIndex else { return nil }
        if lead == 0xC2 {
            let next = bytes[second]
            return (0x80...0x9F).contains(next) ? (UInt32(next), 2) : nil
        }
        let third = bytes.index(after: second)
        guard third != bytes.endIndex else { return nil }
        let scalar = 0x2000 | (UInt32(bytes[second] & 0x3F) << 6) | UInt32(bytes[third] & 0x3F)
        return (0x202A...0x202E).contains(scalar) || (0x2066...0x2069).contains(scalar) ? (scalar, 3) : nil
    }

    /// The JSON text of a number that is not an integer literal.
    public static func number(_ value: Double) -> String {
        value.isFinite ? value.description : "null"
    }
}

extension JSONValue {
    /// How ``write(to:options:)`` lays out text.
    public struct WriteOptions: Sendable, Hashable {
        /// Indent nested values by two spaces, one member per line, `": "` after keys.
        public var pretty: Bool
        /// Sort object keys by their UTF-8 bytes (the default) instead of keeping their order.
        public var sortedKeys: Bool

        /// Creates options; the defaults give compact text with sorted keys.
        public init(pretty: Bool = false, sortedKeys: Bool = true) {
            self.pretty = pretty
            self.sortedKeys = sortedKeys
        }
    }

    /// The compact JSON text of this value, with object keys sorted so equal values give equal text.
    public var jsonText: String {
        var output = ""
        write(to: &output)
        return output
    }

    /// The value as JSON text with sorted keys.
    ///
    /// - Parameter pretty: Indent nested values by two spaces, one member per line.
    public func jsonText(pretty: Bool = false) -> String {
        var output = ""
        write(to: &output, options: WriteOptions(pretty: pretty))
        return output
    }

    /// Appends the value's JSON text to `output`.
    ///
    /// Arrays and objects are written with an explicit stack, so any nesting depth is safe.
    public func write(to output: inout String, options: WriteOptions = WriteOptions()) {
        // Each frame is a container being written: its remaining elements and the indent level.
        enum Frame {
            case array(IndexingIterator<[JSONValue]>, first: Bool)
            case object(IndexingIterator<[(key: String, value: JSONValue)]>, first: Bool)
        }
        var stack: [Frame] = []
        var next: JSONValue? = self
        while true {
            if let value = next {
                next = nil
                switch value {
                case .null: output += "null"
                case .bool(let flag): output += flag ? "true" : "false"
                case .integer(let number): output += String(number)
                case .number(let number): output += JSONWriter.number(number)
                case .string(let text): JSONWriter.appendQuoted(text, to: &output)
                case .array(let elements):
                    if elements.isEmpty {
                        output += "[]"
                    } else {
                        output += "["
                        stack.append(.array(elements.makeIterator(), first: true))
                    }
                case .object(let members):
                    if members.isEmpty {
                        output += "{}"
                    } else {
                        output += "{"
                        var list: [(key: String, value: JSONValue)]
                        if options.sortedKeys {
                            // The dictionary's own order is walked without hashing every key;
                            // the order is then the sorted one anyway.
                            list = members.dictionary.map { ($0.key, $0.value) }
                            list.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
                        } else {
                            list = Array(members)
                        }
                        stack.append(.object(list.makeIterator(), first: true))
                    }
                }
            }
            guard let frame = stack.popLast() else { return }
            let depth = stack.count + 1
            switch frame {
            case .array(var iterator, let first):
                if let element = iterator.next() {
                    if !first { output += "," }
                    Self.newline(&output, options: options, depth: depth)
                    stack.append(.array(iterator, first: false))
                    next = element
                } else {
                    Self.newline(&output, options: options, depth: depth - 1)
                    output += "]"
                }
            case .object(var iterator, let first):
                if let member = iterator.next() {
                    if !first { output += "," }
                    Self.newline(&output, options: options, depth: depth)
                    JSONWriter.appendQuoted(member.key, to: &output)
                    output += options.pretty ? ": " : ":"
                    stack.append(.object(iterator, first: false))
                    next = member.value
                } else {
                    Self.newline(&output, options: options, depth: depth - 1)
                    output += "}"
                }
            }
        }
    }

    private static func newline(_ output: inout String, options: WriteOptions, depth: Int) {
        guard options.pretty else { return }
        output += "\n" + String(repeating: "  ", count: depth)
    }
}
