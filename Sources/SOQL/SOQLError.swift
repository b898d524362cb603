/// The error thrown when SOQL text cannot be parsed.
///
/// ``message`` reads like a compiler diagnostic, saying what was expected and what was
/// found, for example `expected 'FROM' after the select list, found 'WHERE'`.
/// ``utf8Offset`` and ``length`` locate the problem in the query text, in UTF-8 bytes;
/// ``lineAndColumn(in:)`` turns the offset into a position for display.
public struct SOQLError: Error, Sendable, Hashable {
    /// The kind of problem, stable across releases; new codes may be added.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case unexpectedToken
            case invalidCharacter
            case unterminatedString
            case invalidEscape
            case invalidNumber
            case invalidDate
            case invalidDateLiteral
            case mixedLogicalOperators
            case semiJoinWithOr
            case unsupported
        }

        private let value: Value

        private init(_ value: Value) {
            self.value = value
        }

        /// A token other than the one the grammar needs at this point.
        public static let unexpectedToken = Code(.unexpectedToken)
        /// A character that cannot start any token.
        public static let invalidCharacter = Code(.invalidCharacter)
        /// A string literal with no closing quote.
        public static let unterminatedString = Code(.unterminatedString)
        /// An unknown or misplaced backslash escape in a string.
        public static let invalidEscape = Code(.invalidEscape)
        /// A number out of range or where only a whole number is allowed.
        public static let invalidNumber = Code(.invalidNumber)
        /// A date or date-time literal that is malformed or not a real date.
        public static let invalidDate = Code(.invalidDate)
        /// A relative date literal that is unknown or lacks its number.
        public static let invalidDateLiteral = Code(.invalidDateLiteral)
        /// `AND` and `OR` mixed at one level without parentheses.
        public static let mixedLogicalOperators = Code(.mixedLogicalOperators)
        /// A semi-join or anti-join (`IN (SELECT …)`) combined with `OR`.
        public static let semiJoinWithOr = Code(.semiJoinWithOr)
        /// Valid SOQL outside the subset syncrun supports (aggregate functions, fiscal
        /// date literals, …).
        public static let unsupported = Code(.unsupported)

        /// The code's name, such as `unexpectedToken`.
        public var description: String { value.rawValue }
    }

    /// The kind of problem.
    public var code: Code
    /// What is wrong, what was expected and what was found.
    public var message: String
    /// The byte offset of the problem in the query text (UTF-8).
    public var utf8Offset: Int
    /// The number of bytes the problem spans; 0 at the end of the text.
    public var length: Int

    /// The 1-based line and column (in characters) of ``utf8Offset`` in `text`.
    public func lineAndColumn(in text: String) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        var consumed = 0
        for character in text {
            let size = character.utf8.count
            if consumed + size > utf8Offset { break }
            consumed += size
            if character.isNewline {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return (line, column)
    }
}

extension SOQLError: CustomStringConvertible {
    /// The message with its offset: `offset 15: expected 'FROM' after the select list, found 'WHERE'`.
    public var description: String { "offset \(utf8Offset): \(message)" }
}
