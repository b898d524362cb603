// Canonical SOQL text for every node: upper-case keywords, names as spelled, strings
// re-escaped, single spaces, and parentheses around every AND/OR nested in another
// condition. Parsing the text gives back an equal tree.

extension SOQLQuery: CustomStringConvertible {
    /// The query as canonical SOQL text.
    ///
    /// ```swift
    /// try SOQLQuery.parse("select id from account where a = 1 and (b = 2 or c = 3)").text
    /// // "SELECT id FROM account WHERE a = 1 AND (b = 2 OR c = 3)"
    /// ```
    public var text: String {
        var parts = ["SELECT", select.map(\.text).joined(separator: ", "), "FROM", object]
        if let usingScope { parts += ["USING SCOPE", usingScope] }
        if let condition { parts += ["WHERE", condition.text] }
        if let withClause { parts += ["WITH", withClause] }
        if !groupBy.isEmpty { parts += ["GROUP BY", groupBy.map(\.text).joined(separator: ", ")] }
        if let having { parts += ["HAVING", having.text] }
        if !orderBy.isEmpty { parts += ["ORDER BY", orderBy.map(\.text).joined(separator: ", ")] }
        if let limit { parts += ["LIMIT", String(limit)] }
        if let offset { parts += ["OFFSET", String(offset)] }
        if let forClause { parts += ["FOR", forClause] }
        return parts.joined(separator: " ")
    }

    /// The query as canonical SOQL text; see ``text``.
    public var description: String { text }
}

extension SOQLSelectItem: CustomStringConvertible {
    /// The item as SOQL: `Account.Name`, `(SELECT Id FROM Contacts)` or `COUNT()`.
    public var text: String {
        switch self {
        case .field(let path): return path.text
        case .subquery(let query): return "(" + query.text + ")"
        case .count: return "COUNT()"
        case .typeOf(let typeOf): return typeOf.text
        }
    }

    /// The item as SOQL; see ``text``.
    public var description: String { text }
}

extension SOQLOrderItem: CustomStringConvertible {
    /// The entry as SOQL: `Name`, `Name DESC`, `Name NULLS LAST`.
    public var text: String {
        var result = field.text
        if !isAscending { result += " DESC" }
        switch nulls {
        case .unspecified: break
        case .first: result += " NULLS FIRST"
        case .last: result += " NULLS LAST"
        }
        return result
    }

    /// The entry as SOQL; see ``text``.
    public var description: String { text }
}

extension SOQLCondition: CustomStringConvertible {
    /// The condition as SOQL, with nested `AND`/`OR` groups in parentheses.
    ///
    /// An `.and` or `.or` with one operand prints as that operand; one with no operands
    /// prints as an empty string and is not valid SOQL.
    public var text: String { text(isNested: false) }

    /// The condition as SOQL; see ``text``.
    public var description: String { text }

    private func text(isNested: Bool) -> String {
        switch self {
        case .and(let operands):
            return Self.join(operands, with: " AND ", isNested: isNested)
        case .or(let operands):
            return Self.join(operands, with: " OR ", isNested: isNested)
        case .not(let operand):
            return "NOT " + operand.text(isNested: true)
        case .comparison(let field, let op, let value):
            return "\(field.text) \(op.text) \(value.text)"
        case .like(let field, let pattern):
            return "\(field.text) LIKE \(StringLiteral.quotePattern(pattern))"
        case .in(let field, let values, let negated):
            let list = values.map(\.text).joined(separator: ", ")
            return "\(field.text) \(negated ? "NOT IN" : "IN") (\(list))"
        case .inSubquery(let field, let query, let negated):
            return "\(field.text) \(negated ? "NOT IN" : "IN") (\(query.text))"
        }
    }

    private static func join(_ operands: [SOQLCondition], with separator: String, isNested: Bool) -> String {
        if operands.count == 1 { return operands[0].text(isNested: isNested) }
        let joined = operands.map { $0.text(isNested: true) }.joined(separator: separator)
        return isNested ? "(" + joined + ")" : joined
    }
}

extension SOQLValue: CustomStringConvertible {
    /// The value as a SOQL literal: `'O\'Brien'`, `42`, `TRUE`, `NULL`, `2024-01-31`,
    /// `LAST_N_DAYS:7`.
    public var text: String {
        switch self {
        case .string(let value): return StringLiteral.quote(value)
        case .integer(let value): return String(value)
        case .decimal(let text): return text
        case .boolean(let value): return value ? "TRUE" : "FALSE"
        case .null: return "NULL"
        case .date(let date): return date.text
        case .dateTime(let dateTime): return dateTime.text
        case .dateLiteral(let literal): return literal.text
        }
    }

    /// The value as a SOQL literal; see ``text``.
    public var description: String { text }
}
