/// A JSON parser (RFC 8259) that keeps the line and column of every value and of every
/// character inside strings, reports duplicate keys without stopping, and stops at the first
/// syntax error with the exact offending character.
struct JSONSourceParser {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var column = 1
    private(set) var findings: [SourceFinding] = []

    init(bytes: [UInt8]) {
        self.bytes = bytes
        // A UTF-8 byte order mark is not content.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    /// Parses the whole document.
    ///
    /// - Throws: ``SourceSyntaxError`` at the first character that is not valid JSON.
    mutating func parseDocument() throws(SourceSyntaxError) -> ConfigNode {
        skipWhitespace()
        guard index < bytes.count else { throw error("the file is empty; expected a JSON object") }
        let node = try parseValue(path: .root)
        skipWhitespace()
        if index < bytes.count {
            throw error("unexpected \(describeCurrent()) after the end of the JSON document")
        }
        return node
    }

    // MARK: - Values

    private mutating func parseValue(path: ConfigPath) throws(SourceSyntaxError) -> ConfigNode {
        let start = position
        guard index < bytes.count else { throw error("unexpected end of file; expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(path: path)
        case UInt8(ascii: "["): return try parseArray(path: path)
        case UInt8(ascii: "\""):
            let (text, map) = try parseString()
            return ConfigNode(value: .scalar(.init(text: text, kind: .string, textMap: map)), position: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let text = try parseNumber()
            return scalar(text, .number, at: start)
        case UInt8(ascii: "t"):
            try expectWord("true")
            return scalar("true", .bool, at: start)
        case UInt8(ascii: "f"):
            try expectWord("false")
            return scalar("false", .bool, at: start)
        case UInt8(ascii: "n"):
            try expectWord("null")
            return scalar("null", .null, at: start)
        case UInt8(ascii: "/"): throw error("comments are not allowed in JSON; remove them or use YAML")
        case UInt8(ascii: "'"): throw error("strings must use double quotes (\"), not single quotes")
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            throw error("unexpected \(describeCurrent()); expected a value (is there a trailing comma?)")
        default:
            if let word = currentWord() {
                throw error("unexpected '\(word)'; expected a value (strings need double quotes)")
            }
            throw error("unexpected \(describeCurrent()); expected a value")
        }
    }

    /// The letters, digits and underscores starting at the current byte, if it is a letter.
    private func currentWord() -> String? {
        guard let byte = peek, Self.isWordByte(byte), !Self.isDigit(byte) else { return nil }
        var end = index
        while end < bytes.count, Self.isWordByte(bytes[end]) { end += 1 }
        return String(decoding: bytes[index..<end], as: UTF8.self)
    }

    private func scalar(_ text: String, _ kind: ConfigNode.Scalar.Kind, at start: TextPosition) -> ConfigNode {
        ConfigNode(value: .scalar(.init(text: text, kind: kind, textMap: .fixed(at: start))), position: start)
    }

    private mutating func parseObject(path: ConfigPath) throws(SourceSyntaxError) -> ConfigNode {
        let start = position
        advance()  // {
        var members: [ConfigNode.Member] = []
        var seen: [String: TextPosition] = [:]
        skipWhitespace()
        if peek == UInt8(ascii: "}") {
            advance()
            return ConfigNode(value: .object([]), position: start)
        }
        while true {
            skipWhitespace()
            guard peek == UInt8(ascii: "\"") else {
                if peek == UInt8(ascii: "}") { throw error("trailing comma before '}'; remove the last ','") }
                if peek == UInt8(ascii: "/") {
                    throw error("comments are not allowed in JSON; remove them or use YAML")
                }
                if peek == UInt8(ascii: "'") { throw error("keys must use double quotes (\"), not single quotes") }
                if index >= bytes.count {
                    throw error(
                        "unexpected end of file; the object opened at line \(start.line), column \(start.column) is not closed"
                    )
                }
                throw error("expected a key in double quotes, found \(describeCurrent())")
            }
            let keyPosition = position
            let (key, _) = try parseString()
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else {
                throw error("expected ':' after the key '\(key)', found \(describeCurrent())")
            }
            advance()
            skipWhitespace()
            let value = try parseValue(path: path.appending(key))
            if let first = seen[key] {
                findings.append(
                    SourceFinding(
                        position: keyPosition, path: path.appending(key), code: .duplicateKey,
                        message: ConfigMessages.duplicateKey(key, firstLine: first.line)))
            } else {
                seen[key] = keyPosition
                members.append(ConfigNode.Member(key: key, keyPosition: keyPosition, value: value))
            }
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","): advance()
            case UInt8(ascii: "}"):
                advance()
                return ConfigNode(value: .object(members), position: start)
            case nil:
                throw error(
                    "unexpected end of file; the object opened at line \(start.line), column \(start.column) is not closed"
                )
            default: throw error("expected ',' or '}' after the value of '\(key)', found \(describeCurrent())")
            }
        }
    }

    private mutating func parseArray(path: ConfigPath) throws(SourceSyntaxError) -> ConfigNode {
        let start = position
        advance()  // [
        var elements: [ConfigNode] = []
        skipWhitespace()
        if peek == UInt8(ascii: "]") {
            advance()
            return ConfigNode(value: .array([]), position: start)
        }
        while true {
            skipWhitespace()
            if peek == UInt8(ascii: "]") { throw error("trailing comma before ']'; remove the last ','") }
            elements.append(try parseValue(path: path.appending(index: elements.count)))
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","): advance()
            case UInt8(ascii: "]"):
                advance()
                return ConfigNode(value: .array(elements), position: start)
            case nil:
                throw error(
                    "unexpected end of file; the array opened at line \(start.line), column \(start.column) is not closed"
                )
            default: throw error("expected ',' or ']' after an array element, found \(describeCurrent())")
            }
        }
    }

    // MARK: - Strings, numbers, words

    private mutating func parseString() throws(SourceSyntaxError) -> (String, TextMap) {
        let start = position
        advance()  // opening quote
        var scalars = String.UnicodeScalarView()
        var positions: [TextPosition] = []
        while true {
            guard let byte = peek else {
                throw SourceSyntaxError(position: start, message: "unterminated string; add the closing '\"'")
            }
            let here = position
            switch byte {
            case UInt8(ascii: "\""):
                positions.append(here)
                advance()
                return (String(scalars), TextMap(positions: positions))
            case UInt8(ascii: "\\"):
                scalars.append(try parseEscape())
                positions.append(here)
            case 0x00..<0x20:
                if byte == 0x0A {
                    throw SourceSyntaxError(
                        position: start,
                        message:
                            "unterminated string; add the closing '\"' (strings cannot span lines; write \\n for a line break)"
                    )
                }
                throw error("control character U+\(hex(UInt32(byte))) in a string; escape it")
            default:
                guard let scalar = decodeUTF8Scalar() else { throw error("invalid UTF-8 in a string") }
                scalars.append(scalar)
                positions.append(here)
            }
        }
    }

    private mutating func parseEscape() throws(SourceSyntaxError) -> Unicode.Scalar {
        advance()  // backslash
        guard let byte = peek else { throw error("unexpected end of file in an escape sequence") }
        let simple: [UInt8: Unicode.Scalar] = [
            UInt8(ascii: "\""): "\"", UInt8(ascii: "\\"): "\\", UInt8(ascii: "/"): "/",
            UInt8(ascii: "b"): "\u{08}", UInt8(ascii: "f"): "\u{0C}", UInt8(ascii: "n"): "\n",
            UInt8(ascii: "r"): "\r", UInt8(ascii: "t"): "\t",
        ]
        if let scalar = simple[byte] {
            advance()
            return scalar
        }
        guard byte == UInt8(ascii: "u") else {
            throw error(
                "invalid escape '\\\(describeByte(byte))' in a string; valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX"
            )
        }
        advance()
        let high = try parseHex4()
        if (0xD800..<0xDC00).contains(high) {
            guard peek == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                throw error("unpaired surrogate \\u\(hex(high)) in a string")
            }
            advance()
            advance()
            let low = try parseHex4()
            guard (0xDC00..<0xE000).contains(low),
                let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            else { throw error("unpaired surrogate \\u\(hex(high)) in a string") }
            return scalar
        }
        guard let scalar = Unicode.Scalar(high) else { throw error("unpaired surrogate \\u\(hex(high)) in a string") }
        return scalar
    }

    private mutating func parseHex4() throws(SourceSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek, let digit = Self.hexDigit(byte) else {
                throw error("expected 4 hexadecimal digits after \\u, found \(describeCurrent())")
            }
            value = value * 16 + digit
            advance()
        }
        return value
    }

    private mutating func parseNumber() throws(SourceSyntaxError) -> String {
        let startIndex = index
        if peek == UInt8(ascii: "-") { advance() }
        guard let first = peek, Self.isDigit(first) else { throw error("expected a digit, found \(describeCurrent())") }
        advance()
        if first == UInt8(ascii: "0"), let next = peek, Self.isDigit(next) {
            throw error("numbers cannot have leading zeros")
        }
        while let byte = peek, Self.isDigit(byte) { advance() }
        if peek == UInt8(ascii: ".") {
            advance()
            guard let byte = peek, Self.isDigit(byte) else {
                throw error("expected a digit after '.', found \(describeCurrent())")
            }
            while let byte = peek, Self.isDigit(byte) { advance() }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            advance()
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { advance() }
            guard let byte = peek, Self.isDigit(byte) else {
                throw error("expected a digit in the exponent, found \(describeCurrent())")
            }
            while let byte = peek, Self.isDigit(byte) { advance() }
        }
        return String(decoding: bytes[startIndex..<index], as: UTF8.self)
    }

    private mutating func expectWord(_ word: String) throws(SourceSyntaxError) {
        let start = position
        let startIndex = index
        for expected in word.utf8 {
            guard peek == expected else {
                var end = startIndex
                while end < bytes.count, Self.isWordByte(bytes[end]) { end += 1 }
                let found = String(decoding: bytes[startIndex..<max(end, startIndex + 1)], as: UTF8.self)
                throw SourceSyntaxError(
                    position: start, message: "unexpected '\(found)'; expected a value (strings need double quotes)")
            }
            advance()
        }
        if let byte = peek, Self.isWordByte(byte) {
            throw SourceSyntaxError(position: start, message: "unexpected \(describeCurrent()) after '\(word)'")
        }
    }

    // MARK: - Reading bytes

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private var position: TextPosition { TextPosition(line: line, column: column) }

    private mutating func advance() {
        guard index < bytes.count else { return }
        let byte = bytes[index]
        index += 1
        if byte == 0x0A {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            // Continuation bytes belong to the scalar already counted.
            column += 1
        }
    }

    private mutating func skipWhitespace() {
        while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D { advance() }
    }

    private mutating func decodeUTF8Scalar() -> Unicode.Scalar? {
        var iterator = bytes[index...].makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return nil }
        for _ in 0..<String(scalar).utf8.count { advance() }
        return scalar
    }

    private func describeCurrent() -> String {
        guard let byte = peek else { return "end of file" }
        return describeByte(byte).isEmpty ? "a control character" : "'\(describeByte(byte))'"
    }

    private func describeByte(_ byte: UInt8) -> String {
        if byte >= 0x80 {
            var iterator = bytes[index...].makeIterator()
            var decoder = UTF8()
            if case .scalarValue(let scalar) = decoder.decode(&iterator) { return String(scalar) }
            return "?"
        }
        return byte < 0x20 ? "" : String(UnicodeScalar(byte))
    }

    private func error(_ message: String) -> SourceSyntaxError {
        SourceSyntaxError(position: position, message: message)
    }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 0x30...0x39: UInt32(byte - 0x30)
        case 0x41...0x46: UInt32(byte - 0x41 + 10)
        case 0x61...0x66: UInt32(byte - 0x61 + 10)
        default: nil
        }
    }
}
