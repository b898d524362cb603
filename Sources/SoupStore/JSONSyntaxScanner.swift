/// Finds the first syntax error of a JSON text and its line and column (1-based, columns in
/// UTF-8 bytes), without building any value. SQLite's `json_valid` says whether text is valid;
/// this says where it is not, for error messages.
enum JSONSyntaxScanner {
    /// The first error in `text`, or `nil` when it is one valid JSON value.
    static func firstError(in text: String, source: String? = nil, lineOffset: Int = 0) -> SoupStoreError? {
        var copy = text
        return copy.withUTF8 { bytes in
            var scanner = Scanner(bytes: bytes)
            guard let problem = scanner.scanDocument() else { return nil }
            return SoupStoreError.malformedJSON(
                line: scanner.line + lineOffset, column: scanner.column, problem, source: source)
        }
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var offset = 0
        var line = 1
        var lineStart = 0
        var column: Int { offset - lineStart + 1 }

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        private var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

        private mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                offset += 1
                if byte == 0x0A {
                    line += 1
                    lineStart = offset
                }
            }
        }

        /// Returns a problem description, leaving `offset` at it; `nil` when the text is valid.
        mutating func scanDocument() -> String? {
            if offset == 0, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { offset = 3 }
            // Containers still open: true for an object, false for an array.
            var stack: [Bool] = []
            skipWhitespace()
            while true {
                // Expect a value.
                guard let byte = current else { return "unexpected end of input, expected a value" }
                switch byte {
                case UInt8(ascii: "{"):
                    offset += 1
                    skipWhitespace()
                    if current == UInt8(ascii: "}") {
                        offset += 1
                    } else {
                        if let problem = scanKey() { return problem }
                        stack.append(true)
                        skipWhitespace()
                        continue
                    }
                case UInt8(ascii: "["):
                    offset += 1
                    skipWhitespace()
                    if current == UInt8(ascii: "]") {
                        offset += 1
                    } else {
                        stack.append(false)
                        continue
                    }
                case UInt8(ascii: "\""):
                    if let problem = scanString() { return problem }
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    if let problem = scanNumber() { return problem }
                case UInt8(ascii: "t"): if let problem = scanLiteral("true") { return problem }
                case UInt8(ascii: "f"): if let problem = scanLiteral("false") { return problem }
                case UInt8(ascii: "n"): if let problem = scanLiteral("null") { return problem }
                default:
                    return "unexpected character '\(Character(Unicode.Scalar(byte)))', expected a value"
                }
                // After a value: close containers or find the next member.
                while true {
                    skipWhitespace()
                    guard let isObject = stack.last else {
                        return current == nil ? nil : "unexpected text after the JSON value"
                    }
                    guard let next = current else {
                        return "unexpected end of input, expected ',' or '\(isObject ? "}" : "]")'"
                    }
                    if next == UInt8(ascii: ",") {
                        offset += 1
                        skipWhitespace()
                        if isObject, let problem = scanKey() { return problem }
                        skipWhitespace()
                        break
                    }
                    if next == UInt8(ascii: isObject ? "}" : "]") {
                        offset += 1
                        stack.removeLast()
                        continue
                    }
                    return "expected ',' or '\(isObject ? "}" : "]")'"
                }
            }
        }

        private mutating func scanKey() -> String? {
            guard current == UInt8(ascii: "\"") else { return "expected a member name in double quotes" }
            if let problem = scanString() { return problem }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { return "expected ':' after the member name" }
            offset += 1
            skipWhitespace()
            return nil
        }

        private mutating func scanString() -> String? {
            offset += 1
            while let byte = current {
                switch byte {
                case UInt8(ascii: "\""):
                    offset += 1
                    return nil
                case UInt8(ascii: "\\"):
                    offset += 1
                    guard let escaped = current else { return "unterminated string" }
                    if escaped == UInt8(ascii: "u") {
                        for _ in 0..<4 {
                            offset += 1
                            guard let hex = current, Self.isHex(hex) else { return "invalid \\u escape" }
                        }
                    } else if !"\"\\/bfnrt".utf8.contains(escaped) {
                        return "invalid escape '\\\(Character(Unicode.Scalar(escaped)))'"
                    }
                    offset += 1
                case 0x00..<0x20:
                    return byte == 0x0A ? "unterminated string" : "control character in a string"
                default:
                    offset += 1
                }
            }
            return "unterminated string"
        }

        private mutating func scanNumber() -> String? {
            if current == UInt8(ascii: "-") { offset += 1 }
            guard let first = current, Self.isDigit(first) else { return "invalid number" }
            offset += 1
            if first != UInt8(ascii: "0") { while let byte = current, Self.isDigit(byte) { offset += 1 } }
            if current == UInt8(ascii: ".") {
                offset += 1
                guard let byte = current, Self.isDigit(byte) else { return "invalid number" }
                while let byte = current, Self.isDigit(byte) { offset += 1 }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                offset += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { offset += 1 }
                guard let byte = current, Self.isDigit(byte) else { return "invalid number" }
                while let byte = current, Self.isDigit(byte) { offset += 1 }
            }
            return nil
        }

        private mutating func scanLiteral(_ word: String) -> String? {
            for byte in word.utf8 {
                guard current == byte else { return "invalid literal, expected '\(word)'" }
                offset += 1
            }
            return nil
        }

        private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        private static func isHex(_ byte: UInt8) -> Bool {
            isDigit(byte) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
        }
    }
}
