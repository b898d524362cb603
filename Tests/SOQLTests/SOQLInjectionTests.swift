import SOQL
import Testing

/// The SOQL syncrun builds around values it did not choose — ids read from the store or the org,
/// resume ids, the literals of a config's filter — against quotes, backslashes, comments and
/// keywords (issue 20 item 5): each built query, parsed back by the SOQL parser, holds the same
/// values and nothing else.
struct SOQLInjectionTests {
    static let hostileValues = [
        "O'Brien", "x' OR Id != null OR Id = 'y", "back\\slash", "trailing\\", "\\'", "'", "''",
        "-- not a comment", "/* not a comment */", "SELECT Id FROM User", "') OR (Name != null",
        "line\nbreak\ttab\r", "%_", "üñí©ødé",
    ]

    /// Ghost id queries, refresh and MRU fetches: `SELECT … WHERE Id IN (ids)`.
    @Test func idListsParseBackToTheSameIDs() throws {
        let built = SOQLQuery.select(fields: ["Id", "Name"], from: "Account", where: .idIn(Self.hostileValues))
        let parsed = try SOQLQuery.parse(built.text)
        #expect(parsed == built)
        #expect(parsed.object == "Account")
        #expect(parsed.select.count == 2)
        #expect(parsed.condition == .in(SOQLFieldPath("Id"), Self.hostileValues.map(SOQLValue.string), negated: false))
    }

    /// The resync and resume filters added to a config's query keep the config's condition and the
    /// resume id as values.
    @Test func resumeFiltersParseBackWithTheSameLastID() throws {
        let config = try SOQLQuery.parse(
            #"SELECT Id, Name, LastModifiedDate FROM Account WHERE Name IN ('O\'Brien', 'a\\', '-- x') "#
        )
        for lastID in Self.hostileValues {
            let resumed = config.addingResumeFilter(
                field: "LastModifiedDate",
                after: 1_700_000_000_123,
                idField: "Id",
                lastID: lastID
            )
            let parsed = try SOQLQuery.parse(resumed.text)
            #expect(parsed == resumed, "lastID \(lastID)")
            guard case .and(let operands) = parsed.condition else {
                Issue.record(
                    "expected the config's filter AND the resume filter, got \(String(describing: parsed.condition))"
                )
                continue
            }
            #expect(operands.contains(try #require(config.condition)))
            #expect(Self.strings(in: parsed.condition) == Set(["O'Brien", "a\\", "-- x", lastID]))
        }
    }

    @Test func modifiedFiltersKeepTheConfigsLiterals() throws {
        for value in Self.hostileValues {
            let condition = SOQLCondition.comparison(SOQLFieldPath("Name"), .equal, .string(value))
            let config = SOQLQuery.select(fields: ["Id"], from: "Account", where: condition)
            let resync = try SOQLQuery.parse(config.text)
                .addingModifiedFilter(field: "LastModifiedDate", after: 1_700_000_000_000)
            let parsed = try SOQLQuery.parse(resync.text)
            #expect(parsed == resync)
            #expect(Self.strings(in: parsed.condition) == [value])
            let ids = try SOQLQuery.parse(parsed.idsOnly(idField: "Id").text)
            #expect(Self.strings(in: ids.condition) == [value])
        }
    }

    /// Every string value of `condition`.
    private static func strings(in condition: SOQLCondition?) -> Set<String> {
        switch condition {
        case .none: []
        case .and(let operands), .or(let operands): operands.reduce(into: []) { $0.formUnion(strings(in: $1)) }
        case .not(let operand): strings(in: operand)
        case .comparison(_, _, .string(let value)): [value]
        case .in(_, let values, _):
            Set(values.compactMap { if case .string(let text) = $0 { text } else { nil } })
        case .like(_, let pattern): [pattern]
        case .comparison, .inSubquery: []
        }
    }
}
