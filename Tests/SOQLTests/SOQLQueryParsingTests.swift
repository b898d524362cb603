import Testing

@testable import SOQL

struct SOQLQueryParsingTests {
    /// Each production of the grammar, with the canonical text it prints as.
    @Test(arguments: [
        ("SELECT Id FROM Account", "SELECT Id FROM Account"),
        ("select id, name from account", "SELECT id, name FROM account"),
        ("SeLeCt Id FrOm Account", "SELECT Id FROM Account"),
        ("SELECT Account.Owner.Name FROM Contact", "SELECT Account.Owner.Name FROM Contact"),
        ("SELECT COUNT() FROM Account", "SELECT COUNT() FROM Account"),
        ("SELECT count ( ) FROM Account", "SELECT COUNT() FROM Account"),
        (
            "SELECT Id, (SELECT Id, Name FROM Contacts WHERE LastName = 'x' ORDER BY Name LIMIT 5) FROM Account",
            "SELECT Id, (SELECT Id, Name FROM Contacts WHERE LastName = 'x' ORDER BY Name LIMIT 5) FROM Account"
        ),
        ("SELECT Id FROM Order ORDER BY Order.Name", "SELECT Id FROM Order ORDER BY Order.Name"),
        (
            "SELECT Id FROM ns__Thing__c WHERE ns__Parent__r.Name = 'a'",
            "SELECT Id FROM ns__Thing__c WHERE ns__Parent__r.Name = 'a'"
        ),
        ("SELECT Id FROM A WHERE X = 1", "SELECT Id FROM A WHERE X = 1"),
        ("SELECT Id FROM A WHERE X != 1", "SELECT Id FROM A WHERE X != 1"),
        ("SELECT Id FROM A WHERE X <> 1", "SELECT Id FROM A WHERE X != 1"),
        (
            "SELECT Id FROM A WHERE X<1 AND Y<=2 AND Z>3 AND W>=4",
            "SELECT Id FROM A WHERE X < 1 AND Y <= 2 AND Z > 3 AND W >= 4"
        ),
        ("SELECT Id FROM A WHERE X = -12", "SELECT Id FROM A WHERE X = -12"),
        ("SELECT Id FROM A WHERE X = 12.50", "SELECT Id FROM A WHERE X = 12.50"),
        ("SELECT Id FROM A WHERE X = -0.5", "SELECT Id FROM A WHERE X = -0.5"),
        ("SELECT Id FROM A WHERE X = true OR Y = False", "SELECT Id FROM A WHERE X = TRUE OR Y = FALSE"),
        ("SELECT Id FROM A WHERE X = null", "SELECT Id FROM A WHERE X = NULL"),
        ("SELECT Id FROM A WHERE D = 2024-01-01", "SELECT Id FROM A WHERE D = 2024-01-01"),
        ("SELECT Id FROM A WHERE D > 2024-01-01T10:00:00Z", "SELECT Id FROM A WHERE D > 2024-01-01T10:00:00Z"),
        (
            "SELECT Id FROM A WHERE D > 2024-01-01T10:00:00.123+01:00",
            "SELECT Id FROM A WHERE D > 2024-01-01T10:00:00.123+01:00"
        ),
        (
            "SELECT Id FROM A WHERE D > 2024-03-05T17:04:11.000+0000",
            "SELECT Id FROM A WHERE D > 2024-03-05T17:04:11.000+0000"
        ),
        ("SELECT Id FROM A WHERE D = today", "SELECT Id FROM A WHERE D = TODAY"),
        ("SELECT Id FROM A WHERE D = LAST_N_DAYS:30", "SELECT Id FROM A WHERE D = LAST_N_DAYS:30"),
        ("SELECT Id FROM A WHERE D = next_n_weeks : 2", "SELECT Id FROM A WHERE D = NEXT_N_WEEKS:2"),
        ("SELECT Id FROM A WHERE Name LIKE 'Ac%'", "SELECT Id FROM A WHERE Name LIKE 'Ac%'"),
        ("SELECT Id FROM A WHERE Name IN ('a', 'b')", "SELECT Id FROM A WHERE Name IN ('a', 'b')"),
        ("SELECT Id FROM A WHERE Name NOT IN ('a')", "SELECT Id FROM A WHERE Name NOT IN ('a')"),
        ("SELECT Id FROM A WHERE N IN (1, 2.5, NULL)", "SELECT Id FROM A WHERE N IN (1, 2.5, NULL)"),
        (
            "SELECT Id FROM A WHERE Id IN (SELECT AccountId FROM Contact WHERE LastName = 'x')",
            "SELECT Id FROM A WHERE Id IN (SELECT AccountId FROM Contact WHERE LastName = 'x')"
        ),
        (
            "SELECT Id FROM A WHERE Id NOT IN (SELECT AccountId FROM Contact)",
            "SELECT Id FROM A WHERE Id NOT IN (SELECT AccountId FROM Contact)"
        ),
        ("SELECT Id FROM A WHERE NOT X = 1", "SELECT Id FROM A WHERE NOT X = 1"),
        ("SELECT Id FROM A WHERE NOT (X = 1 OR Y = 2)", "SELECT Id FROM A WHERE NOT (X = 1 OR Y = 2)"),
        ("SELECT Id FROM A WHERE (X = 1)", "SELECT Id FROM A WHERE X = 1"),
        ("SELECT Id FROM A WHERE X = 1 AND (Y = 2 OR Z = 3)", "SELECT Id FROM A WHERE X = 1 AND (Y = 2 OR Z = 3)"),
        ("SELECT Id FROM A WHERE (X = 1 AND Y = 2) OR Z = 3", "SELECT Id FROM A WHERE (X = 1 AND Y = 2) OR Z = 3"),
        ("SELECT Id FROM A WHERE X = 1 AND (Y = 2 AND Z = 3)", "SELECT Id FROM A WHERE X = 1 AND (Y = 2 AND Z = 3)"),
        ("SELECT Id FROM A ORDER BY Name", "SELECT Id FROM A ORDER BY Name"),
        ("SELECT Id FROM A ORDER BY Name ASC", "SELECT Id FROM A ORDER BY Name"),
        (
            "SELECT Id FROM A order by a ASC NULLS LAST, b DESC, c desc nulls first",
            "SELECT Id FROM A ORDER BY a NULLS LAST, b DESC, c DESC NULLS FIRST"
        ),
        ("SELECT Id FROM A LIMIT 10 OFFSET 20", "SELECT Id FROM A LIMIT 10 OFFSET 20"),
        ("SELECT Id FROM A OFFSET 5", "SELECT Id FROM A OFFSET 5"),
        ("SELECT Id FROM A USING SCOPE Mine WHERE X = 1", "SELECT Id FROM A USING SCOPE Mine WHERE X = 1"),
        ("SELECT Id FROM A WITH SECURITY_ENFORCED", "SELECT Id FROM A WITH SECURITY_ENFORCED"),
        (
            "SELECT Id FROM A WHERE X = 1 WITH DATA CATEGORY Geo__c AT (usa__c,uk__c) ORDER BY Id",
            "SELECT Id FROM A WHERE X = 1 WITH DATA CATEGORY Geo__c AT (usa__c, uk__c) ORDER BY Id"
        ),
        ("SELECT Id FROM A LIMIT 1 for view", "SELECT Id FROM A LIMIT 1 FOR VIEW"),
        ("SELECT Id FROM A FOR UPDATE", "SELECT Id FROM A FOR UPDATE"),
        ("SELECT Id FROM A FOR REFERENCE", "SELECT Id FROM A FOR REFERENCE"),
        (
            "SELECT Industry FROM A GROUP BY Industry HAVING Industry != NULL",
            "SELECT Industry FROM A GROUP BY Industry HAVING Industry != NULL"
        ),
        (
            "\tSELECT\n  Id,\r\n  Name\nFROM\tAccount\n WHERE\tName = 'x'\n",
            "SELECT Id, Name FROM Account WHERE Name = 'x'"
        ),
    ])
    func parsesEachProduction(input: String, canonical: String) throws {
        let query = try SOQLQuery.parse(input)
        #expect(query.text == canonical)
        #expect(try SOQLQuery.parse(query.text) == query)
    }

    @Test func buildsTheTree() throws {
        let query = try SOQLQuery.parse(
            "SELECT Id, Account.Name, (SELECT Id FROM Contacts) FROM Opportunity "
                + "WHERE StageName = 'Won' AND Amount >= 10.5 ORDER BY CloseDate DESC NULLS LAST LIMIT 5 OFFSET 10"
        )
        let expected = SOQLQuery(
            select: [
                .field("Id"), .field("Account.Name"),
                .subquery(SOQLQuery(select: [.field("Id")], object: "Contacts")),
            ],
            object: "Opportunity",
            condition: .and([
                .comparison("StageName", .equal, .string("Won")),
                .comparison("Amount", .greaterOrEqual, .decimal("10.5")),
            ]),
            orderBy: [SOQLOrderItem("CloseDate", isAscending: false, nulls: .last)],
            limit: 5,
            offset: 10
        )
        #expect(query == expected)
        #expect(query.selectedFields.map(\.components) == [["Id"], ["Account", "Name"]])
    }

    /// `Group` (queues) is an object name after FROM although GROUP is reserved; GROUP BY still groups.
    @Test func groupIsAnObjectAfterFrom() throws {
        let query = try SOQLQuery.parse("SELECT Id, DeveloperName FROM Group WHERE Type = 'Queue'")
        #expect(query.object == "Group")
        #expect(query.condition == .comparison("Type", .equal, .string("Queue")))
        #expect(try SOQLQuery.parse(query.text) == query)
        let grouped = try SOQLQuery.parse("SELECT Type FROM Group GROUP BY Type")
        #expect(grouped.object == "Group")
        #expect(grouped.groupBy.map(\.text) == ["Type"])
    }

    /// TYPEOF: a polymorphic relationship's fields per object, printed back as parsed; Bulk refuses it.
    @Test func typeOfSelectsFieldsPerObject() throws {
        let text =
            "SELECT Id, TYPEOF What WHEN Account THEN Name, Industry WHEN Opportunity THEN Amount ELSE Name END, "
            + "Subject FROM Task"
        let query = try SOQLQuery.parse(text)
        #expect(query.text == text)
        #expect(
            query.select[1]
                == .typeOf(
                    SOQLTypeOf(
                        relationship: "What",
                        whens: [
                            .init(object: "Account", fields: ["Name", "Industry"]),
                            .init(object: "Opportunity", fields: ["Amount"]),
                        ],
                        otherwise: ["Name"]
                    )
                )
        )
        #expect(query.selectedFields.map(\.text) == ["Id", "Subject"])
        #expect(query.bulkUnsupportedFeature == "TYPEOF or FIELDS()")
        #expect(throws: SOQLError.self) { try SOQLQuery.parse("SELECT TYPEOF What WHEN Account THEN Name FROM Task") }
    }

    @Test func keepsNamesAsSpelledAndRecordsTheirRanges() throws {
        let text = "select  lastModifiedDate from  account__c where Owner.Name = 'é' and X = 1"
        let query = try SOQLQuery.parse(text)
        #expect(query.object == "account__c")
        #expect(query.objectRange == SOQLSourceRange(utf8Offset: 31, length: 10))
        let field = try #require(query.select.first?.fieldPath)
        #expect(field.components == ["lastModifiedDate"])
        #expect(field.sourceRange == SOQLSourceRange(utf8Offset: 8, length: 16))
        guard case .and(let operands) = query.condition, case .comparison(let path, _, _) = operands.last else {
            Issue.record("expected an AND of comparisons, got \(String(describing: query.condition))")
            return
        }
        // 'é' takes two bytes, so X is at character 69 but at byte 70.
        #expect(path.sourceRange == SOQLSourceRange(utf8Offset: 70, length: 1))
    }

    @Test(arguments: [
        (#"'O\'Brien'"#, "O'Brien"),
        (#"'back\\slash'"#, #"back\slash"#),
        (#"'a\nb\tc\rd'"#, "a\nb\tc\rd"),
        (#"'A\NB\TC'"#, "A\nB\tC"),
        (#"'\b\f'"#, "\u{8}\u{C}"),
        (#"'say \"hi\"'"#, #"say "hi""#),
        ("'plain \"quotes\"'", #"plain "quotes""#),
        ("'Zoë 日本'", "Zoë 日本"),
        ("''", ""),
    ])
    func decodesStringEscapes(literal: String, value: String) throws {
        let query = try SOQLQuery.parse("SELECT Id FROM A WHERE Name = \(literal)")
        #expect(query.condition == .comparison("Name", .equal, .string(value)))
        #expect(try SOQLQuery.parse(query.text) == query)
    }

    @Test(arguments: [
        (#"'50\%'"#, #"50\%"#),
        (#"'a\_b%'"#, #"a\_b%"#),
        (#"'c:\\dir%'"#, #"c:\\dir%"#),
        (#"'O\'B%'"#, "O'B%"),
    ])
    func keepsLikeEscapesInPatterns(literal: String, pattern: String) throws {
        let query = try SOQLQuery.parse("SELECT Id FROM A WHERE Name LIKE \(literal)")
        #expect(query.condition == .like("Name", pattern: pattern))
        #expect(query.text == "SELECT Id FROM A WHERE Name LIKE \(literal)")
    }

    @Test(arguments: [
        ("42", SOQLValue.integer(42)),
        ("-7", .integer(-7)),
        ("99999999999999999999", .decimal("99999999999999999999")),
        ("1.0", .decimal("1.0")),
        ("TRUE", .boolean(true)),
        ("NULL", .null),
        ("2024-02-29", .date(SOQLDate(daysSinceEpoch: 19782))),
        ("2024-03-05T17:04:11Z", .dateTime(SOQLDateTime(millisecondsSinceEpoch: 1_709_658_251_000))),
        ("YESTERDAY", .dateLiteral(SOQLDateLiteral(validatedName: "YESTERDAY", n: nil))),
        ("n_days_ago:3", .dateLiteral(SOQLDateLiteral(validatedName: "N_DAYS_AGO", n: 3))),
    ])
    func parsesValues(literal: String, value: SOQLValue) throws {
        let query = try SOQLQuery.parse("SELECT Id FROM A WHERE F = \(literal)")
        guard case .comparison(_, _, let parsed) = query.condition else {
            Issue.record("expected a comparison")
            return
        }
        if case .dateTime(let expected) = value, case .dateTime(let actual) = parsed {
            #expect(actual.millisecondsSinceEpoch == expected.millisecondsSinceEpoch)
            #expect(actual.text == literal)
        } else {
            #expect(parsed == value)
        }
    }

    @Test func normalisesDateTimeOffsetsToUTC() throws {
        let query = try SOQLQuery.parse("SELECT Id FROM A WHERE D > 2024-03-05T18:34:11.5+0130")
        guard case .comparison(_, _, .dateTime(let value)) = query.condition else {
            Issue.record("expected a date-time comparison")
            return
        }
        #expect(value.millisecondsSinceEpoch == 1_709_658_251_500)
        #expect(value.text == "2024-03-05T18:34:11.5+0130")
    }
}
