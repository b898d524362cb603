/// Splits SOQL text into tokens, reporting malformed input with exact byte offsets.
struct Tokenizer {
    private let bytes: [UInt8]
    private var index = 0

    init(text: String) {
        self.bytes = Array(text.utf8)
    }

    /// Every token of the text, ending with an `.end` token.
    static func tokenize(_ text: String) throws(SOQLError) -> [Token] {
        var tokenizer = Tokenizer(text: text)
        var tokens: [Token] = []
        while true {
            let token = try tokenizer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private mutating func next() throws(SOQLError) -> Token {
        while index < bytes.count, Self.isWhitespace(bytes[index]) { index += 1 }
        let start = index
        guard index < bytes.count else { return token(.end, from: start) }
        let byte = bytes[index]
        switch byte {
        case UInt8(ascii: "'"):
            return try string(from: start)
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try numberOrDate(from: start)
        case UInt8(ascii: "-") where index + 1 < bytes.count && Self.isDigit(bytes[index + 1]):
            index += 1
            return try numberOrDate(from: start)
        case _ where Self.isWordStart(byte):
            while index < bytes.count, Self.isWordPart(bytes[index]) { index += 1 }
            return token(.word, from: start)
        case UInt8(ascii: ","): return single(.comma, from: start)
        case UInt8(ascii: "."): return single(.dot, from: start)
        case UInt8(ascii: ":"): return single(.colon, from: start)
        case UInt8(ascii: "("): return single(.openParenthesis, from: start)
        case UInt8(ascii: ")"): return single(.closeParenthesis, from: start)
        case UInt8(ascii: "="): return single(.comparison(.equal), from: start)
        case UInt8(ascii: "!") where peek(1) == UInt8(ascii: "="):
            index += 2
            return token(.comparison(.notEqual), from: start)
        case UInt8(ascii: "<"):
            return comparison(from: start, [("=", .lessOrEqual), (">", .notEqual)], otherwise: .less)
        case UInt8(ascii: ">"):
            return comparison(from: start, [("=", .greaterOrEqual)], otherwise: .greater)
        default:
            throw invalidCharacter(at: start)
        }
    }

    private func peek(_ distance: Int) -> UInt8? {
        index + distance < bytes.count ? bytes[index + distance] : nil
    }

    private func token(_ kind: Token.Kind, from start: Int) -> Token {
        Token(
            kind: kind,
            text: String(decoding: bytes[start..<index], as: UTF8.self),
            offset: start,
            length: index - start
        )
    }

    private mutating func single(_ kind: Token.Kind, from start: Int) -> Token {
        index += 1
        return token(kind, from: start)
    }

    private mutating func comparison(
        from start: Int,
        _ pairs: [(Unicode.Scalar, SOQLComparisonOperator)],
        otherwise: SOQLComparisonOperator
    ) -> Token {
        for (second, op) in pairs where peek(1) == UInt8(ascii: second) {
            index += 2
            return token(.comparison(op), from: start)
        }
        index += 1
        return token(.comparison(otherwise), from: start)
    }

    /// A quoted string; escapes are decoded later by the parser, which knows whether the
    /// string is a LIKE pattern.
    private mutating func string(from start: Int) throws(SOQLError) -> Token {
        index += 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"):
                index += 2
            case UInt8(ascii: "'"):
                index += 1
                return token(.string, from: start)
            default:
                index += 1
            }
        }
        throw SOQLError.unterminatedString(at: start)
    }

    /// A number, or a date / date-time when the digits are followed by `-`.
    private mutating func numberOrDate(from start: Int) throws(SOQLError) -> Token {
        while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
        if index - start == 4, bytes[start] != UInt8(ascii: "-"), peek(0) == UInt8(ascii: "-") {
            return try dateOrDateTime(from: start)
        }
        if peek(0) == UInt8(ascii: "."), let after = peek(1), Self.isDigit(after) {
            index += 1
            while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
        }
        return token(.number, from: start)
    }

    private mutating func dateOrDateTime(from start: Int) throws(SOQLError) -> Token {
        // Take the longest run of characters a date-time can contain, then validate it
        // as a whole, so a typo is reported over the entire literal.
        while index < bytes.count, Self.isDateTimePart(bytes[index]) { index += 1 }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if let date = SOQLDate(text: text) {
            return token(.date(date), from: start)
        }
        if text.utf8.count > 10, let dateTime = SOQLDateTime(text: text) {
            return token(.dateTime(dateTime), from: start)
        }
        throw SOQLError.invalidDate(text, at: start, length: index - start)
    }

    private func invalidCharacter(at start: Int) -> SOQLError {
        // Report the whole Unicode scalar, not just its first byte.
        var end = start + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        let character = String(decoding: bytes[start..<end], as: UTF8.self)
        return SOQLError.invalidCharacter(character, at: start, length: end - start)
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C || byte == 0x0B
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func isWordStart(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || byte == UInt8(ascii: "_")
    }

    private static func isWordPart(_ byte: UInt8) -> Bool {
        isWordStart(byte) || isDigit(byte)
    }

    private static func isDateTimePart(_ byte: UInt8) -> Bool {
        isDigit(byte)
            || [
                UInt8(ascii: "-"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "+"),
                UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: "Z"), UInt8(ascii: "z"),
            ].contains(byte)
    }
}
