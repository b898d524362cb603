import Testing

@testable import OrgClient

struct OrgValueTests {
    @Test func parsesEveryKind() throws {
        let value = try OrgValue(
            parsing:
                #" {"a": null, "b": true, "c": false, "d": -12, "e": 1.5e2, "f": "x\ny", "g": [1, [], {}], "h": {"i": "é"}} "#
        )
        #expect(
            value
                == [
                    "a": .null, "b": true, "c": false, "d": -12, "e": 150.0, "f": "x\ny", "g": [1, [], [:]],
                    "h": ["i": "é"],
                ]
        )
    }

    @Test(arguments: [
        (#""\u00e9\ud83d\ude00\/\\\"\t""#, "é😀/\\\"\t"),
        (#""plain""#, "plain"),
        (#""mixed é \n end""#, "mixed é \n end"),
        (#""""#, ""),
    ])
    func decodesStringEscapes(json: String, expected: String) throws {
        #expect(try OrgValue(parsing: json) == .string(expected))
    }

    @Test func keepsIntegersAndDoublesApart() throws {
        #expect(try OrgValue(parsing: "10") == .integer(10))
        #expect(try OrgValue(parsing: "10.0") == .number(10))
        #expect(try OrgValue(parsing: "9223372036854775808") == .number(9_223_372_036_854_775_808))
    }

    @Test(arguments: [
        ("{", "at byte 1: unexpected end of file; the object opened at line 1, column 1 is not closed"),
        ("[1,]", "at byte 3: trailing comma before ']'; remove the last ','"),
        ("{\"a\" 1}", "at byte 5: expected ':' after the key 'a', found '1'"),
        ("tru", "at byte 0: unexpected 'tru'; expected a value (strings need double quotes)"),
        ("1 2", "at byte 2: unexpected '2' after the end of the JSON document"),
        ("\"ab", "at byte 0: unterminated string; add the closing '\"'"),
        ("-", "at byte 1: expected a digit, found end of file"),
    ])
    func rejectsMalformedJSON(json: String, message: String) {
        let error = #expect(throws: OrgClientError.self) { try OrgValue(parsing: json) }
        #expect(error?.code == .invalidResponse)
        #expect(error?.message == "the org sent a JSON value that is not valid JSON " + message)
    }

    @Test func serialisesCompactlyWithSortedKeys() {
        let value: OrgValue = ["b": [1, 2.5, .null], "a": "q\"\\\n\u{01}", "c": ["z": true]]
        #expect(value.jsonText == #"{"a":"q\"\\\n\u0001","b":[1,2.5,null],"c":{"z":true}}"#)
        #expect(OrgValue.number(.infinity).jsonText == "null")
    }

    @Test func roundTrips() throws {
        let value: OrgValue = ["Name": "Ünïcødé 😀", "Amount": 12.75, "Count": 3, "Tags": ["a", .null, false]]
        #expect(try OrgValue(parsing: value.jsonText) == value)
    }

    @Test func rejectsDeepNesting() {
        let json = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(throws: OrgClientError.self) { try OrgValue(parsing: json) }
    }

    @Test func dottedPathsWalkNestedObjectsExactlyOrIgnoringCase() {
        let record: [String: OrgValue] = [
            "Name": "Acme", "Account": ["Name": "Parent", "Owner": ["Email": "o@acme.com"]], "Rating": .null,
        ]
        #expect(OrgValue.value(atPath: "Name", in: record) == "Acme")
        #expect(OrgValue.value(atPath: "Account.Owner.Email", in: record) == "o@acme.com")
        #expect(OrgValue.value(atPath: "Rating", in: record) == .null)
        // A member that is not an object, a missing member, an empty path: no value.
        #expect(OrgValue.value(atPath: "Name.First", in: record) == nil)
        #expect(OrgValue.value(atPath: "Account.Industry", in: record) == nil)
        #expect(OrgValue.value(atPath: "", in: record) == nil)
        // Names are exact unless case is ignored.
        #expect(OrgValue.value(atPath: "account.owner.email", in: record) == nil)
        #expect(OrgValue.value(atPath: "account.owner.email", in: record, ignoringCase: true) == "o@acme.com")
        #expect(OrgValue.value(atPath: "NAME", in: record, ignoringCase: true) == "Acme")
    }
}
