/// The one JSON reader of the package (RFC 8259): a pull tokenizer over UTF-8 bytes.
///
/// It validates as it goes and stops at the first error with the exact offending byte (see
/// ``JSONSyntaxError``); it never recurses, keeping the open containers on its own stack, and
/// refuses nesting deeper than ``maximumDepth`` (512 by default) with a positioned error, so no
/// input can exhaust the call stack. Tokens carry byte offsets: strings and numbers are only
/// decoded when asked (``string(_:)``, ``number(_:)``), so skipping a value allocates nothing.
/// ``JSONTextLocator`` turns offsets into lines and columns. A leading UTF-8 byte order mark is
/// skipped.
///
/// ```swift
/// var text = #"{"a": [1, "x"]}"#
/// let value = try text.withUTF8 { bytes in
///     var reader = JSONReader(bytes: bytes)
///     return try reader.readDocument()
/// }
/// ```
public struct JSONReader {
    /// A string token: the bytes from its opening quote to just after its closing quote.
    public struct StringToken: Sendable, Hashable {
        /// The offset of the opening quote.
        public var start: Int
        /// The offset just after the closing quote.
        public var end: Int
        /// Whether the string holds a backslash escape.
        public var hasEscapes: Bool
    }

    /// A number token: the bytes of its literal.
    public struct NumberToken: Sendable, Hashable {
        /// The offset of its first byte.
        public var start: Int
        /// The offset just after its last byte.
        public var end: Int
        /// Whether the literal has neither a fraction nor an exponent.
        public var isInteger: Bool
    }

    /// One step through a document.
    public enum Token: Sendable, Hashable {
        case objectStart
        case objectEnd
        case arrayStart
        case arrayEnd
        /// An object key; the reader has consumed the `:` after it.
        case key(StringToken)
        case string(StringToken)
        case number(NumberToken)
        case bool(Bool)
        case null
    }

    /// The nesting limit of readers created without one.
    public static let defaultMaximumDepth = 512

    private struct Frame {
        var isObject: Bool
        var open: Int
        var key: StringToken?
    }

    private enum State {
        case start, value, objectFirst, objectKey, arrayFirst, arrayElement, afterValue, end
    }

    /// The input.
    public let bytes: UnsafeBufferPointer<UInt8>
    /// The most containers that may be open at once.
    public let maximumDepth: Int
    /// The offset of the next unread byte.
    public private(set) var offset: Int
    /// The offset where the token last returned by ``next()`` starts.
    public private(set) var tokenStart: Int
    private var frames: [Frame] = []
    private var state = State.start

    /// A reader over `bytes`, which must stay valid while it is used.
    public init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int = JSONReader.defaultMaximumDepth) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
        offset = Self.byteOrderMarkLength(bytes)
        tokenStart = offset
    }

    /// 3 when `bytes` start with a UTF-8 byte order mark, else 0.
    public static func byteOrderMarkLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    }

    /// The number of containers open.
    public var depth: Int { frames.count }

    /// The next token, or `nil` once the document is complete (only whitespace may follow it).
    public mutating func next() throws(JSONSyntaxError) -> Token? {
        while true {
            // Every token may be preceded by whitespace (at `.end` there is none left).
            skipWhitespace()
            switch state {
            case .start:
                guard offset < bytes.count else {
                    throw error("the text is empty; expected a JSON value", kind: .empty)
                }
                return try valueToken()
            case .value:
                return try valueToken()
            case .objectFirst:
                if peek == UInt8(ascii: "}") { return close(.objectEnd) }
                return try keyToken()
            case .objectKey:
                return try keyToken()
            case .arrayFirst:
                if peek == UInt8(ascii: "]") { return close(.arrayEnd) }
                return try valueToken()
            case .arrayElement:
                if peek == UInt8(ascii: "]") { throw error("trailing comma before ']'; remove the last ','") }
                return try valueToken()
            case .afterValue:
                guard let frame = frames.last else {
                    if offset < bytes.count {
                        throw error("unexpected \(describeCurrent()) after the end of the JSON document")
                    }
                    state = .end
                    return nil
                }
                guard let byte = peek else { throw notClosed(frame) }
                if byte == UInt8(ascii: ",") {
                    offset += 1
                    state = frame.isObject ? .objectKey : .arrayElement
                    continue
                }
                if frame.isObject {
                    if byte == UInt8(ascii: "}") { return close(.objectEnd) }
                    let key = frame.key.map { string($0) } ?? ""
                    throw error("expected ',' or '}' after the value of '\(key)', found \(describeCurrent())")
                }
                if byte == UInt8(ascii: "]") { return close(.arrayEnd) }
                throw error("expected ',' or ']' after an array element, found \(describeCurrent())")
            case .end:
                return nil
            }
        }
    }

    /// The first byte of the next token after whitespace, without consuming anything else.
    public mutating func peekByte() -> UInt8? {
        skipWhitespace()
        return peek
    }

    /// Whether the next token must be a value (not a key, a separator or a closing bracket).
    var canStartValue: Bool {
        switch state {
        case .start, .value, .arrayElement: true
        case .arrayFirst: peek != UInt8(ascii: "]")
        case .objectFirst, .objectKey, .afterValue, .end: false
        }
    }

    /// Records that a whole value from `start` to `end` was skipped.
    mutating func skipped(to end: Int, from start: Int) {
        tokenStart = start
        offset = end
        state = .afterValue
    }

    // MARK: - Tokens

    private mutating func close(_ token: Token) -> Token {
        tokenStart = offset
        offset += 1
        frames.removeLast()
        state = .afterValue
        return token
    }

    private mutating func open(isObject: Bool) throws(JSONSyntaxError) -> Token {
        guard frames.count < maximumDepth else {
            throw error(
                "arrays and objects are nested more than \(maximumDepth) levels deep; flatten the document",
                kind: .tooDeep
            )
        }
        frames.append(Frame(isObject: isObject, open: offset))
        offset += 1
        state = isObject ? .objectFirst : .arrayFirst
        return isObject ? .objectStart : .arrayStart
    }

    private mutating func valueToken() throws(JSONSyntaxError) -> Token {
        tokenStart = offset
        guard let byte = peek else { throw error("unexpected end of file; expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return try open(isObject: true)
        case UInt8(ascii: "["): return try open(isObject: false)
        case UInt8(ascii: "\""):
            let token = try scanString()
            state = .afterValue
            return .string(token)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let token = try scanNumber()
            state = .afterValue
            return .number(token)
        case UInt8(ascii: "t"):
            try expectWord("true")
            state = .afterValue
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectWord("false")
            state = .afterValue
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectWord("null")
            state = .afterValue
            return .null
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

    private mutating func keyToken() throws(JSONSyntaxError) -> Token {
        guard peek == UInt8(ascii: "\"") else {
            if peek == UInt8(ascii: "}") { throw error("trailing comma before '}'; remove the last ','") }
            if peek == UInt8(ascii: "/") { throw error("comments are not allowed in JSON; remove them or use YAML") }
            if peek == UInt8(ascii: "'") { throw error("keys must use double quotes (\"), not single quotes") }
            if offset >= bytes.count, let frame = frames.last { throw notClosed(frame) }
            throw error("expected a key in double quotes, found \(describeCurrent())")
        }
        tokenStart = offset
        let key = try scanString()
        frames[frames.count - 1].key = key
        skipWhitespace()
        guard peek == UInt8(ascii: ":") else {
            throw error("expected ':' after the key '\(string(key))', found \(describeCurrent())")
        }
        offset += 1
        state = .value
        return .key(key)
    }

    private func notClosed(_ frame: Frame) -> JSONSyntaxError {
        var locator = JSONTextLocator(bytes: bytes)
        let open = locator.position(of: frame.open)
        let noun = frame.isObject ? "object" : "array"
        return error(
            "unexpected end of file; the \(noun) opened at line \(open.line), column \(open.column) is not closed"
        )
    }

    // MARK: - Strings

    private mutating func scanString() throws(JSONSyntaxError) -> StringToken {
        let start = offset
        offset += 1  // opening quote
        var hasEscapes = false
        while offset < bytes.count {
            let byte = bytes[offset]
            switch byte {
            case UInt8(ascii: "\""):
                offset += 1
                return StringToken(start: start, end: offset, hasEscapes: hasEscapes)
            case UInt8(ascii: "\\"):
                hasEscapes = true
                try scanEscape()
            case 0x0A:
                throw error(
                    "unterminated string; add the closing '\"' (strings cannot span lines; write \\n for a line break)",
                    at: start
                )
            case 0x00..<0x20:
                throw error("control character U+\(Self.hex(UInt32(byte))) in a string; escape it")
            case 0x80...:
                guard let length = Self.utf8SequenceLength(bytes, at: offset) else {
                    throw error("invalid UTF-8 in a string")
                }
                offset += length
            default:
                offset += 1
            }
        }
        throw error("unterminated string; add the closing '\"'", at: start)
    }

    private mutating func scanEscape() throws(JSONSyntaxError) {
        offset += 1  // backslash
        guard let byte = peek else { throw error("unexpected end of file in an escape sequence") }
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            offset += 1
        case UInt8(ascii: "u"):
            offset += 1
            let high = try scanHex4()
            if (0xD800..<0xDC00).contains(high) {
                guard peek == UInt8(ascii: "\\"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "u")
                else { throw error("unpaired surrogate \\u\(Self.hex(high)) in a string") }
                offset += 2
                let low = try scanHex4()
                guard (0xDC00..<0xE000).contains(low) else {
                    throw error("unpaired surrogate \\u\(Self.hex(high)) in a string")
                }
            } else if Unicode.Scalar(high) == nil {
                throw error("unpaired surrogate \\u\(Self.hex(high)) in a string")
            }
        default:
            throw error(
                "invalid escape '\\\(describeByte(at: offset))' in a string; "
                    + "valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX"
            )
        }
    }

    private mutating func scanHex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek, let digit = Self.hexDigit(byte) else {
                throw error("expected 4 hexadecimal digits after \\u, found \(describeCurrent())")
            }
            value = value * 16 + digit
            offset += 1
        }
        return value
    }

    /// The decoded text of a string token.
    public func string(_ token: StringToken) -> String {
        let inner = UnsafeBufferPointer(rebasing: bytes[(token.start + 1)..<(token.end - 1)])
        guard token.hasEscapes else { return String(decoding: inner, as: UTF8.self) }
        var scalars = String.UnicodeScalarView()
        decode(token) { scalar, _ in scalars.append(scalar) }
        return String(scalars)
    }

    /// The decoded text of a string token, and the offset of the source of each of its Unicode
    /// scalars (an escape's backslash for an escaped one) followed by the offset of the closing quote.
    public func string(_ token: StringToken, scalarOffsets: inout [Int]) -> String {
        var scalars = String.UnicodeScalarView()
        decode(token) { scalar, source in
            scalars.append(scalar)
            scalarOffsets.append(source)
        }
        scalarOffsets.append(token.end - 1)
        return String(scalars)
    }

    /// Calls `body` with each scalar of a (validated) string token and the offset of its source.
    private func decode(_ token: StringToken, _ body: (Unicode.Scalar, Int) -> Void) {
        var index = token.start + 1
        let end = token.end - 1
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\") {
                let source = index
                let escaped = bytes[index + 1]
                index += 2
                switch escaped {
                case UInt8(ascii: "b"): body("\u{08}", source)
                case UInt8(ascii: "f"): body("\u{0C}", source)
                case UInt8(ascii: "n"): body("\n", source)
                case UInt8(ascii: "r"): body("\r", source)
                case UInt8(ascii: "t"): body("\t", source)
                case UInt8(ascii: "u"):
                    var value = hex4(at: index)
                    index += 4
                    if (0xD800..<0xDC00).contains(value) {
                        let low = hex4(at: index + 2)
                        index += 6
                        value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                    }
                    body(Unicode.Scalar(value) ?? "\u{FFFD}", source)
                default: body(Unicode.Scalar(escaped), source)
                }
            } else if byte < 0x80 {
                body(Unicode.Scalar(byte), index)
                index += 1
            } else {
                var iterator = UnsafeBufferPointer(rebasing: bytes[index..<end]).makeIterator()
                var decoder = UTF8()
                guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return }
                body(scalar, index)
                index += UTF8.width(scalar)
            }
        }
    }

    private func hex4(at start: Int) -> UInt32 {
        var value: UInt32 = 0
        for index in start..<start + 4 { value = value * 16 + (Self.hexDigit(bytes[index]) ?? 0) }
        return value
    }

    // MARK: - Numbers and words

    private mutating func scanNumber() throws(JSONSyntaxError) -> NumberToken {
        let start = offset
        var isInteger = true
        if peek == UInt8(ascii: "-") { offset += 1 }
        guard let first = peek, Self.isDigit(first) else {
            throw error("expected a digit, found \(describeCurrent())")
        }
        offset += 1
        if first == UInt8(ascii: "0"), let next = peek, Self.isDigit(next) {
            throw error("numbers cannot have leading zeros")
        }
        skipDigits()
        if peek == UInt8(ascii: ".") {
            isInteger = false
            offset += 1
            guard let byte = peek, Self.isDigit(byte) else {
                throw error("expected a digit after '.', found \(describeCurrent())")
            }
            skipDigits()
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            isInteger = false
            offset += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { offset += 1 }
            guard let byte = peek, Self.isDigit(byte) else {
                throw error("expected a digit in the exponent, found \(describeCurrent())")
            }
            skipDigits()
        }
        return NumberToken(start: start, end: offset, isInteger: isInteger)
    }

    private mutating func skipDigits() {
        while let byte = peek, Self.isDigit(byte) { offset += 1 }
    }

    /// The literal text of a number token.
    public func numberText(_ token: NumberToken) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[token.start..<token.end]), as: UTF8.self)
    }

    /// The value of a number token: ``JSONValue/integer(_:)`` for an integer literal that fits
    /// in 64 bits, else ``JSONValue/number(_:)``.
    public func number(_ token: NumberToken) -> JSONValue {
        let text = numberText(token)
        if token.isInteger, let value = Int64(text) { return .integer(value) }
        return .number(Double(text) ?? .nan)
    }

    private mutating func expectWord(_ word: StaticString) throws(JSONSyntaxError) {
        let start = offset
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for byte in expected {
            guard peek == byte else {
                var end = start
                while end < bytes.count, Self.isWordByte(bytes[end]) { end += 1 }
                let found = String(
                    decoding: UnsafeBufferPointer(rebasing: bytes[start..<max(end, start + 1)]),
                    as: UTF8.self
                )
                throw error("unexpected '\(found)'; expected a value (strings need double quotes)", at: start)
            }
            offset += 1
        }
        if let byte = peek, Self.isWordByte(byte) {
            throw error("unexpected \(describeCurrent()) after '\(word)'", at: start)
        }
    }

    /// The letters, digits and underscores starting at the current byte, if it is a letter.
    private func currentWord() -> String? {
        guard let byte = peek, Self.isWordByte(byte), !Self.isDigit(byte) else { return nil }
        var end = offset
        while end < bytes.count, Self.isWordByte(bytes[end]) { end += 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self)
    }

    // MARK: - Bytes

    var peek: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x0A, 0x09, 0x0D: offset += 1
            default: return
            }
        }
    }

    private func describeCurrent() -> String {
        guard peek != nil else { return "end of file" }
        let text = describeByte(at: offset)
        return text.isEmpty ? "a control character" : "'\(text)'"
    }

    private func describeByte(at index: Int) -> String {
        guard index < bytes.count else { return "" }
        let byte = bytes[index]
        if byte >= 0x80 {
            var iterator = UnsafeBufferPointer(rebasing: bytes[index...]).makeIterator()
            var decoder = UTF8()
            if case .scalarValue(let scalar) = decoder.decode(&iterator) { return String(scalar) }
            return "?"
        }
        return byte < 0x20 ? "" : String(UnicodeScalar(byte))
    }

    func error(_ message: String, at position: Int? = nil, kind: JSONSyntaxError.Kind = .syntax) -> JSONSyntaxError {
        let at = position ?? offset
        var locator = JSONTextLocator(bytes: bytes)
        let (line, column) = locator.position(of: at)
        return JSONSyntaxError(kind: kind, offset: at, line: line, column: column, message: message)
    }

    /// The length of the valid UTF-8 sequence at `index`, or `nil` when it is not one.
    static func utf8SequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        let lead = bytes[index]
        let length: Int
        let minimum: UInt32
        switch lead {
        case 0xC2...0xDF: (length, minimum) = (2, 0x80)
        case 0xE0...0xEF: (length, minimum) = (3, 0x800)
        case 0xF0...0xF4: (length, minimum) = (4, 0x10000)
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        var value = UInt32(lead) & (0xFF >> (length + 1))
        for next in index + 1..<index + length {
            let byte = bytes[next]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard value >= minimum, value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else { return nil }
        return length
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    static func isWordByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F
    }

    static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 0x30...0x39: UInt32(byte - 0x30)
        case 0x41...0x46: UInt32(byte - 0x41 + 10)
        case 0x61...0x66: UInt32(byte - 0x61 + 10)
        default: nil
        }
    }
}
