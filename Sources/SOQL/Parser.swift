/// A recursive-descent parser for the SOQL subset (salesforce-rest.md §3.1).
struct Parser {
    /// Where a query being parsed sits.
    enum Context {
        /// The statement itself.
        case top
        /// A parent-to-child sub-query in a select list.
        case selectSubquery
        /// The sub-query of a semi-join or anti-join.
        case semiJoin
    }

    var tokens: [Token]
    var position = 0
    /// How many `(` and `NOT` enclose the condition being parsed.
    var conditionNesting = 0
    /// The deepest nesting of `(` and `NOT` in a condition.
    static let maximumConditionNesting = 100

    init(text: String) throws(SOQLError) {
        self.tokens = try Tokenizer.tokenize(text)
    }

    var current: Token { tokens[position] }

    /// The text of the previous token in quotes, for "after …" in messages.
    var afterPrevious: String {
        position > 0 ? "'\(tokens[position - 1].text)'" : "the start of the query"
    }

    func peek(_ distance: Int = 1) -> Token {
        tokens[min(position + distance, tokens.count - 1)]
    }

    @discardableResult
    mutating func advance() -> Token {
        let token = tokens[position]
        if position < tokens.count - 1 { position += 1 }
        return token
    }

    /// Consumes the keyword (upper case) if it is next.
    mutating func accept(_ keyword: String) -> Bool {
        guard current.isKeyword(keyword) else { return false }
        advance()
        return true
    }

    mutating func expect(_ kind: Token.Kind, _ description: String, after: String? = nil) throws(SOQLError) -> Token {
        guard current.kind == kind else {
            throw SOQLError.unexpected(current, expected: description, after: after ?? afterPrevious)
        }
        return advance()
    }

    mutating func parseStatement() throws(SOQLError) -> SOQLQuery {
        let query = try parseQuery(.top)
        return query
    }

    // MARK: - Query

    /// Parses `SELECT … FROM …` and the optional clauses that follow, stopping before a `)`
    /// in a sub-query.
    mutating func parseQuery(_ context: Context) throws(SOQLError) -> SOQLQuery {
        guard current.isKeyword("SELECT") else {
            throw SOQLError.unexpected(current, expected: "'SELECT'", after: position > 0 ? afterPrevious : nil)
        }
        advance()
        let select = try parseSelectList(context)
        guard current.isKeyword("FROM") else {
            let isClause = current.kind == .word && !current.isName
            let expected = isClause ? "'FROM'" : "',' or 'FROM'"
            throw SOQLError.unexpected(current, expected: expected, after: "the select list")
        }
        advance()
        // `Group` (queues, public groups) is an object although GROUP is reserved: right after
        // FROM only an object name can stand.
        guard current.isName || current.isKeyword("GROUP") else {
            throw SOQLError.unexpected(current, expected: "an object name", after: "'FROM'")
        }
        // A child sub-query may qualify its relationship with the parent's name (`Account.Contacts`);
        // the org refuses a qualified name elsewhere, which `orgRestrictions` reports.
        let object = try parseFieldPath()
        var query = SOQLQuery(select: select, object: object.text, objectRange: object.sourceRange)
        try parseClauses(into: &query, context)
        return query
    }

    private mutating func parseSelectList(_ context: Context) throws(SOQLError) -> [SOQLSelectItem] {
        var items: [SOQLSelectItem] = []
        repeat {
            let after = items.isEmpty ? "'SELECT'" : "','"
            items.append(try parseSelectItem(context, after: after))
        } while current.kind == .comma && advance().kind == .comma
        return items
    }

    private mutating func parseSelectItem(_ context: Context, after: String) throws(SOQLError) -> SOQLSelectItem {
        if current.kind == .openParenthesis {
            guard context == .top else { throw SOQLError.nestedSubquery(current) }
            advance()
            let subquery = try parseQuery(.selectSubquery)
            _ = try expect(.closeParenthesis, "')' to close the sub-query")
            return .subquery(subquery)
        }
        if current.isKeyword("COUNT"), peek().kind == .openParenthesis {
            advance()
            advance()
            guard current.kind == .closeParenthesis else { throw SOQLError.unsupportedCountArgument(current) }
            advance()
            return .count
        }
        if current.isKeyword("TYPEOF"), peek().kind == .word, peek(2).isKeyword("WHEN") {
            return .typeOf(try parseTypeOf())
        }
        guard current.isName else {
            throw SOQLError.unexpected(current, expected: "a field, a sub-query or 'COUNT()'", after: after)
        }
        if peek().kind == .openParenthesis { throw SOQLError.unsupportedFunction(current) }
        return .field(try parseFieldPath())
    }

    /// Parses `TYPEOF rel (WHEN Object THEN fields)+ [ELSE fields] END`; the current token is `TYPEOF`.
    private mutating func parseTypeOf() throws(SOQLError) -> SOQLTypeOf {
        advance()
        let relationship = advance().text
        var whens: [SOQLTypeOf.When] = []
        while current.isKeyword("WHEN") {
            advance()
            guard current.isName else {
                throw SOQLError.unexpected(current, expected: "an object name", after: "'WHEN'")
            }
            let object = advance().text
            guard current.isKeyword("THEN") else {
                throw SOQLError.unexpected(current, expected: "'THEN'", after: "'\(object)'")
            }
            advance()
            let fields = try parseFieldList(after: "'THEN'", expected: "a field name")
            whens.append(SOQLTypeOf.When(object: object, fields: fields))
        }
        var otherwise: [SOQLFieldPath] = []
        if current.isKeyword("ELSE") {
            advance()
            otherwise = try parseFieldList(after: "'ELSE'", expected: "a field name")
        }
        guard current.isKeyword("END") else {
            throw SOQLError.unexpected(current, expected: "'WHEN', 'ELSE' or 'END'", after: "a TYPEOF field list")
        }
        advance()
        return SOQLTypeOf(relationship: relationship, whens: whens, otherwise: otherwise)
    }

    /// Parses `name ("." name)*`; the current token must be a name.
    mutating func parseFieldPath() throws(SOQLError) -> SOQLFieldPath {
        let first = advance()
        var components = [first.text]
        var end = first.offset + first.length
        while current.kind == .dot {
            advance()
            guard current.kind == .word else {
                throw SOQLError.unexpected(current, expected: "a field name", after: "'.'")
            }
            let name = advance()
            components.append(name.text)
            end = name.offset + name.length
        }
        return SOQLFieldPath(
            components: components,
            sourceRange: SOQLSourceRange(utf8Offset: first.offset, length: end - first.offset)
        )
    }
}
