import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing

struct OrgQueryTests {
    static let accountCases: [(String, [String])] = [
        ("SELECT Name FROM Account ORDER BY Name", ["Acme", "Blue Harbor", "cedar grove", "Delta"]),
        ("select name from account where industry = 'banking' order by name", ["Acme", "Delta"]),
        ("SELECT Name FROM Account WHERE Industry != 'Banking' ORDER BY Name", ["Blue Harbor", "cedar grove"]),
        ("SELECT Name FROM Account WHERE Industry = null", ["cedar grove"]),
        ("SELECT Name FROM Account WHERE Industry != null ORDER BY Name", ["Acme", "Blue Harbor", "Delta"]),
        ("SELECT Name FROM Account WHERE Name LIKE 'b%'", ["Blue Harbor"]),
        ("SELECT Name FROM Account WHERE Name LIKE '_ELTA'", ["Delta"]),
        (
            "SELECT Name FROM Account WHERE NumberOfEmployees > 60 ORDER BY NumberOfEmployees DESC",
            ["Acme", "cedar grove"]
        ),
        ("SELECT Name FROM Account WHERE AnnualRevenue >= 1000.5 ORDER BY Name", ["Acme", "cedar grove"]),
        (
            "SELECT Name FROM Account WHERE Industry IN ('Retail', 'Banking') ORDER BY Name",
            ["Acme", "Blue Harbor", "Delta"]
        ),
        ("SELECT Name FROM Account WHERE Industry NOT IN ('Retail') ORDER BY Name", ["Acme", "cedar grove", "Delta"]),
        ("SELECT Name FROM Account WHERE Industry = 'Banking' AND NumberOfEmployees > 10", ["Acme"]),
        (
            "SELECT Name FROM Account WHERE Industry = 'Retail' OR NumberOfEmployees = 75 ORDER BY Name",
            ["Blue Harbor", "cedar grove"]
        ),
        ("SELECT Name FROM Account WHERE NOT (Industry = 'Banking') ORDER BY Name", ["Blue Harbor", "cedar grove"]),
        (
            "SELECT Name FROM Account WHERE Industry = 'Banking' AND (NumberOfEmployees = null OR Name = 'Acme') ORDER BY Name",
            ["Acme", "Delta"]
        ),
        (
            "SELECT Name FROM Account WHERE Id IN (SELECT AccountId FROM Contact) ORDER BY Name",
            ["Acme", "Blue Harbor"]
        ),
        (
            "SELECT Name FROM Account WHERE Id NOT IN (SELECT AccountId FROM Contact) ORDER BY Name",
            ["cedar grove", "Delta"]
        ),
        (
            "SELECT Name FROM Account WHERE Id IN (SELECT AccountId FROM Contact WHERE LastName = 'Poe')",
            ["Blue Harbor"]
        ),
        ("SELECT Name FROM Account WHERE CreatedDate = TODAY", ["Acme"]),
        ("SELECT Name FROM Account WHERE CreatedDate = YESTERDAY", ["Blue Harbor"]),
        (
            "SELECT Name FROM Account WHERE CreatedDate = LAST_N_DAYS:30 ORDER BY Name",
            ["Acme", "Blue Harbor", "cedar grove"]
        ),
        ("SELECT Name FROM Account WHERE CreatedDate < THIS_MONTH ORDER BY Name", ["cedar grove", "Delta"]),
        ("SELECT Name FROM Account WHERE CreatedDate = LAST_MONTH", ["cedar grove"]),
        ("SELECT Name FROM Account WHERE CreatedDate = LAST_YEAR", ["Delta"]),
        ("SELECT Name FROM Account WHERE CreatedDate > 2024-03-04T23:59:59Z", ["Acme"]),
        (
            "SELECT Name FROM Account WHERE CreatedDate >= 2024-03-04T23:59:59.000+0000 ORDER BY Name",
            ["Acme", "Blue Harbor"]
        ),
        (
            "SELECT Name FROM Account WHERE CreatedDate <= 2024-03-05T00:59:59+01:00 ORDER BY Name",
            ["Blue Harbor", "cedar grove", "Delta"]
        ),
        (
            "SELECT Name FROM Account ORDER BY Industry NULLS LAST, Name",
            ["Acme", "Delta", "Blue Harbor", "cedar grove"]
        ),
        ("SELECT Name FROM Account ORDER BY Industry DESC, Name", ["Blue Harbor", "Acme", "Delta", "cedar grove"]),
        ("SELECT Name FROM Account ORDER BY Industry, Name", ["cedar grove", "Acme", "Delta", "Blue Harbor"]),
        ("SELECT Name FROM Account ORDER BY Name LIMIT 2 OFFSET 1", ["Blue Harbor", "cedar grove"]),
        ("SELECT Name FROM Account WHERE Parent.Name = 'Acme'", ["Blue Harbor"]),
        (
            "SELECT Name FROM Account WHERE IsDeleted = false AND Owner.LastName = 'Admin' ORDER BY CreatedDate",
            ["Delta", "cedar grove", "Blue Harbor", "Acme"]
        ),
        ("SELECT Name FROM Contact WHERE Account.Name = null", ["Orphan Zed"]),
        ("SELECT Name FROM Contact WHERE Account.Industry = 'Banking' ORDER BY LastName", ["Jane Doe", "John Roe"]),
        ("SELECT Name FROM Contact WHERE Birthdate = 1990-05-01", ["Jane Doe"]),
        ("SELECT Name FROM Contact WHERE Birthdate < 2000-01-01 OR Email LIKE '%@ACME%'", ["Jane Doe"]),
        (
            "SELECT Name FROM Contact ORDER BY Account.Name DESC NULLS LAST, LastName",
            ["Ann Poe", "Jane Doe", "John Roe", "Orphan Zed"]
        ),
    ]

    @Test(arguments: accountCases)
    func evaluates(_ soql: String, expected: [String]) async throws {
        try await TemporaryDirectory.with { directory in
            let (org, _) = try OrgQueryFixture.make(in: directory)
            #expect(try OrgQueryFixture.column("Name", soql, org: org) == expected)
        }
    }

    @Test func relationshipFieldsAreNestedObjectsAndMissingParentsNull() async throws {
        try await TemporaryDirectory.with { directory in
            let (org, refs) = try OrgQueryFixture.make(in: directory)
            let page = try org.query(
                "SELECT LastName, Account.Name, Account.Owner.Name FROM Contact WHERE LastName IN ('Doe', 'Zed') ORDER BY LastName",
                apiVersion: "59.0"
            )
            let a1 = try #require(refs["A1"])
            let c1 = try #require(refs["C1"])
            let c4 = try #require(refs["C4"])
            let expected =
                #"[{"attributes":{"type":"Contact","url":"/services/data/v59.0/sobjects/Contact/\#(c1)"},"LastName":"Doe","Account":{"attributes":{"type":"Account","url":"/services/data/v59.0/sobjects/Account/\#(a1)"},"Name":"Acme","Owner":{"attributes":{"type":"User","url":"/services/data/v59.0/sobjects/User/\#(org.userID)"},"Name":"Local Admin"}}},"#
                + #"{"attributes":{"type":"Contact","url":"/services/data/v59.0/sobjects/Contact/\#(c4)"},"LastName":"Zed","Account":null}]"#
            #expect(String(decoding: page.recordsJSON, as: UTF8.self) == expected)
        }
    }

    @Test func childSubqueriesAreNestedResults() async throws {
        try await TemporaryDirectory.with { directory in
            let (org, _) = try OrgQueryFixture.make(in: directory)
            let page = try org.query(
                "SELECT Name, (SELECT LastName FROM Contacts WHERE LastName != 'Zed' ORDER BY LastName DESC) FROM Account ORDER BY Name",
                apiVersion: "59.0"
            )
            let records = try #require(try OrgFixtures.json(page.recordsJSON).arrayValue)
            let acme = try #require(records[0].objectValue?["Contacts"]?.objectValue)
            #expect(acme["totalSize"] == 2)
            #expect(acme["done"] == true)
            let names = acme["records"]?.arrayValue?.compactMap { $0.objectValue?["LastName"]?.stringValue }
            #expect(names == ["Roe", "Doe"])
            #expect(records[2].objectValue?["Contacts"] == .null)
        }
    }

    @Test func valuesUseTheWireFormats() async throws {
        try await TemporaryDirectory.with { directory in
            let (org, refs) = try OrgQueryFixture.make(in: directory)
            let page = try org.query(
                "SELECT Id, CreatedDate, IsDeleted, NumberOfEmployees, AnnualRevenue, Industry, Website FROM Account WHERE Name = 'Acme'",
                apiVersion: "60.0"
            )
            let a1 = try #require(refs["A1"])
            #expect(
                String(decoding: page.recordsJSON, as: UTF8.self)
                    == #"[{"attributes":{"type":"Account","url":"/services/data/v60.0/sobjects/Account/\#(a1)"},"Id":"\#(a1)","CreatedDate":"2024-03-05T10:00:00.000+0000","IsDeleted":false,"NumberOfEmployees":100,"AnnualRevenue":1000.5,"Industry":"Banking","Website":null}]"#
            )
        }
    }

    @Test func countReturnsOnlyTheTotal() async throws {
        try await TemporaryDirectory.with { directory in
            let (org, _) = try OrgQueryFixture.make(in: directory)
            let page = try org.query("SELECT COUNT() FROM Account WHERE Industry = 'Banking'", apiVersion: "59.0")
            #expect(page.totalSize == 2)
            #expect(page.done)
            #expect(page.recordsJSON == Data("[]".utf8))
        }
    }

    @Test func idsMatchIn15And18CharacterForms() async throws {
        try await TemporaryDirectory.with { directory in
            let (org, refs) = try OrgQueryFixture.make(in: directory)
            let a1 = try #require(refs["A1"])
            let short = String(a1.prefix(15))
            #expect(
                try OrgQueryFixture.column(
                    "Name",
                    "SELECT Name FROM Contact WHERE AccountId = '\(short)' ORDER BY LastName",
                    org: org
                ) == ["Jane Doe", "John Roe"]
            )
            #expect(
                try OrgQueryFixture.column("Name", "SELECT Name FROM Account WHERE Id = '\(a1.lowercased())'", org: org)
                    == ["Acme"]
            )
        }
    }

    @Test func organizationAnswersIsSandbox() async throws {
        try await TemporaryDirectory.with { directory in
            let org = try OrgFixtures.makeOrg(in: directory)
            let page = try org.query("SELECT IsSandbox FROM Organization LIMIT 1", apiVersion: "59.0")
            #expect(try OrgFixtures.values("IsSandbox", in: page.recordsJSON) == [false])
        }
    }

    @Test func queryAllIncludesDeletedRecords() async throws {
        try await TemporaryDirectory.with { directory in
            let (org, refs) = try OrgQueryFixture.make(in: directory)
            try org.write { try $0.delete("Account", id: try #require(refs["A4"])) }
            #expect(try org.query("SELECT Id FROM Account", apiVersion: "59.0").totalSize == 3)
            let all = try org.query(
                "SELECT Name, IsDeleted FROM Account WHERE IsDeleted = true",
                includeDeleted: true,
                apiVersion: "59.0"
            )
            #expect(try OrgFixtures.values("Name", in: all.recordsJSON) == ["Delta"])
        }
    }

    static let errorCases: [(String, Int, String, String?)] = [
        (
            "SELECT Foo FROM Account", 400, "INVALID_FIELD",
            "No such column 'Foo' on entity 'Account'. If you are attempting to use a custom field, be sure to append the '__c' after the custom field name. Please reference your WSDL or the describe call for the appropriate names."
        ),
        (
            "SELECT Id FROM Acount", 400, "INVALID_TYPE",
            "sObject type 'Acount' is not supported. If you are attempting to use a custom object, be sure to append the '__c' after the entity name. Please reference your WSDL or the describe call for the appropriate names."
        ),
        (
            "SELECT Id FROM Account OFFSET 2001", 400, "NUMBER_OUTSIDE_VALID_RANGE",
            "Maximum SOQL offset allowed is 2000 (OFFSET 2001)"
        ),
        (
            "SELECT Id FROM Account WHERE Name = 5", 400, "INVALID_QUERY_FILTER_OPERATOR",
            "value of filter criterion for field 'Name' must be of type string and should be enclosed in quotes"
        ),
        ("SELECT Id FROM Account WHERE Id = 'nope'", 400, "INVALID_QUERY_FILTER_OPERATOR", "invalid ID field: nope"),
        ("SELECT Id, (SELECT Id FROM Contactz) FROM Account", 400, "INVALID_TYPE", nil),
        ("SELECT Id FROM Account WHERE Owner.Foo = 'x'", 400, "INVALID_FIELD", nil),
        ("SELECT Id FRM Account", 400, "MALFORMED_QUERY", nil),
    ]

    @Test(arguments: errorCases)
    func rejects(_ soql: String, status: Int, code: String, message: String?) async throws {
        try await TemporaryDirectory.with { directory in
            let (org, _) = try OrgQueryFixture.make(in: directory)
            let error = try OrgFixtures.error { try org.query(soql, apiVersion: "59.0") }
            #expect(error.status == status)
            #expect(error.errorCode == code)
            if let message { #expect(error.message == message) }
        }
    }

    @Test func malformedQueriesCarryTheParserPosition() async throws {
        try await TemporaryDirectory.with { directory in
            let org = try OrgFixtures.makeOrg(in: directory)
            let error = try OrgFixtures.error { try org.query("SELECT Id FRM Account", apiVersion: "59.0") }
            #expect(error.message.contains("\nERROR at Row:1:Column:"))
            #expect(
                String(decoding: error.responseBody(apiVersion: "59.0"), as: UTF8.self).hasPrefix(#"[{"message":""#)
            )
        }
    }
}
