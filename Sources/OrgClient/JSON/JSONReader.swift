/// A small JSON reader over UTF-8 bytes: parses values into ``OrgValue`` or skips them without
/// allocating, which is what the query-page scan needs.
///
/// It peeks at each value's first byte once instead of trying each kind in turn (see
/// performance-notes.md: a cascade of `try?` is several times slower).
struct JSONReader {
    /// Why the bytes are not JSON, and where.
    struct SyntaxError: Error, Sendable {
        var offset: Int
        var reason: String
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private(set) var offset = 0
    private var depth = 0
    private static let maximumDepth = 512

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Reads one value that must be the whole input (whitespace aside).
    mutating func readDocument() throws -> OrgValue {
        let value = try readValue()
        skipWhitespace()
        guard offset == bytes.count else { throw error("unexpected text after the JSON value") }
        return value
    }

    /// Reads the next value.
    mutating func readValue() throws -> OrgValue {
        skipWhitespace()
        guard offset < bytes.count else { throw error("unexpected end of input") }
        switch bytes[offset] {
        case UInt8(ascii: "{"):
            var members: [String: OrgValue] = [:]
            try readObject { reader, key in members[key] = try reader.readValue() }
            return .object(members)
        case UInt8(ascii: "["):
            var elements: [OrgValue] = []
            try readArray { reader in elements.append(try reader.readValue()) }
            return .array(elements)
        case UInt8(ascii: "\""):
            return .string(try readString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        default:
            return try readNumber()
        }
    }

    /// Reads an object, calling `member` with the reader positioned on each member's value; the
    /// closure must consume that value (read or skip it).
    mutating func readObject(_ member: (inout JSONReader, String) throws -> Void) throws {
        try expect(UInt8(ascii: "{"))
        depth += 1
        guard depth <= Self.maximumDepth else { throw error("nesting is too deep") }
        defer { depth -= 1 }
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            offset += 1
            return
        }
        while true {
            skipWhitespace()
            let key = try readString()
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            try member(&self, key)
            skipWhitespace()
            guard let next = peek() else { throw error("unexpected end of input in an object") }
            offset += 1
            if next == UInt8(ascii: "}") { return }
            guard next == UInt8(ascii: ",") else { throw error("expected ',' or '}' in an object", at: offset - 1) }
        }
    }

    /// Reads an array, calling `element` with the reader positioned on each element.
    mutating func readArray(_ element: (inout JSONReader) throws -> Void) throws {
        try expect(UInt8(ascii: "["))
        depth += 1
        guard depth <= Self.maximumDepth else { throw error("nesting is too deep") }
        defer { depth -= 1 }
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            offset += 1
            return
        }
        while true {
            try element(&self)
            skipWhitespace()
            guard let next = peek() else { throw error("unexpected end of input in an array") }
            offset += 1
            if next == UInt8(ascii: "]") { return }
            guard next == UInt8(ascii: ",") else { throw error("expected ',' or ']' in an array", at: offset - 1) }
        }
    }

    /// Skips the next value without building it. Containers are skipped by counting brackets
    /// outside strings, so a large `records` array costs one pass over its bytes; the skipped
    /// bytes are not validated (the store's JSON functions reject a malformed record later).
    mutating func skipValue() throws {
        skipWhitespace()
        guard let first = peek() else { throw error("unexpected end of input") }
        switch first {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var nesting = 0
            while offset < bytes.count {
                let byte = bytes[offset]
                switch byte {
                case UInt8(ascii: "\""):
                    try skipString()
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    nesting += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    nesting -= 1
                    if nesting == 0 {
                        offset += 1
                        return
                    }
                default:
                    break
                }
                offset += 1
            }
            throw error("unexpected end of input in a container")
        case UInt8(ascii: "\""):
            try skipString()
        default:
            _ = try readValue()
        }
    }

    /// Reads a string token, decoding escapes.
    mutating func readString() throws -> String {
        try expect(UInt8(ascii: "\""))
        let start = offset
        // Fast path: no escapes, the bytes are the string.
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
                offset += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("control character in a string") }
            offset += 1
        }
        var scalars = String.UnicodeScalarView()
        var decoder = UTF8()
        var iterator = UnsafeBufferPointer(rebasing: bytes[start..<offset]).makeIterator()
        while case .scalarValue(let scalar) = decoder.decode(&iterator) { scalars.append(scalar) }
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                offset += 1
                return String(scalars)
            }
            if byte == UInt8(ascii: "\\") {
                scalars.append(try readEscape())
                continue
            }
            if byte < 0x20 { throw error("control character in a string") }
            // Copy one UTF-8 sequence.
            let length = byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
            guard offset + length <= bytes.count else { throw error("truncated UTF-8 sequence") }
            var sequence = UnsafeBufferPointer(rebasing: bytes[offset..<offset + length]).makeIterator()
            guard case .scalarValue(let scalar) = decoder.decode(&sequence) else { throw error("invalid UTF-8") }
            scalars.append(scalar)
            offset += length
        }
        throw error("unterminated string", at: start - 1)
    }

    private mutating func readEscape() throws -> Unicode.Scalar {
        offset += 1
        guard let byte = peek() else { throw error("unterminated escape") }
        offset += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try readHex4()
            if (0xD800..<0xDC00).contains(high) {
                guard peek() == UInt8(ascii: "\\"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "u")
                else { return "\u{FFFD}" }
                offset += 2
                let low = try readHex4()
                guard (0xDC00..<0xE000).contains(low) else { return "\u{FFFD}" }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}"
            }
            return Unicode.Scalar(high) ?? "\u{FFFD}"
        default:
            throw error("invalid escape", at: offset - 2)
        }
    }

    private mutating func readHex4() throws -> UInt32 {
        guard offset + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
            offset += 1
        }
        return value
    }

    private mutating func skipString() throws {
        let start = offset
        offset += 1
        while offset < bytes.count {
            switch bytes[offset] {
            case UInt8(ascii: "\""):
                offset += 1
                return
            case UInt8(ascii: "\\"):
                offset += 2
            default:
                offset += 1
            }
        }
        throw error("unterminated string", at: start)
    }

    private mutating func readNumber() throws -> OrgValue {
        let start = offset
        var isIntegral = true
        if peek() == UInt8(ascii: "-") { offset += 1 }
        while let byte = peek() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                offset += 1
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "+"), UInt8(ascii: "-"):
                isIntegral = false
                offset += 1
            default:
                return try makeNumber(from: start, isIntegral: isIntegral)
            }
        }
        return try makeNumber(from: start, isIntegral: isIntegral)
    }

    private func makeNumber(from start: Int, isIntegral: Bool) throws -> OrgValue {
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
        if isIntegral, let value = Int64(text) { return .integer(value) }
        guard let lastByte = text.utf8.last, lastByte >= UInt8(ascii: "0"), lastByte <= UInt8(ascii: "9"),
            let value = Double(text)
        else {
            throw error(text.isEmpty ? "unexpected character" : "invalid number", at: start)
        }
        return .number(value)
    }

    private mutating func expectLiteral(_ literal: StaticString) throws {
        let count = literal.utf8CodeUnitCount
        guard offset + count <= bytes.count else { throw error("unexpected end of input") }
        for index in 0..<count where bytes[offset + index] != literal.utf8Start[index] {
            throw error("unexpected character")
        }
        offset += count
    }

    private mutating func expect(_ byte: UInt8) throws {
        skipWhitespace()
        guard offset < bytes.count else { throw error("unexpected end of input") }
        guard peek() == byte else {
            throw error("expected '\(Character(Unicode.Scalar(byte)))'")
        }
        offset += 1
    }

    func peek() -> UInt8? {
        offset < bytes.count ? bytes[offset] : nil
    }

    mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                offset += 1
            default:
                return
            }
        }
    }

    private func error(_ reason: String, at position: Int? = nil) -> SyntaxError {
        SyntaxError(offset: position ?? offset, reason: reason)
    }
}
