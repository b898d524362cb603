/// A lexical token of SOQL text.
struct Token: Sendable {
    enum Kind: Sendable, Equatable {
        /// A name or keyword: letters, digits and underscores, not starting with a digit.
        case word
        /// A single-quoted string; the token text includes the quotes, escapes undecoded.
        case string
        /// A number: optional `-`, digits, optional fraction.
        case number
        /// A date, `2024-01-31`.
        case date(SOQLDate)
        /// A date-time with a time zone, `2024-01-31T10:00:00Z`.
        case dateTime(SOQLDateTime)
        case comma
        case dot
        case colon
        case openParenthesis
        case closeParenthesis
        case comparison(SOQLComparisonOperator)
        /// The end of the text.
        case end
    }

    var kind: Kind
    /// The token as written.
    var text: String
    /// The byte offset of the token in the query.
    var offset: Int
    /// The token's length in bytes.
    var length: Int

    var range: SOQLSourceRange { SOQLSourceRange(utf8Offset: offset, length: length) }

    /// Whether this is a word equal to `keyword` (upper case), ignoring case.
    func isKeyword(_ keyword: String) -> Bool {
        kind == .word && text.uppercased() == keyword
    }

    /// How the token reads in "found …" of an error message.
    var foundDescription: String {
        switch kind {
        case .end: return "end of query"
        case .string: return "a string literal"
        default: return "'\(text)'"
        }
    }

    /// SOQL's reserved words (from Salesforce's list, plus the literals and `OFFSET`):
    /// never a field or object name. `ORDER` is not reserved because `Order` is a standard
    /// object; `ORDER BY` is recognised by its `BY`.
    static let reservedWords: Set<String> = [
        "AND", "ASC", "DESC", "EXCLUDES", "FIRST", "FROM", "GROUP", "HAVING", "IN", "INCLUDES", "LAST",
        "LIKE", "LIMIT", "NOT", "NULL", "NULLS", "OR", "SELECT", "WHERE", "WITH", "TRUE", "FALSE", "OFFSET",
    ]

    /// Whether this is a word that may name a field or object.
    var isName: Bool {
        kind == .word && !Self.reservedWords.contains(text.uppercased())
    }
}
