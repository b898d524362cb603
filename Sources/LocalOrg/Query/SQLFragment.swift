import GRDB

/// A piece of SQL with the arguments of its `?` placeholders, in order; concatenation keeps them aligned.
struct SQLFragment {
    var sql: String
    var arguments: [DatabaseValue]

    init(_ sql: String, _ arguments: [DatabaseValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }

    mutating func append(_ other: SQLFragment) {
        sql += other.sql
        arguments += other.arguments
    }

    mutating func append(_ text: String) { sql += text }

    static func + (lhs: SQLFragment, rhs: SQLFragment) -> SQLFragment {
        var result = lhs
        result.append(rhs)
        return result
    }

    /// The fragments joined by `separator`, each in parentheses.
    static func joined(_ parts: [SQLFragment], separator: String) -> SQLFragment {
        var result = SQLFragment("")
        for (position, part) in parts.enumerated() {
            if position > 0 { result.append(separator) }
            result.append("(")
            result.append(part)
            result.append(")")
        }
        return result
    }

    var statementArguments: StatementArguments { StatementArguments(arguments) }
}
