import Testing

@testable import SOQL

struct SOQLQueryPrintingTests {
    private static let a = SOQLCondition.comparison("A", .equal, .integer(1))
    private static let b = SOQLCondition.comparison("B", .equal, .integer(2))
    private static let c = SOQLCondition.comparison("C", .equal, .integer(3))

    /// The printer parenthesises every AND/OR nested in another condition, so a tree built
    /// in code never prints as mixed operators at one level.
    @Test(arguments: [
        (SOQLCondition.and([a, b, c]), "A = 1 AND B = 2 AND C = 3"),
        (.or([.and([a, b]), c]), "(A = 1 AND B = 2) OR C = 3"),
        (.and([.or([a, b]), .or([b, c])]), "(A = 1 OR B = 2) AND (B = 2 OR C = 3)"),
        (.and([a, .and([b, c])]), "A = 1 AND (B = 2 AND C = 3)"),
        (.not(.or([a, b])), "NOT (A = 1 OR B = 2)"),
        (.not(.not(a)), "NOT NOT A = 1"),
        (.and([.not(a), b]), "NOT A = 1 AND B = 2"),
        (.and([a]), "A = 1"),
        (.or([.and([.or([a, b])])]), "A = 1 OR B = 2"),
        (.and([a, .or([.and([b, c])])]), "A = 1 AND (B = 2 AND C = 3)"),
        (.in("Id", [.string("x"), .null, .boolean(false)], negated: true), "Id NOT IN ('x', NULL, FALSE)"),
        (.like("Name", pattern: #"100\% a_b"#), #"Name LIKE '100\% a_b'"#),
        (.like("Name", pattern: "it's\n"), #"Name LIKE 'it\'s\n'"#),
        (
            .comparison("D", .lessOrEqual, .dateLiteral(SOQLDateLiteral(validatedName: "NEXT_N_DAYS", n: 3))),
            "D <= NEXT_N_DAYS:3"
        ),
    ])
    func parenthesisesNestedGroups(condition: SOQLCondition, text: String) throws {
        #expect(condition.text == text)
        let query = SOQLQuery(select: [.field("Id")], object: "X", condition: condition)
        let reparsed = try SOQLQuery.parse(query.text)
        #expect(reparsed.text == query.text)
    }

    @Test func printsEveryClauseInSOQLOrder() throws {
        let query = SOQLQuery(
            select: [.count],
            object: "Account",
            usingScope: "Mine",
            condition: Self.a,
            withClause: "SECURITY_ENFORCED",
            groupBy: ["Industry", "Owner.Name"],
            having: Self.b,
            orderBy: [SOQLOrderItem("Industry", isAscending: false, nulls: .first)],
            limit: 10,
            offset: 5,
            forClause: "VIEW"
        )
        #expect(
            query.text
                == "SELECT COUNT() FROM Account USING SCOPE Mine WHERE A = 1 WITH SECURITY_ENFORCED "
                + "GROUP BY Industry, Owner.Name HAVING B = 2 ORDER BY Industry DESC NULLS FIRST "
                + "LIMIT 10 OFFSET 5 FOR VIEW"
        )
        #expect(query.description == query.text)
        #expect(try SOQLQuery.parse(query.text) == query)
    }

    /// The configs shipped with the Mobile SDK samples and tests.
    @Test(arguments: [
        "SELECT Id, Name, LastModifiedDate FROM Account",
        "SELECT FirstName, LastName, Title, MobilePhone, Email, Department, HomePhone FROM Contact LIMIT 10000",
    ])
    func parsesTheSDKFixtureQueries(text: String) throws {
        let query = try SOQLQuery.parse(text)
        #expect(query.text == text)
    }

    @Test func matchesFieldPathsCaseInsensitively() {
        let path = SOQLFieldPath("Account.Owner.Name")
        #expect(path.components == ["Account", "Owner", "Name"])
        #expect(path.name == "Name")
        #expect(path.matches("account.owner.NAME"))
        #expect(!path.matches("Owner.Name"))
        #expect(!SOQLFieldPath("Account.Id").matches("Id"))
        let located = SOQLFieldPath(components: ["Id"], sourceRange: SOQLSourceRange(utf8Offset: 3, length: 2))
        #expect(SOQLFieldPath("Id") == located)
    }
}
