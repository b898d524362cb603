import Testing

@testable import SOQL

/// A query that must fail, with the exact error it must produce.
struct ErrorCase: Sendable, CustomTestStringConvertible {
    var query: String
    var code: SOQLError.Code
    var offset: Int
    var length: Int
    var message: String

    init(_ query: String, _ code: SOQLError.Code, at offset: Int, length: Int, _ message: String) {
        self.query = query
        self.code = code
        self.offset = offset
        self.length = length
        self.message = message
    }

    var testDescription: String { query }
}

struct SOQLErrorTests {
    static let cases: [ErrorCase] = [
        ErrorCase(
            "SELECT Id WHERE Name = 'x'",
            .unexpectedToken,
            at: 10,
            length: 5,
            "expected 'FROM' after the select list, found 'WHERE'"
        ),
        ErrorCase(
            "SELECT Id Name FROM A",
            .unexpectedToken,
            at: 10,
            length: 4,
            "expected ',' or 'FROM' after the select list, found 'Name'"
        ),
        ErrorCase(
            "SELECT Id",
            .unexpectedToken,
            at: 9,
            length: 0,
            "expected ',' or 'FROM' after the select list, found end of query"
        ),
        ErrorCase(
            "SELECT FROM Account",
            .unexpectedToken,
            at: 7,
            length: 4,
            "expected a field, a sub-query or 'COUNT()' after 'SELECT', found 'FROM'"
        ),
        ErrorCase(
            "SELECT Id, FROM A",
            .unexpectedToken,
            at: 11,
            length: 4,
            "expected a field, a sub-query or 'COUNT()' after ',', found 'FROM'"
        ),
        ErrorCase(
            "",
            .unexpectedToken,
            at: 0,
            length: 0,
            "expected 'SELECT', found end of query"
        ),
        ErrorCase(
            "UPDATE Account",
            .unexpectedToken,
            at: 0,
            length: 6,
            "expected 'SELECT', found 'UPDATE'"
        ),
        ErrorCase(
            "SELECT Id FROM WHERE",
            .unexpectedToken,
            at: 15,
            length: 5,
            "expected an object name after 'FROM', found 'WHERE'"
        ),
        ErrorCase(
            "SELECT Id FROM Account garbage",
            .unexpectedToken,
            at: 23,
            length: 7,
            "expected 'USING SCOPE', 'WHERE', 'WITH', 'GROUP BY', 'HAVING', 'ORDER BY', 'LIMIT', "
                + "'OFFSET', 'FOR' or end of query after 'Account', found 'garbage'"
        ),
        ErrorCase(
            "SELECT Id FROM A LIMIT 5 ORDER BY Name",
            .unexpectedToken,
            at: 25,
            length: 5,
            "expected 'OFFSET', 'FOR' or end of query after '5', found 'ORDER'"
        ),
        ErrorCase(
            "SELECT Id FROM A WHERE X = 1)",
            .unexpectedToken,
            at: 28,
            length: 1,
            "expected 'WITH', 'GROUP BY', 'HAVING', 'ORDER BY', 'LIMIT', 'OFFSET', 'FOR' or end of "
                + "query after '1', found ')'"
        ),
        ErrorCase(
            "SELECT (SELECT Id FROM Contacts FROM A",
            .unexpectedToken,
            at: 32,
            length: 4,
            "expected 'USING SCOPE', 'WHERE', 'WITH', 'GROUP BY', 'HAVING', 'ORDER BY', 'LIMIT', "
                + "'OFFSET', 'FOR' or ')' after 'Contacts', found 'FROM'"
        ),
        ErrorCase(
            "SELECT Id FROM A WHERE A = 1 AND B = 2 OR C = 3",
            .mixedLogicalOperators,
            at: 39,
            length: 2,
            "cannot mix 'AND' and 'OR' at the same level: expected 'AND', found 'OR'; add "
                + "parentheses, for example 'A AND (B OR C)'"
        ),
        ErrorCase(
            "SELECT Id FROM A WHERE A = 1 or B = 2 and C = 3",
            .mixedLogicalOperators,
            at: 38,
            length: 3,
            "cannot mix 'AND' and 'OR' at the same level: expected 'OR', found 'and'; add "
                + "parentheses, for example 'A AND (B OR C)'"
        ),
        ErrorCase(
            "SELECT Id FROM A WHERE (A = 1 AND B = 2 OR C = 3) AND D = 4",
            .mixedLogicalOperators,
            at: 40,
            length: 2,
            "cannot mix 'AND' and 'OR' at the same level: expected 'AND', found 'OR'; add "
                + "parentheses, for example 'A AND (B OR C)'"
        ),
        ErrorCase(
            "SELECT Id FROM A WHERE Id IN (SELECT AId FROM C) OR Name = 'x'",
            .semiJoinWithOr,
            at: 49,
            length: 2,
            "a sub-query condition ('IN (SELECT ...)') cannot be combined with 'OR'; expected 'AND' "
                + "here, or split the query in two"
        ),
        ErrorCase(
            "SELECT Id FROM A WHERE Name = 'x' OR Y = 1 OR NOT Id NOT IN (SELECT AId FROM C)",
            .semiJoinWithOr,
            at: 34,
            length: 2,
            "a sub-query condition ('IN (SELECT ...)') cannot be combined with 'OR'; expected 'AND' "
                + "here, or split the query in two"
        ),
        ErrorCase(
            "SELECT Id FROM A WHERE Name = 'abc",
            .unterminatedString,
            at: 30,
            length: 1,
            "unterminated string: expected a closing quote (') before the end of the query"
        ),
        ErrorCase(
            #"SELECT Id FROM A WHERE Name = 'abc\'"#,
            .unterminatedString,
            at: 30,
            length: 1,
            "unterminated string: expected a closing quote (') before the end of the query"
        ),
        ErrorCase(
            "SELECT Id FROM A WHERE Name = #x",
            .invalidCharacter,
            at: 30,
            length: 1,
            "expected a name, value, operator or punctuation, found the character '#'"
        ),
        ErrorCase(
            "SELECT Id FROM A WHERE Name = ¿x",
            .invalidCharacter,
            at: 30,
            length: 2,
            "expected a name, value, operator or punctuation, found the character '¿'"
        ),
        ErrorCase(
            "SELECT Id FROM A WHERE X ! 1",
            .invalidCharacter,
            at: 25,
            length: 1,
            "expected a name, value, operator or punctuation, found the character '!'"
        ),
        ErrorCase(
            "SELECT Id FROM A WHERE X = -a",
            .invalidCharacter,
            at: 27,
            length: 1,
            "expected a name, value, operator or punctuation, found the character '-'"
        ),
        ErrorCase(
            "SELECT Id FROM A WHERE X = :name",
            .unexpectedToken,
            at: 27,
            length: 1,
            "expected a value (a string, number, date, date-time, TRUE, FALSE, NULL or date literal) "
                + "after '=', found ':'"
        ),
        ErrorCase(
            #"SELECT Id FROM A WHERE Name = 'é\qb'"#,
            .invalidEscape,
            at: 33,
            length: 2,
            #"invalid escape sequence '\q' in a string; expected one of \' \" \\ \n \r \t \b \f, or \% "#
                + #"\_ in a LIKE pattern"#
        ),
        ErrorCase(
            #"SELECT Id FROM A WHERE Name = '50\%'"#,
            .invalidEscape,
            at: 33,
            length: 2,
            #"escape sequence '\%' is only allowed in a LIKE pattern; write '%' instead"#
        ),
        ErrorCase(
            "SELECT Id FROM A WHERE D = 2024-13-01",
            .invalidDate,
            at: 27,
            length: 10,
            "invalid date or date-time '2024-13-01'; expected yyyy-MM-dd, or yyyy-MM-ddTHH:mm:ss with "
                + "optional fractional seconds followed by 'Z', '+hh:mm' or '+hhmm'"
        ),
        ErrorCase(
            "SELECT Id FROM A WHERE D = 2023-02-29",
            .invalidDate,
            at: 27,
            length: 10,
            "invalid date or date-time '2023-02-29'; expected yyyy-MM-dd, or yyyy-MM-ddTHH:mm:ss with "
                + "optional fractional seconds followed by 'Z', '+hh:mm' or '+hhmm'"
        ),
        ErrorCase(
            "SELECT Id FROM A WHERE D > 2024-01-01T25:00:00Z",
            .invalidDate,
            at: 27,
            length: 20,
            "invalid date or date-time '2024-01-01T25:00:00Z'; expected yyyy-MM-dd, or "
                + "yyyy-MM-ddTHH:mm:ss with optional fractional seconds followed by 'Z', '+hh:mm' or "
                + "'+hhmm'"
        ),
        ErrorCase(
            "SELECT Id FROM A WHERE D > 2024-01-01T10:00:00 AND X = 1",
            .invalidDate,
            at: 27,
            length: 19,
            "invalid date or date-time '2024-01-01T10:00:00'; expected yyyy-MM-dd, or "
                + "yyyy-MM-ddTHH:mm:ss with optional fractional seconds followed by 'Z', '+hh:mm' or "
                + "'+hhmm'"
        ),
        ErrorCase(
            "SELECT Id FROM A WHERE D > 2024-01-01T10:00:00+1:00",
            .invalidDate,
            at: 27,
            length: 24,
            "invalid date or date-time '2024-01-01T10:00:00+1:00'; expected yyyy-MM-dd, or "
                + "yyyy-MM-ddTHH:mm:ss with optional fractional seconds followed by 'Z', '+hh:mm' or "
                + "'+hhmm'"
        ),
        ErrorCase(
            "SELECT Id FROM A LIMIT 1.5",
            .unexpectedToken,
            at: 23,
            length: 3,
            "expected a whole number after 'LIMIT', found '1.5'"
        ),
        ErrorCase(
            "SELECT Id FROM A OFFSET -1",
            .unexpectedToken,
            at: 24,
            length: 2,
            "expected a whole number after 'OFFSET', found '-1'"
        ),
        ErrorCase(
            "SELECT Id FROM A LIMIT 99999999999999999999",
            .invalidNumber,
            at: 23,
            length: 20,
            "number 99999999999999999999 after 'LIMIT' is too large; expected at most "
                + "9223372036854775807"
        ),
        ErrorCase(
            "SELECT Id FROM A WHERE Name 'x'",
            .unexpectedToken,
            at: 28,
            length: 3,
            "expected an operator ('=', '!=', '<', '<=', '>', '>=', 'LIKE', 'IN' or 'NOT IN') after "
                + "'Name', found a string literal"
        ),
        ErrorCase(
            "SELECT Id FROM A WHERE Name =",
            .unexpectedToken,
            at: 29,
            length: 0,
            "expected a value (a string, number, date, date-time, TRUE, FALSE, NULL or date literal) "
                + "after '=', found end of query"
        ),
        ErrorCase(
            "SELECT Id FROM A WHERE D = SOMEDAY",
            .unexpectedToken,
            at: 27,
            length: 7,
            "expected a value (a string, number, date, date-time, TRUE, FALSE, NULL or date literal) "
                + "after '=', found 'SOMEDAY'"
        ),
        ErrorCase(
            "SELECT Id FROM A WHERE D = LAST_N_DAYS",
            .invalidDateLiteral,
            at: 38,
            length: 0,
            "expected ':' and a number after 'LAST_N_DAYS', found end of query; for example "
                + "'LAST_N_DAYS:30'"
        ),
        ErrorCase(
            "SELECT Id FROM A WHERE D = last_n_days:100001",
            .invalidDateLiteral,
            at: 39,
            length: 6,
            "expected a whole number from 0 to 100000 after 'LAST_N_DAYS:', found '100001'"
        ),
        ErrorCase(
            "SELECT Id FROM A WHERE D = LAST_N_DAYS:x",
            .invalidDateLiteral,
            at: 39,
            length: 1,
            "expected a whole number from 0 to 100000 after 'LAST_N_DAYS:', found 'x'"
        ),
        ErrorCase(
            "SELECT Id FROM A WHERE D = this_fiscal_year",
            .unsupported,
            at: 27,
            length: 16,
            "date literal 'THIS_FISCAL_YEAR' is not supported because fiscal periods depend on org "
                + "settings; expected a calendar literal such as 'THIS_YEAR' or explicit dates"
        ),
        ErrorCase(
            "SELECT toLabel(Status) FROM A",
            .unsupported,
            at: 7,
            length: 7,
            "function 'toLabel' is not supported; expected a plain field such as 'Name'"
        ),
        ErrorCase(
            "SELECT Id FROM A WHERE CALENDAR_YEAR(CreatedDate) = 2024",
            .unsupported,
            at: 23,
            length: 13,
            "function 'CALENDAR_YEAR' is not supported; expected a plain field such as 'Name'"
        ),
        ErrorCase(
            "SELECT COUNT(Id) FROM A",
            .unsupported,
            at: 13,
            length: 2,
            "expected ')' after 'COUNT(', found 'Id'; aggregate functions other than 'COUNT()' are "
                + "not supported"
        ),
        ErrorCase(
            "SELECT (SELECT Id, (SELECT Id FROM X) FROM Y) FROM Z",
            .unsupported,
            at: 19,
            length: 1,
            "expected a field in a sub-query's select list, found '('; sub-queries can only be nested "
                + "one level deep"
        ),
        ErrorCase(
            "SELECT Id FROM A WHERE (X = 1",
            .unexpectedToken,
            at: 29,
            length: 0,
            "expected 'AND', 'OR' or ')' after '1', found end of query"
        ),
        ErrorCase(
            "SELECT Id FROM A WHERE Name LIKE 5",
            .unexpectedToken,
            at: 33,
            length: 1,
            "expected a string pattern after 'LIKE', found '5'"
        ),
        ErrorCase(
            "SELECT Id FROM A WHERE ORDER BY Name",
            .unexpectedToken,
            at: 23,
            length: 5,
            "expected a field, 'NOT' or '(' after 'WHERE', found 'ORDER'"
        ),
        ErrorCase(
            "SELECT Id FROM A WHERE X = 1 AND",
            .unexpectedToken,
            at: 32,
            length: 0,
            "expected a field, 'NOT' or '(' after 'AND', found end of query"
        ),
        ErrorCase(
            "SELECT Id FROM A WHERE X IN (1, 2",
            .unexpectedToken,
            at: 33,
            length: 0,
            "expected ',' or ')' after '2', found end of query"
        ),
        ErrorCase(
            "SELECT Id FROM A WHERE X IN ()",
            .unexpectedToken,
            at: 29,
            length: 1,
            "expected a value (a string, number, date, date-time, TRUE, FALSE, NULL or date literal) "
                + "after '(', found ')'"
        ),
        ErrorCase(
            "SELECT Id FROM A WHERE X IN 'a'",
            .unexpectedToken,
            at: 28,
            length: 3,
            "expected '(' after 'IN', found a string literal"
        ),
        ErrorCase(
            "SELECT Id FROM A WHERE Id IN (SELECT AId FROM C",
            .unexpectedToken,
            at: 47,
            length: 0,
            "expected 'USING SCOPE', 'WHERE', 'WITH', 'GROUP BY', 'HAVING', 'ORDER BY', 'LIMIT', "
                + "'OFFSET', 'FOR' or ')' after 'C', found end of query"
        ),
        ErrorCase(
            "SELECT Id FROM A WHERE Account. = 1",
            .unexpectedToken,
            at: 32,
            length: 1,
            "expected a field name after '.', found '='"
        ),
        ErrorCase(
            "SELECT Id FROM A ORDER BY a NULLS",
            .unexpectedToken,
            at: 33,
            length: 0,
            "expected 'FIRST' or 'LAST' after 'NULLS', found end of query"
        ),
        ErrorCase(
            "SELECT Id FROM A ORDER BY",
            .unexpectedToken,
            at: 25,
            length: 0,
            "expected a field after 'ORDER BY', found end of query"
        ),
        ErrorCase(
            "SELECT Id FROM A FOR ALL",
            .unexpectedToken,
            at: 21,
            length: 3,
            "expected 'VIEW', 'REFERENCE' or 'UPDATE' after 'FOR', found 'ALL'"
        ),
        ErrorCase(
            "SELECT Id FROM A WITH",
            .unexpectedToken,
            at: 21,
            length: 0,
            "expected a filter such as 'SECURITY_ENFORCED' after 'WITH', found end of query"
        ),
        ErrorCase(
            "SELECT Id FROM A USING SCOPE",
            .unexpectedToken,
            at: 28,
            length: 0,
            "expected a scope name after 'USING SCOPE', found end of query"
        ),
    ]

    @Test(arguments: cases)
    func reportsWhatWasExpectedAndWhere(_ errorCase: ErrorCase) {
        #expect {
            try SOQLQuery.parse(errorCase.query)
        } throws: { error in
            guard let error = error as? SOQLError else { return false }
            #expect(error.message == errorCase.message)
            #expect(error.code == errorCase.code)
            #expect(error.utf8Offset == errorCase.offset)
            #expect(error.length == errorCase.length)
            return true
        }
    }

    @Test func describesItselfWithItsOffset() throws {
        let error = try #require(throws: SOQLError.self) { try SOQLQuery.parse("SELECT Id WHERE X = 1") }
        #expect(error.description == "offset 10: expected 'FROM' after the select list, found 'WHERE'")
        #expect(error.code.description == "unexpectedToken")
    }

    @Test(arguments: [
        ("SELECT Id\nFROM A\n  WHERE X = #", 3, 13),
        ("SELECT Id FROM A WHERE N = 'é' AND #", 1, 36),
        ("#", 1, 1),
    ])
    func mapsTheOffsetToLineAndColumn(query: String, line: Int, column: Int) throws {
        let error = try #require(throws: SOQLError.self) { try SOQLQuery.parse(query) }
        let position = error.lineAndColumn(in: query)
        #expect(position.line == line)
        #expect(position.column == column)
    }
}
