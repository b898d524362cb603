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
        // Runs of characters that need no escape are appended whole; every escaped character is
        // ASCII, so the run boundaries are character boundaries.
        let bytes = text.utf8
        var runStart = bytes.startIndex
        var index = runStart
        while index != bytes.endIndex {
            let byte = bytes[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
                bytes.formIndex(after: &index)
                continue
            }
            if runStart != index { output += text[runStart..<index] }
            switch byte {
            case UInt8(ascii: "\""): output += "\\\""
            case UInt8(ascii: "\\"): output += "\\\\"
            case UInt8(ascii: "\n"): output += "\\n"
            case UInt8(ascii: "\r"): output += "\\r"
            case UInt8(ascii: "\t"): output += "\\t"
            case 0x08: output += "\\b"
            case 0x0C: output += "\\f"
            default:
                let hex = String(byte, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
            bytes.formIndex(after: &index)
            runStart = index
        }
        if runStart != bytes.endIndex { output += text[runStart..<bytes.endIndex] }
        output += "\""
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
