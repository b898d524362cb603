import Testing

@testable import SOQL

/// Deterministic pseudo-random syntax trees, to check that printing and parsing agree on
/// far more shapes than a hand-written table covers.
private struct TreeGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        self.state = seed
    }

    /// SplitMix64: small, fast and reproducible across platforms.
    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    private mutating func pick<T>(_ choices: [T]) -> T {
        choices[below(choices.count)]
    }

    private static let names = ["Id", "Name", "lastModifiedDate", "Owner", "Account", "ns__Field__c", "Order", "Count"]
    private static let stringPieces = ["a", "O'Brien", #"back\slash"#, "\n", "\t", "é日本", "%", "_", "\"", " ", ""]
    private static let patternPieces = ["a", "%", "_", #"\%"#, #"\_"#, #"\\"#, "'", "\r", "Zoë"]

    mutating func fieldPath() -> SOQLFieldPath {
        SOQLFieldPath(components: (0...below(3)).map { _ in pick(Self.names) })
    }

    mutating func value() -> SOQLValue {
        switch below(8) {
        case 0: return .string((0..<below(4)).map { _ in pick(Self.stringPieces) }.joined())
        case 1: return .integer(Int64(bitPattern: next()) >> below(64))
        case 2: return .decimal((below(2) == 0 ? "-" : "") + "\(below(1000)).\(below(100))")
        case 3: return .boolean(below(2) == 0)
        case 4: return .null
        case 5: return .date(SOQLDate(daysSinceEpoch: Int64(below(3_000_000)) - 700_000))
        case 6:
            // Seconds up to about the year 9800, the last years Salesforce can write.
            let seconds = Int64(below(250_000_000_000)) - 60_000_000_000
            return .dateTime(SOQLDateTime(millisecondsSinceEpoch: seconds * 1000 + Int64(below(1000))))
        default:
            let name = pick(Array(SOQLDateLiteral.definitions.keys).sorted())
            let takesN = SOQLDateLiteral.takesN(name) == true
            return .dateLiteral(SOQLDateLiteral(validatedName: name, n: takesN ? below(500) : nil))
        }
    }

    /// A condition; `allowsSubquery` is false under OR, where Salesforce rejects semi-joins.
    mutating func condition(depth: Int, allowsSubquery: Bool) -> SOQLCondition {
        let leafKinds = allowsSubquery ? 4 : 3
        let kind = depth > 0 ? below(leafKinds + 3) : below(leafKinds)
        switch kind {
        case 0:
            return .comparison(fieldPath(), pick(SOQLComparisonOperator.allCases), value())
        case 1:
            return .like(fieldPath(), pattern: (0..<below(4)).map { _ in pick(Self.patternPieces) }.joined())
        case 2:
            return .in(fieldPath(), (0...below(3)).map { _ in value() }, negated: below(2) == 0)
        case 3 where allowsSubquery:
            let inner = SOQLQuery(select: [.field(fieldPath())], object: "Contact", condition: leafCondition())
            return .inSubquery(fieldPath(), inner, negated: below(2) == 0)
        case leafKinds:
            return .not(condition(depth: depth - 1, allowsSubquery: allowsSubquery))
        case leafKinds + 1:
            return .and(
                (0...below(3)).map { _ in condition(depth: depth - 1, allowsSubquery: allowsSubquery) } + [
                    condition(depth: depth - 1, allowsSubquery: allowsSubquery)
                ]
            )
        default:
            return .or(
                (0...below(3)).map { _ in condition(depth: depth - 1, allowsSubquery: false) } + [
                    condition(depth: depth - 1, allowsSubquery: false)
                ]
            )
        }
    }

    private mutating func leafCondition() -> SOQLCondition {
        .comparison(fieldPath(), .notEqual, value())
    }

    mutating func query() -> SOQLQuery {
        var select: [SOQLSelectItem] = (0...below(4)).map { _ in .field(fieldPath()) }
        if below(3) == 0 {
            select.append(.subquery(SOQLQuery(select: [.field("Id")], object: "Contacts", condition: leafCondition())))
        }
        var query = SOQLQuery(select: below(10) == 0 ? [.count] : select, object: pick(["Account", "Order", "x__c"]))
        if below(4) == 0 { query.usingScope = "Mine" }
        if below(5) != 0 { query.condition = condition(depth: 3, allowsSubquery: true) }
        if below(4) == 0 {
            query.withClause = pick(["SECURITY_ENFORCED", "USER_MODE", "DATA CATEGORY Geo__c AT (a__c, b__c)"])
        }
        if below(3) == 0 {
            query.orderBy = (0...below(2)).map { _ in
                SOQLOrderItem(fieldPath(), isAscending: below(2) == 0, nulls: pick([.unspecified, .first, .last]))
            }
        }
        if below(3) == 0 { query.limit = below(50_000) }
        if below(4) == 0 { query.offset = below(2001) }
        if below(5) == 0 { query.forClause = pick(["VIEW", "REFERENCE", "UPDATE"]) }
        return query
    }
}

struct SOQLQueryRoundTripTests {
    @Test(arguments: 0..<8)
    func parsingThePrintedTextGivesBackTheTree(seed: Int) throws {
        var generator = TreeGenerator(seed: UInt64(seed))
        var seen: Set<String> = []
        for _ in 0..<250 {
            let query = generator.query()
            for marker in [" OR (", ") AND ", "NOT (", " LIKE ", "IN (SELECT", "(SELECT Id FROM Contacts", "\\'"]
            where query.text.contains(marker) {
                seen.insert(marker)
            }
            let reparsed = try SOQLQuery.parse(query.text)
            #expect(reparsed == query, "\(query.text)")
            let resync = query.addingModifiedFilter(field: "SystemModstamp", after: 1_700_000_000_123)
            #expect(try SOQLQuery.parse(resync.text) == resync, "\(resync.text)")
        }
        // The generator must reach the shapes that matter, or the test proves little.
        #expect(seen.count == 7, "only saw \(seen.sorted())")
    }
}
