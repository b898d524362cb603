extension Parser {
    /// Parses `term (AND term)*` or `term (OR term)*`; mixing the two at one level is an
    /// error, as is a semi-join under `OR`.
    mutating func parseCondition() throws(SOQLError) -> SOQLCondition {
        let first = try parseTerm()
        var operands = [first]
        var level: String?
        var firstOperator: Token?
        while current.isKeyword("AND") || current.isKeyword("OR") {
            let keyword = current.text.uppercased()
            if let level, level != keyword {
                throw SOQLError.mixedLogicalOperators(current, level: level)
            }
            level = keyword
            if firstOperator == nil { firstOperator = current }
            advance()
            operands.append(try parseTerm())
        }
        switch level {
        case "AND":
            return .and(operands)
        case "OR":
            if let firstOperator, operands.contains(where: \.containsSubquery) {
                throw SOQLError.semiJoinWithOr(firstOperator)
            }
            return .or(operands)
        default:
            return first
        }
    }

    /// Parses `NOT term`, `( condition )` or a field test. `NOT` and `(` nest at most
    /// ``maximumConditionNesting`` deep, so hostile input cannot exhaust the stack here or in
    /// whatever walks the syntax tree afterwards.
    private mutating func parseTerm() throws(SOQLError) -> SOQLCondition {
        if current.isKeyword("NOT") || current.kind == .openParenthesis {
            guard conditionNesting < Self.maximumConditionNesting else {
                throw SOQLError.nestedTooDeeply(current, limit: Self.maximumConditionNesting)
            }
            conditionNesting += 1
            defer { conditionNesting -= 1 }
            if accept("NOT") {
                return .not(try parseTerm())
            }
            advance()
            let condition = try parseCondition()
            _ = try expect(.closeParenthesis, "'AND', 'OR' or ')'")
            return condition
        }
        guard current.isName, !isAtClause else {
            throw SOQLError.unexpected(current, expected: "a field, 'NOT' or '('", after: afterPrevious)
        }
        if peek().kind == .openParenthesis { throw SOQLError.unsupportedFunction(current) }
        let field = try parseFieldPath()
        let fieldText = "'\(field.text)'"
        switch current.kind {
        case .comparison(let op):
            advance()
            return .comparison(field, op, try parseValue(after: "'\(op.text)'"))
        case .word where current.isKeyword("LIKE"):
            advance()
            guard current.kind == .string else {
                throw SOQLError.unexpected(current, expected: "a string pattern", after: "'LIKE'")
            }
            return .like(field, pattern: try decodeString(advance(), isPattern: true))
        case .word where current.isKeyword("IN"):
            advance()
            return try parseInList(field, negated: false)
        case .word where current.isKeyword("NOT") && peek().isKeyword("IN"):
            advance()
            advance()
            return try parseInList(field, negated: true)
        default:
            throw SOQLError.unexpected(
                current,
                expected: "an operator ('=', '!=', '<', '<=', '>', '>=', 'LIKE', 'IN' or 'NOT IN')",
                after: fieldText
            )
        }
    }

    /// Parses `( value, … )` or `( SELECT … )` after `IN` / `NOT IN`.
    private mutating func parseInList(_ field: SOQLFieldPath, negated: Bool) throws(SOQLError) -> SOQLCondition {
        _ = try expect(.openParenthesis, "'('")
        if current.isKeyword("SELECT") {
            let subquery = try parseQuery(.semiJoin)
            _ = try expect(.closeParenthesis, "')' to close the sub-query")
            return .inSubquery(field, subquery, negated: negated)
        }
        var values: [SOQLValue] = []
        repeat {
            values.append(try parseValue(after: afterPrevious))
        } while current.kind == .comma && advance().kind == .comma
        _ = try expect(.closeParenthesis, "',' or ')'")
        return .in(field, values, negated: negated)
    }

    /// Parses a literal: string, number, date, date-time, `TRUE`, `FALSE`, `NULL` or a
    /// relative date literal.
    mutating func parseValue(after: String) throws(SOQLError) -> SOQLValue {
        let token = current
        switch token.kind {
        case .string:
            advance()
            return .string(try decodeString(token, isPattern: false))
        case .number:
            advance()
            if !token.text.contains("."), let integer = Int64(token.text) { return .integer(integer) }
            // Whole numbers beyond 64 bits stay exact as text.
            return .decimal(token.text)
        case .date(let date):
            advance()
            return .date(date)
        case .dateTime(let dateTime):
            advance()
            return .dateTime(dateTime)
        case .word:
            switch token.text.uppercased() {
            case "TRUE":
                advance()
                return .boolean(true)
            case "FALSE":
                advance()
                return .boolean(false)
            case "NULL":
                advance()
                return .null
            default:
                return .dateLiteral(try parseDateLiteral(after: after))
            }
        default:
            throw SOQLError.unexpected(token, expected: Self.valueDescription, after: after)
        }
    }

    private static let valueDescription =
        "a value (a string, number, date, date-time, TRUE, FALSE, NULL or date literal)"

    private mutating func parseDateLiteral(after: String) throws(SOQLError) -> SOQLDateLiteral {
        let name = current
        if SOQLDateLiteral.isFiscal(name.text) { throw SOQLError.fiscalDateLiteral(name) }
        guard let takesN = SOQLDateLiteral.takesN(name.text) else {
            throw SOQLError.unexpected(name, expected: Self.valueDescription, after: after)
        }
        advance()
        let upper = name.text.uppercased()
        guard takesN else {
            return SOQLDateLiteral(validatedName: upper, n: nil)
        }
        guard current.kind == .colon else { throw SOQLError.dateLiteralNeedsNumber(current, literal: upper) }
        advance()
        let number = current
        guard number.kind == .number, let n = Int(number.text), let literal = SOQLDateLiteral(name: upper, n: n)
        else { throw SOQLError.dateLiteralNumber(number, literal: upper) }
        advance()
        return literal
    }
}
