import Testing

@testable import SOQL

struct SOQLQuerySyncMutationsTests {
    /// 2024-03-05T10:11:12.000Z
    static let mark: Int64 = 1_709_633_472_000
    static let markLiteral = "2024-03-05T10:11:12.000Z"

    /// The build-time mutation of a SOQL sync down target: id and modification fields,
    /// then ordering (salesforce-rest §3.2 rule 1-2, sync-semantics §4.4).
    @Test(arguments: [
        (
            "select FirstName, LastName from Contact",
            "SELECT Id, LastModifiedDate, FirstName, LastName FROM Contact ORDER BY LastModifiedDate"
        ),
        (
            "SELECT Name FROM Account WHERE Industry = 'Energy'",
            "SELECT Id, LastModifiedDate, Name FROM Account WHERE Industry = 'Energy' ORDER BY LastModifiedDate"
        ),
        (
            "select id, lastmodifieddate, Name from Account",
            "SELECT id, lastmodifieddate, Name FROM Account ORDER BY LastModifiedDate"
        ),
        (
            "SELECT LASTMODIFIEDDATE, Name FROM Account ORDER BY Name DESC",
            "SELECT Id, LASTMODIFIEDDATE, Name FROM Account ORDER BY Name DESC"
        ),
        (
            // `Account.Id` on Account is `Id` (the org refuses a duplicate field).
            "SELECT Account.Id, Name, (SELECT Id, LastModifiedDate FROM Contacts) FROM Account",
            "SELECT LastModifiedDate, Account.Id, Name, (SELECT Id, LastModifiedDate FROM Contacts) FROM Account "
                + "ORDER BY LastModifiedDate"
        ),
        (
            "select\tName\nfrom\tAccount\r\nwhere\tName = 'x'\nlimit 10",
            "SELECT Id, LastModifiedDate, Name FROM Account WHERE Name = 'x' ORDER BY LastModifiedDate LIMIT 10"
        ),
    ])
    func addsMandatoryFieldsAndOrder(input: String, expected: String) throws {
        let mutated = try SOQLQuery.parse(input)
            .ensuringFields(["Id", "LastModifiedDate"])
            .ensuringOrder(by: "LastModifiedDate")
        #expect(mutated.text == expected)
        #expect(try SOQLQuery.parse(mutated.text) == mutated)
    }

    @Test func addsEachMissingFieldOnce() throws {
        let query = try SOQLQuery.parse("SELECT Name FROM Account")
        #expect(
            query.ensuringFields(["Id", "ID", "SystemModstamp", "Id"]).text
                == "SELECT Id, SystemModstamp, Name FROM Account"
        )
    }

    /// The resync predicate goes in front of the original condition, which keeps its
    /// meaning (weak point 10), with a UTC literal (weak point 13), and stays inside WHERE
    /// whatever clauses follow (weak point 11).
    @Test(arguments: [
        (
            "select Id from Account where Name = 'John'",
            "SELECT Id FROM Account WHERE LastModifiedDate > \(markLiteral) AND Name = 'John'"
        ),
        (
            "SELECT Id FROM Account",
            "SELECT Id FROM Account WHERE LastModifiedDate > \(markLiteral)"
        ),
        (
            "SELECT Id FROM Account WHERE A = 1 or B = 2",
            "SELECT Id FROM Account WHERE LastModifiedDate > \(markLiteral) AND (A = 1 OR B = 2)"
        ),
        (
            "SELECT Id FROM Account WHERE A = 1 AND B = 2",
            "SELECT Id FROM Account WHERE LastModifiedDate > \(markLiteral) AND (A = 1 AND B = 2)"
        ),
        (
            "SELECT Id FROM Account WHERE NOT (A = 1 OR B = 2)",
            "SELECT Id FROM Account WHERE LastModifiedDate > \(markLiteral) AND NOT (A = 1 OR B = 2)"
        ),
        (
            "SELECT Id FROM Account WHERE Name = 'x' WITH SECURITY_ENFORCED ORDER BY Name LIMIT 5 FOR VIEW",
            "SELECT Id FROM Account WHERE LastModifiedDate > \(markLiteral) AND Name = 'x' WITH SECURITY_ENFORCED "
                + "ORDER BY Name LIMIT 5 FOR VIEW"
        ),
        (
            "SELECT Id FROM Account USING SCOPE Mine WITH SECURITY_ENFORCED FOR UPDATE",
            "SELECT Id FROM Account USING SCOPE Mine WHERE LastModifiedDate > \(markLiteral) WITH SECURITY_ENFORCED "
                + "FOR UPDATE"
        ),
        (
            "SELECT Id FROM Account WHERE Id IN (SELECT AccountId FROM Contact)",
            "SELECT Id FROM Account WHERE LastModifiedDate > \(markLiteral) AND Id IN (SELECT AccountId FROM Contact)"
        ),
    ])
    func addsTheResyncFilter(input: String, expected: String) throws {
        let mutated = try SOQLQuery.parse(input).addingModifiedFilter(field: "LastModifiedDate", after: Self.mark)
        #expect(mutated.text == expected)
        #expect(try SOQLQuery.parse(mutated.text) == mutated)
    }

    @Test func resyncsTheSDKExampleAfterBuildTimeMutation() throws {
        let built = try SOQLQuery.parse("SELECT Name FROM Account WHERE Industry = 'Energy'")
            .ensuringFields(["Id", "LastModifiedDate"])
            .ensuringOrder(by: "LastModifiedDate")
        let resync = try SOQLQuery.parse(built.text).addingModifiedFilter(field: "LastModifiedDate", after: Self.mark)
        #expect(
            resync.text
                == "SELECT Id, LastModifiedDate, Name FROM Account WHERE LastModifiedDate > 2024-03-05T10:11:12.000Z "
                + "AND Industry = 'Energy' ORDER BY LastModifiedDate"
        )
    }

    @Test func inclusiveFilterUsesGreaterOrEqual() throws {
        let query = try SOQLQuery.parse("SELECT Id FROM Account")
            .addingModifiedFilter(field: "SystemModstamp", after: Self.mark + 7, inclusive: true)
        #expect(query.text == "SELECT Id FROM Account WHERE SystemModstamp >= 2024-03-05T10:11:12.007Z")
    }

    @Test(arguments: [
        (
            "SELECT Id FROM Account WHERE A = 1 OR B = 2 ORDER BY Name DESC",
            "SELECT Id FROM Account WHERE (LastModifiedDate > \(markLiteral) OR (LastModifiedDate = \(markLiteral) "
                + "AND Id > '001xx0000001')) AND (A = 1 OR B = 2) ORDER BY LastModifiedDate, Id"
        ),
        (
            "SELECT Id FROM Account",
            "SELECT Id FROM Account WHERE LastModifiedDate > \(markLiteral) OR (LastModifiedDate = \(markLiteral) "
                + "AND Id > '001xx0000001') ORDER BY LastModifiedDate, Id"
        ),
    ])
    func addsTheTieSafeResumeFilter(input: String, expected: String) throws {
        let mutated = try SOQLQuery.parse(input)
            .addingResumeFilter(field: "LastModifiedDate", after: Self.mark, idField: "Id", lastID: "001xx0000001")
        #expect(mutated.text == expected)
        #expect(try SOQLQuery.parse(mutated.text) == mutated)
        #expect(mutated.isOrdered(by: ["LastModifiedDate", "Id"]))
    }

    /// Ghost cleaning keeps ORDER BY when LIMIT or OFFSET make the subset depend on it
    /// (weak point 9).
    @Test(arguments: [
        (
            "select Id, Name from Account where Name = 'James Bond' limit 10",
            "SELECT Id FROM Account WHERE Name = 'James Bond' LIMIT 10", true
        ),
        (
            "SELECT Name FROM Account WHERE Name = 'x' ORDER BY LastModifiedDate",
            "SELECT Id FROM Account WHERE Name = 'x'", false
        ),
        (
            "SELECT Name FROM Account ORDER BY Name LIMIT 100",
            "SELECT Id FROM Account ORDER BY Name LIMIT 100", true
        ),
        (
            "SELECT Name FROM Account ORDER BY Name OFFSET 20",
            "SELECT Id FROM Account ORDER BY Name OFFSET 20", true
        ),
        (
            "SELECT Name, (SELECT Id FROM Contacts) FROM Account WITH SECURITY_ENFORCED ORDER BY Name",
            "SELECT Id FROM Account WITH SECURITY_ENFORCED", false
        ),
    ])
    func listsIDsOnly(input: String, expected: String, hasLimitOrOffset: Bool) throws {
        let query = try SOQLQuery.parse(input)
        #expect(query.hasLimitOrOffset == hasLimitOrOffset)
        #expect(query.idsOnly(idField: "Id").text == expected)
    }

    @Test(arguments: [
        ("SELECT Id FROM A ORDER BY LastModifiedDate", true),
        ("SELECT Id FROM A ORDER BY lastmodifieddate ASC", true),
        ("SELECT Id FROM A ORDER BY LastModifiedDate NULLS LAST", true),
        ("SELECT Id FROM A ORDER BY LastModifiedDate DESC", false),
        ("SELECT Id FROM A ORDER BY LastModifiedDate, Id", false),
        ("SELECT Id FROM A ORDER BY Name", false),
        ("SELECT Id FROM A", false),
    ])
    func tellsWhetherOrderedByTheModificationField(input: String, isOrdered: Bool) throws {
        #expect(try SOQLQuery.parse(input).isOrdered(by: "LastModifiedDate") == isOrdered)
    }

    @Test func ensuringOrderKeepsAnExistingOrder() throws {
        let query = try SOQLQuery.parse("SELECT Id FROM A ORDER BY Name DESC")
        #expect(query.ensuringOrder(by: "LastModifiedDate") == query)
    }

    @Test func buildsRefreshQueriesFromIDs() throws {
        let condition = SOQLCondition.all([
            .idIn(["001A", "001B"]),
            .modified(field: "LastModifiedDate", after: Self.mark),
        ])
        let query = SOQLQuery.select(fields: ["Id", "Name", "Owner.Name"], from: "Account", where: condition)
        #expect(
            query.text
                == "SELECT Id, Name, Owner.Name FROM Account WHERE Id IN ('001A', '001B') AND LastModifiedDate > "
                + "2024-03-05T10:11:12.000Z"
        )
        #expect(try SOQLQuery.parse(query.text) == query)
        #expect(SOQLCondition.all([]) == nil)
        #expect(SOQLCondition.all([.idIn(["x"], field: "Ext__c")]) == .in("Ext__c", [.string("x")], negated: false))
        #expect(SOQLCondition.maximumIDsPerQuery == 500)
    }

    @Test func quotesIDsThatNeedEscaping() throws {
        let query = SOQLQuery.select(fields: ["Id"], from: "A", where: .idIn(["it's", #"back\slash"#]))
        #expect(query.text == #"SELECT Id FROM A WHERE Id IN ('it\'s', 'back\\slash')"#)
        #expect(try SOQLQuery.parse(query.text) == query)
    }

    @Test func buildsTheQueryOfRecordsAUserCreatedSinceAnInstant() throws {
        // 2024-03-05T10:11:12.345Z; the user id is quoted like any string value.
        let query = SOQLQuery.select(
            fields: ["Id", "Name"],
            from: "Account",
            createdBy: "005x'y",
            since: 1_709_633_472_345
        )
        #expect(
            query.text
                == #"SELECT Id, Name FROM Account WHERE CreatedById = '005x\'y' AND CreatedDate >= 2024-03-05T10:11:12.345Z"#
        )
        #expect(try SOQLQuery.parse(query.text) == query)
    }
}
