extension Parser {
    /// The optional clauses after `FROM`, in SOQL's order.
    private enum Clause: Int, CaseIterable {
        case usingScope, `where`, with, groupBy, having, orderBy, limit, offset, `for`

        var keyword: String {
            switch self {
            case .usingScope: return "USING SCOPE"
            case .where: return "WHERE"
            case .with: return "WITH"
            case .groupBy: return "GROUP BY"
            case .having: return "HAVING"
            case .orderBy: return "ORDER BY"
            case .limit: return "LIMIT"
            case .offset: return "OFFSET"
            case .for: return "FOR"
            }
        }
    }

    /// Whether a clause keyword (`WHERE`, `ORDER BY`, …) starts at the current token.
    var isAtClause: Bool { clauseAtCurrent != nil }

    /// The clause starting at the current token, if any.
    private var clauseAtCurrent: Clause? {
        guard current.kind == .word else { return nil }
        switch current.text.uppercased() {
        case "USING": return peek().isKeyword("SCOPE") ? .usingScope : nil
        case "WHERE": return .where
        case "WITH": return .with
        case "GROUP": return peek().isKeyword("BY") ? .groupBy : nil
        case "HAVING": return .having
        case "ORDER": return peek().isKeyword("BY") ? .orderBy : nil
        case "LIMIT": return .limit
        case "OFFSET": return .offset
        case "FOR": return .for
        default: return nil
        }
    }

    /// Parses the clauses after the object name, each at most once and in order, then
    /// checks that the query ends where it should.
    mutating func parseClauses(into query: inout SOQLQuery, _ context: Context) throws(SOQLError) {
        var next = 0
        while let clause = clauseAtCurrent, clause.rawValue >= next {
            next = clause.rawValue + 1
            advance()
            switch clause {
            case .usingScope:
                advance()
                guard current.kind == .word else {
                    throw SOQLError.unexpected(current, expected: "a scope name", after: "'USING SCOPE'")
                }
                query.usingScope = advance().text
            case .where:
                query.condition = try parseCondition()
            case .with:
                query.withClause = try parseWithText()
            case .groupBy:
                advance()
                query.groupBy = try parseFieldList(after: "'GROUP BY'")
            case .having:
                query.having = try parseCondition()
            case .orderBy:
                advance()
                query.orderBy = try parseOrderList()
            case .limit:
                query.limit = try parseWholeNumber(after: "LIMIT")
            case .offset:
                query.offset = try parseWholeNumber(after: "OFFSET")
            case .for:
                guard current.isKeyword("VIEW") || current.isKeyword("REFERENCE") || current.isKeyword("UPDATE") else {
                    throw SOQLError.unexpected(current, expected: "'VIEW', 'REFERENCE' or 'UPDATE'", after: "'FOR'")
                }
                query.forClause = advance().text.uppercased()
            }
        }
        let terminator = context == .top ? Token.Kind.end : .closeParenthesis
        guard current.kind == terminator else {
            let remaining = Clause.allCases.filter { $0.rawValue >= next }.map { "'\($0.keyword)'" }
            let ending = context == .top ? "end of query" : "')'"
            let expected = (remaining + [ending]).joinedAsAlternatives()
            throw SOQLError.unexpected(current, expected: expected, after: afterPrevious)
        }
    }

    /// Comma-separated field paths (`GROUP BY`, a TYPEOF branch), the first after `after`; a token
    /// that is not a name is an error saying `expected`.
    mutating func parseFieldList(after: String, expected: String = "a field") throws(SOQLError) -> [SOQLFieldPath] {
        var fields: [SOQLFieldPath] = []
        repeat {
            guard current.isName else {
                throw SOQLError.unexpected(current, expected: expected, after: fields.isEmpty ? after : "','")
            }
            fields.append(try parseFieldPath())
        } while current.kind == .comma && advance().kind == .comma
        return fields
    }

    private mutating func parseOrderList() throws(SOQLError) -> [SOQLOrderItem] {
        var items: [SOQLOrderItem] = []
        repeat {
            guard current.isName else {
                throw SOQLError.unexpected(current, expected: "a field", after: items.isEmpty ? "'ORDER BY'" : "','")
            }
            var item = SOQLOrderItem(try parseFieldPath())
            if accept("DESC") {
                item.isAscending = false
            } else {
                _ = accept("ASC")
            }
            if accept("NULLS") {
                if accept("FIRST") {
                    item.nulls = .first
                } else if accept("LAST") {
                    item.nulls = .last
                } else {
                    throw SOQLError.unexpected(current, expected: "'FIRST' or 'LAST'", after: "'NULLS'")
                }
            }
            items.append(item)
        } while current.kind == .comma && advance().kind == .comma
        return items
    }

    private mutating func parseWholeNumber(after clause: String) throws(SOQLError) -> Int {
        guard current.kind == .number, !current.text.contains("."), !current.text.hasPrefix("-") else {
            throw SOQLError.unexpected(current, expected: "a whole number", after: "'\(clause)'")
        }
        guard let value = Int(current.text) else { throw SOQLError.numberTooLarge(current, clause: clause) }
        advance()
        return value
    }

    /// The tokens of a `WITH` clause up to the next clause, joined with single spaces
    /// (none inside parentheses or around dots and commas).
    private mutating func parseWithText() throws(SOQLError) -> String {
        var text = ""
        var depth = 0
        var previous: Token.Kind?
        while current.kind != .end {
            if depth == 0, clauseAtCurrent != nil || current.kind == .closeParenthesis { break }
            if current.kind == .openParenthesis { depth += 1 }
            if current.kind == .closeParenthesis { depth -= 1 }
            let joins =
                [Token.Kind.comma, .closeParenthesis, .dot].contains(current.kind)
                || previous == .openParenthesis || previous == .dot || previous == nil
            text += (joins ? "" : " ") + current.text
            previous = advance().kind
        }
        guard !text.isEmpty else {
            throw SOQLError.unexpected(current, expected: "a filter such as 'SECURITY_ENFORCED'", after: "'WITH'")
        }
        return text
    }
}

extension Array where Element == String {
    /// `'a'`, `'a' or 'b'`, `'a', 'b' or 'c'`.
    func joinedAsAlternatives() -> String {
        guard count > 1 else { return first ?? "" }
        return dropLast().joined(separator: ", ") + " or " + self[count - 1]
    }
}
