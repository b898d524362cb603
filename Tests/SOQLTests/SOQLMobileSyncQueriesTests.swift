import Testing

@testable import SOQL

/// The SOQL forms MobileSync's own target tests use (`SoqlSyncDownTargetTest`, `SOQLMutatorTest`):
/// qualified child sub-query FROM names, qualified field paths and semi-joins parse, the sync
/// mutations stay correct on them, and what an org would refuse is reported, never a parse error.
struct SOQLMobileSyncQueriesTests {
    /// `SoqlSyncDownTargetTest.testGetSoqlForRemoteIds` and its neighbours: the query and the ids
    /// query MobileSync expects (compared as syntax trees, so case and spacing do not matter).
    @Test(arguments: [
        (
            "SELECT Name FROM Account WHERE Name = 'James Bond'",
            "select Id from Account where Name = 'James Bond'"
        ),
        (
            "SELECT Name, (SELECT Contact.LastName FROM Account.Contacts) FROM Account WHERE Name = 'James Bond' LIMIT 10",
            "select Id from Account where Name = 'James Bond' limit 10"
        ),
        (
            "SELECT Name FROM Account WHERE Id IN (SELECT Id FROM Account WHERE Name = 'James Bond' LIMIT 10)",
            "select Id from Account where Id IN (SELECT Id FROM Account WHERE Name = 'James Bond' LIMIT 10)"
        ),
        (
            "SELECT Name, (SELECT Contact.LastName FROM Account.Contacts) from Account where Id IN "
                + "(SELECT Id FROM Account WHERE Name = 'James Bond' LIMIT 10)",
            "select Id from Account where Id IN (SELECT Id FROM Account WHERE Name = 'James Bond' LIMIT 10)"
        ),
        (
            "SELECT From_customer__c FROM Account WHERE Name = 'James Bond' LIMIT 10",
            "select Id from Account where Name = 'James Bond' limit 10"
        ),
    ])
    func theIDsQueryIsMobileSyncs(query: String, expected: String) throws {
        let parsed = try SOQLQuery.parse(query)
        #expect(parsed.idsOnly(idField: "Id") == (try SOQLQuery.parse(expected)))
        // Printing and parsing again gives the same tree.
        #expect(try SOQLQuery.parse(parsed.text) == parsed)
    }

    @Test func aQualifiedChildSubqueryKeepsItsNameAndItsParts() throws {
        let query = try SOQLQuery.parse("SELECT Name, (SELECT Contact.LastName FROM Account.Contacts) FROM Account")
        guard case .subquery(let child) = query.select[1] else {
            Issue.record("no sub-query in \(query.select)")
            return
        }
        #expect(child.object == "Account.Contacts")
        #expect(child.objectQualifier == "Account" && child.unqualifiedObject == "Contacts")
        #expect(child.selectedFields == [SOQLFieldPath("Contact.LastName")])
        #expect(query.text == "SELECT Name, (SELECT Contact.LastName FROM Account.Contacts) FROM Account")
        #expect(query.objectQualifier == nil && query.unqualifiedObject == "Account")
        // The name's range covers the whole dotted name.
        #expect(child.objectRange == SOQLSourceRange(utf8Offset: 43, length: 16))
        #expect(query.orgRestrictions.isEmpty)
    }

    /// Fields qualified with the object's name count as the fields themselves.
    @Test func qualifiedFieldsCountAsTheFieldsForTheMutations() throws {
        let query = try SOQLQuery.parse(
            "SELECT Account.Id, Account.LastModifiedDate, Account.Name FROM Account ORDER BY Account.LastModifiedDate"
        )
        #expect(query.selects("Id") && query.selects("LastModifiedDate") && query.selects("Name"))
        #expect(query.ensuringFields(["Id", "LastModifiedDate"]) == query)
        #expect(query.isOrdered(by: "LastModifiedDate"))
        // A relationship path is not the field itself.
        let contact = try SOQLQuery.parse("SELECT Account.Id, LastName FROM Contact")
        #expect(!contact.selects("Id"))
        #expect(contact.ensuringFields(["Id"]).text == "SELECT Id, Account.Id, LastName FROM Contact")
    }

    /// The resync filter goes in front of a semi-join, which stays as it is.
    @Test func theResyncFilterKeepsSemiJoins() throws {
        let query = try SOQLQuery.parse(
            "select Id, Name from Account where Id in (select AccountId from Contact) and Name like 'Mad Max' limit 1000"
        )
        let resync = query.addingModifiedFilter(field: "LastModifiedDate", after: 1_709_633_472_000, inclusive: true)
        #expect(
            resync.text
                == "SELECT Id, Name FROM Account WHERE LastModifiedDate >= 2024-03-05T10:11:12.000Z AND "
                + "(Id IN (SELECT AccountId FROM Contact) AND Name LIKE 'Mad Max') LIMIT 1000"
        )
        #expect(try SOQLQuery.parse(resync.text) == resync)
        let anti = try SOQLQuery.parse("SELECT Name FROM Account WHERE Id NOT IN (SELECT AccountId FROM Contact)")
        #expect(
            anti.idsOnly(idField: "Id").text == "SELECT Id FROM Account WHERE Id NOT IN (SELECT AccountId FROM Contact)"
        )
    }

    /// Queries the org accepts: no restriction.
    @Test(arguments: [
        "SELECT Id FROM Account WHERE Id IN (SELECT AccountId FROM Contact WHERE LastName = 'x')",
        "SELECT Id FROM Account WHERE Id IN (SELECT AccountId FROM Contact) AND Id NOT IN (SELECT AccountId FROM Case)",
        "SELECT Name, (SELECT Contact.LastName FROM Account.Contacts) FROM Account",
        "SELECT Name, (SELECT LastName FROM Contacts WHERE LastName = 'x') FROM Account",
        "select Name from Account where ((Name = 'James Bond') or (Name = 'Batman')) and (Description like '%savior%')",
    ])
    func formsTheOrgAcceptsHaveNoRestriction(query: String) throws {
        #expect(try SOQLQuery.parse(query).orgRestrictions.isEmpty)
    }

    /// Forms that parse but that an org refuses: each is reported, with where it is.
    @Test(arguments: [
        (
            "SELECT Name FROM Account WHERE Id IN (SELECT Id FROM Account WHERE Name = 'James Bond' LIMIT 10)",
            [
                "the org refuses a semi-join sub-query on 'Account', the object of the main query; put its condition "
                    + "in the main query's WHERE clause",
                "the org refuses 'LIMIT' in a semi-join sub-query on 'Account'; remove it",
            ],
            53
        ),
        (
            "SELECT Id FROM Account.Contacts",
            [
                "the org refuses the qualified object name 'Account.Contacts' in FROM; write 'Contacts' (only a "
                    + "child sub-query may write 'Account.<relationship>')"
            ],
            15
        ),
        (
            "SELECT Name, (SELECT LastName FROM Contact.Contacts) FROM Account",
            [
                "the org refuses 'Contact.Contacts' in a sub-query of 'Account': a child relationship may only be "
                    + "qualified with its parent's name; write 'Contacts' or 'Account.Contacts'"
            ],
            35
        ),
        (
            "SELECT Id FROM Account WHERE Id IN (SELECT AccountId FROM Contact) AND Id IN (SELECT AccountId FROM Case) "
                + "AND Id IN (SELECT AccountId FROM Opportunity)",
            [
                "the org refuses more than 2 semi-joins or anti-joins ('IN (SELECT ...)', 'NOT IN (SELECT ...)') in "
                    + "one WHERE clause; this one is number 3"
            ],
            139
        ),
        (
            "SELECT Id FROM Account WHERE NOT (Id IN (SELECT AccountId FROM Contact))",
            [
                "the org refuses 'NOT' around a semi-join; write 'Id NOT IN (SELECT ...)' (or 'IN' for a negated anti-join)"
            ],
            63
        ),
        (
            "SELECT Id FROM Account WHERE Id IN (SELECT AccountId, Name FROM Contact ORDER BY Name)",
            [
                "the org refuses 'ORDER BY' in a semi-join sub-query on 'Contact'; remove it",
                "the org refuses a semi-join sub-query on 'Contact' that does not select exactly one id or reference "
                    + "field of its own object; select one, such as 'Id'",
            ],
            64
        ),
        (
            "SELECT Id FROM Account WHERE Id IN (SELECT AccountId FROM Contact WHERE Id IN (SELECT WhoId FROM Task))",
            [
                "the org refuses a semi-join nested in the semi-join sub-query on 'Contact'; move it to the main "
                    + "query's WHERE clause"
            ],
            58
        ),
        (
            "SELECT Name, (SELECT LastName FROM Contacts WHERE Id IN (SELECT WhoId FROM Task)) FROM Account",
            [
                "the org refuses a semi-join ('IN (SELECT ...)') in the WHERE clause of the sub-query on 'Contacts'; "
                    + "filter the child records without it"
            ],
            75
        ),
    ])
    func formsTheOrgRefusesAreReportedNotRejected(query: String, messages: [String], offset: Int) throws {
        let restrictions = try SOQLQuery.parse(query).orgRestrictions
        #expect(restrictions.map(\.message) == messages)
        #expect(restrictions.first?.sourceRange?.utf8Offset == offset)
    }
}
