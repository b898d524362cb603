import Foundation

/// A single-pass JSON reader over UTF-8 bytes that decides each value's kind by peeking at its first
/// byte once (no trial decoding), producing ``OrgJSONValue``.
///
/// Errors are `OrgError` `JSON_PARSER_ERROR` with the 1-based line and column of the offending byte.
///
/// The local org keeps this parser (and ``OrgJSONValue``) on purpose instead of using JSONCore:
/// the emulator shares no wire code with the client, so the two cannot silently agree on a wrong
/// wire format.
struct OrgJSONParser {
    /// Where and why a document is not valid JSON.
    struct Failure: Error {
        var reason: String
        var line: Int
        var column: Int
    }

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    private static let maximumDepth = 512

    init(_ data: Data) { bytes = [UInt8](data) }

    /// Parses one complete document; trailing non-whitespace is an error.
    mutating func parseDocument() throws -> OrgJSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count { throw failure("unexpected character after the JSON value") }
        return value
    }

    private mutating func parseValue() throws -> OrgJSONValue {
        guard index < bytes.count else { throw failure("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw failure("unexpected character '\(Character(Unicode.Scalar(bytes[index])))'")
        }
    }

    private mutating func parseObject() throws -> OrgJSONValue {
        try enter()
        index += 1
        var members: [(String, OrgJSONValue)] = []
        skipWhitespace()
        if peek(UInt8(ascii: "}")) {
            index += 1
            depth -= 1
            return .object(OrgJSONObject(members))
        }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else { throw failure("expected a string key") }
            let key = try parseString()
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { throw failure("expected ':' after key \"\(key)\"") }
            index += 1
            skipWhitespace()
            members.append((key, try parseValue()))
            guard try isFollowedByMember(closing: "}", in: "object") else { break }
        }
        depth -= 1
        return .object(OrgJSONObject(members))
    }

    private mutating func parseArray() throws -> OrgJSONValue {
        try enter()
        index += 1
        var elements: [OrgJSONValue] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            guard try isFollowedByMember(closing: "]", in: "array") else { break }
        }
        depth -= 1
        return .array(elements)
    }

    /// After a member of an object or array: `true` past a comma (another member follows), `false`
    /// past the `closing` bracket; anything else is an error naming the `container`.
    private mutating func isFollowedByMember(closing: Unicode.Scalar, in container: String) throws -> Bool {
        skipWhitespace()
        if peek(UInt8(ascii: ",")) {
            index += 1
            return true
        }
        guard peek(UInt8(ascii: closing)) else { throw failure("expected ',' or '\(closing)' in \(container)") }
        index += 1
        return false
    }

    private mutating func parseString() throws -> String {
        index += 1
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: bytes[start..<index], as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw failure("control character in string") }
            index += 1
        }
        var buffer = [UInt8](bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: buffer, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw failure("unterminated string") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "/"): buffer.append(UInt8(ascii: "/"))
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"): try appendUnicodeEscape(to: &buffer)
                default: throw failure("invalid escape in string")
                }
            default:
                if byte < 0x20 { throw failure("control character in string") }
                buffer.append(byte)
                index += 1
            }
        }
        throw failure("unterminated string")
    }

    private mutating func appendUnicodeEscape(to buffer: inout [UInt8]) throws {
        var scalar = try readHex4()
        if (0xD800..<0xDC00).contains(scalar) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { throw failure("unpaired surrogate in string") }
            index += 2
            let low = try readHex4()
            guard (0xDC00..<0xE000).contains(low) else { throw failure("unpaired surrogate in string") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(scalar) {
            throw failure("unpaired surrogate in string")
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw failure("invalid \\u escape") }
        buffer.append(contentsOf: Array(String(Character(unicode)).utf8))
    }

    private mutating func readHex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw failure("invalid \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws -> OrgJSONValue {
        let start = index
        var isInteger = true
        if peek(UInt8(ascii: "-")) { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw failure("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if peek(UInt8(ascii: ".")) {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure("invalid number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            isInteger = false
            index += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure("invalid number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let value = Int64(text) { return .integer(value) }
        guard let value = Double(text) else { throw failure("invalid number") }
        return .double(value)
    }

    private mutating func expectWord(_ word: String) throws {
        let expected = Array(word.utf8)
        guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw failure("invalid literal")
        }
        index += expected.count
    }

    private mutating func enter() throws {
        depth += 1
        if depth > Self.maximumDepth { throw failure("nesting deeper than \(Self.maximumDepth) levels") }
    }

    private func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func failure(_ reason: String) -> Failure {
        var line = 1
        var column = 1
        for byte in bytes[..<min(index, bytes.count)] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return Failure(reason: reason, line: line, column: column)
    }
}

extension OrgJSONValue {
    /// Decodes one JSON document.
    /// - Throws: `OrgError` `JSON_PARSER_ERROR` (400) naming the line and column.
    public static func decode(_ data: Data) throws -> OrgJSONValue {
        do {
            return try decodeLocated(data)
        } catch let failure as OrgJSONParser.Failure {
            throw OrgError.jsonParse(reason: failure.reason, line: failure.line, column: failure.column)
        }
    }

    /// Decodes one JSON document. - Throws: ``OrgJSONParser/Failure`` with line and column.
    static func decodeLocated(_ data: Data) throws -> OrgJSONValue {
        var parser = OrgJSONParser(data)
        return try parser.parseDocument()
    }
}
