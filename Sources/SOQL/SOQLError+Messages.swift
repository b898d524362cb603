// Every message of the module is built here, so their wording stays consistent.
extension SOQLError {
    static func unexpected(_ found: Token, expected: String, after: String? = nil) -> SOQLError {
        let context = after.map { " after \($0)" } ?? ""
        return SOQLError(
            code: .unexpectedToken,
            message: "expected \(expected)\(context), found \(found.foundDescription)",
            utf8Offset: found.offset,
            length: found.length
        )
    }

    static func invalidCharacter(_ character: String, at offset: Int, length: Int) -> SOQLError {
        SOQLError(
            code: .invalidCharacter,
            message: "expected a name, value, operator or punctuation, found the character '\(character)'",
            utf8Offset: offset,
            length: length
        )
    }

    static func unterminatedString(at offset: Int) -> SOQLError {
        SOQLError(
            code: .unterminatedString,
            message: "unterminated string: expected a closing quote (') before the end of the query",
            utf8Offset: offset,
            length: 1
        )
    }

    static func invalidEscape(_ sequence: String, at offset: Int) -> SOQLError {
        SOQLError(
            code: .invalidEscape,
            message: "invalid escape sequence '\(sequence)' in a string; expected one of "
                + #"\' \" \\ \n \r \t \b \f, or \% \_ in a LIKE pattern"#,
            utf8Offset: offset,
            length: sequence.utf8.count
        )
    }

    static func likeEscapeOutsideLike(_ sequence: String, at offset: Int) -> SOQLError {
        SOQLError(
            code: .invalidEscape,
            message: "escape sequence '\(sequence)' is only allowed in a LIKE pattern; "
                + "write '\(sequence.dropFirst())' instead",
            utf8Offset: offset,
            length: sequence.utf8.count
        )
    }

    static func invalidDate(_ text: String, at offset: Int, length: Int) -> SOQLError {
        SOQLError(
            code: .invalidDate,
            message: "invalid date or date-time '\(text)'; expected yyyy-MM-dd, or yyyy-MM-ddTHH:mm:ss "
                + "with optional fractional seconds followed by 'Z', '+hh:mm' or '+hhmm'",
            utf8Offset: offset,
            length: length
        )
    }

    static func numberTooLarge(_ found: Token, clause: String) -> SOQLError {
        SOQLError(
            code: .invalidNumber,
            message: "number \(found.text) after '\(clause)' is too large; expected at most \(Int.max)",
            utf8Offset: found.offset,
            length: found.length
        )
    }

    static func mixedLogicalOperators(_ found: Token, level: String) -> SOQLError {
        SOQLError(
            code: .mixedLogicalOperators,
            message: "cannot mix 'AND' and 'OR' at the same level: expected '\(level)', found "
                + "\(found.foundDescription); add parentheses, for example 'A AND (B OR C)'",
            utf8Offset: found.offset,
            length: found.length
        )
    }

    static func semiJoinWithOr(_ orToken: Token) -> SOQLError {
        SOQLError(
            code: .semiJoinWithOr,
            message: "a sub-query condition ('IN (SELECT ...)') cannot be combined with 'OR'; "
                + "expected 'AND' here, or split the query in two",
            utf8Offset: orToken.offset,
            length: orToken.length
        )
    }

    static func unsupportedFunction(_ name: Token) -> SOQLError {
        SOQLError(
            code: .unsupported,
            message: "function '\(name.text)' is not supported; expected a plain field such as 'Name'",
            utf8Offset: name.offset,
            length: name.length
        )
    }

    static func unsupportedCountArgument(_ found: Token) -> SOQLError {
        SOQLError(
            code: .unsupported,
            message: "expected ')' after 'COUNT(', found \(found.foundDescription); "
                + "aggregate functions other than 'COUNT()' are not supported",
            utf8Offset: found.offset,
            length: found.length
        )
    }

    static func nestedTooDeeply(_ token: Token, limit: Int) -> SOQLError {
        SOQLError(
            code: .unsupported,
            message: "the condition nests '(' and 'NOT' more than \(limit) levels deep; simplify it",
            utf8Offset: token.offset,
            length: token.length
        )
    }

    static func nestedSubquery(_ parenthesis: Token) -> SOQLError {
        SOQLError(
            code: .unsupported,
            message: "expected a field in a sub-query's select list, found '('; "
                + "sub-queries can only be nested one level deep",
            utf8Offset: parenthesis.offset,
            length: parenthesis.length
        )
    }

    static func fiscalDateLiteral(_ name: Token) -> SOQLError {
        SOQLError(
            code: .unsupported,
            message: "date literal '\(name.text.uppercased())' is not supported because fiscal periods depend "
                + "on org settings; expected a calendar literal such as 'THIS_YEAR' or explicit dates",
            utf8Offset: name.offset,
            length: name.length
        )
    }

    static func dateLiteralNumber(_ found: Token, literal: String) -> SOQLError {
        SOQLError(
            code: .invalidDateLiteral,
            message: "expected a whole number from 0 to \(SOQLDateLiteral.maximumN) after '\(literal):', "
                + "found \(found.foundDescription)",
            utf8Offset: found.offset,
            length: found.length
        )
    }

    static func dateLiteralNeedsNumber(_ found: Token, literal: String) -> SOQLError {
        SOQLError(
            code: .invalidDateLiteral,
            message: "expected ':' and a number after '\(literal)', found \(found.foundDescription); "
                + "for example '\(literal):30'",
            utf8Offset: found.offset,
            length: found.length
        )
    }
}
