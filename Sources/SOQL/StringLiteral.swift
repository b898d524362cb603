/// Escaping and unescaping of SOQL's single-quoted strings.
enum StringLiteral {
    /// `value` quoted and escaped: backslash, quote and control characters.
    static func quote(_ value: String) -> String {
        var result = "'"
        for scalar in value.unicodeScalars {
            result += escape(scalar) ?? String(scalar)
        }
        return result + "'"
    }

    /// A LIKE pattern quoted: like ``quote(_:)`` but `\%`, `\_` and `\\` are already
    /// pattern escapes and are written as they are.
    static func quotePattern(_ pattern: String) -> String {
        var result = "'"
        let scalars = Array(pattern.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\\", index + 1 < scalars.count, ["%", "_", "\\"].contains(scalars[index + 1]) {
                result += "\\" + String(scalars[index + 1])
                index += 2
                continue
            }
            result += escape(scalar) ?? String(scalar)
            index += 1
        }
        return result + "'"
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "\\": return #"\\"#
        case "'": return #"\'"#
        case "\n": return #"\n"#
        case "\r": return #"\r"#
        case "\t": return #"\t"#
        case "\u{8}": return #"\b"#
        case "\u{C}": return #"\f"#
        default: return nil
        }
    }

    /// The character an escape letter stands for (`n` → line feed), case-insensitive as
    /// in SOQL; `nil` for an unknown escape.
    static func unescape(_ letter: Unicode.Scalar) -> Unicode.Scalar? {
        switch letter {
        case "'", "\"", "\\": return letter
        case "n", "N": return "\n"
        case "r", "R": return "\r"
        case "t", "T": return "\t"
        case "b", "B": return "\u{8}"
        case "f", "F": return "\u{C}"
        default: return nil
        }
    }
}

extension Parser {
    /// The value of a string token, escapes decoded. In a LIKE pattern `\%`, `\_` and `\\`
    /// stay escaped so the pattern can still tell a literal `%` from a wildcard.
    func decodeString(_ token: Token, isPattern: Bool) throws(SOQLError) -> String {
        let scalars = Array(token.text.unicodeScalars.dropFirst().dropLast())
        var result = String.UnicodeScalarView()
        // Byte offset of the scalar at `index`, for error positions.
        var offset = token.offset + 1
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            guard scalar == "\\", index + 1 < scalars.count else {
                result.append(scalar)
                offset += scalar.utf8.count
                index += 1
                continue
            }
            let letter = scalars[index + 1]
            let sequence = "\\" + String(letter)
            if letter == "%" || letter == "_" || (isPattern && letter == "\\") {
                guard isPattern else { throw SOQLError.likeEscapeOutsideLike(sequence, at: offset) }
                result.append("\\")
                result.append(letter)
            } else if let decoded = StringLiteral.unescape(letter) {
                result.append(decoded)
            } else {
                throw SOQLError.invalidEscape(sequence, at: offset)
            }
            offset += 1 + letter.utf8.count
            index += 2
        }
        return String(result)
    }
}
