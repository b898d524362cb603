import Testing

@testable import SOQL

struct SOQLDateLiteralTests {
    /// Wednesday 2024-03-06T15:30:00Z.
    static let now: Int64 = 1_709_739_000_000

    private func start(_ date: String) throws -> Int64 {
        try #require(SOQLDate(text: date)).startMilliseconds
    }

    @Test(
        arguments: [
            ("TODAY", nil, "2024-03-06", "2024-03-07"),
            ("YESTERDAY", nil, "2024-03-05", "2024-03-06"),
            ("TOMORROW", nil, "2024-03-07", "2024-03-08"),
            ("THIS_WEEK", nil, "2024-03-03", "2024-03-10"),
            ("LAST_WEEK", nil, "2024-02-25", "2024-03-03"),
            ("NEXT_WEEK", nil, "2024-03-10", "2024-03-17"),
            ("THIS_MONTH", nil, "2024-03-01", "2024-04-01"),
            ("LAST_MONTH", nil, "2024-02-01", "2024-03-01"),
            ("NEXT_MONTH", nil, "2024-04-01", "2024-05-01"),
            ("THIS_QUARTER", nil, "2024-01-01", "2024-04-01"),
            ("LAST_QUARTER", nil, "2023-10-01", "2024-01-01"),
            ("NEXT_QUARTER", nil, "2024-04-01", "2024-07-01"),
            ("THIS_YEAR", nil, "2024-01-01", "2025-01-01"),
            ("LAST_YEAR", nil, "2023-01-01", "2024-01-01"),
            ("NEXT_YEAR", nil, "2025-01-01", "2026-01-01"),
            ("LAST_90_DAYS", nil, "2023-12-07", "2024-03-07"),
            ("NEXT_90_DAYS", nil, "2024-03-07", "2024-06-05"),
            ("LAST_N_DAYS", 7, "2024-02-28", "2024-03-07"),
            ("LAST_N_DAYS", 0, "2024-03-06", "2024-03-07"),
            ("NEXT_N_DAYS", 7, "2024-03-07", "2024-03-14"),
            ("N_DAYS_AGO", 2, "2024-03-04", "2024-03-05"),
            ("LAST_N_WEEKS", 2, "2024-02-18", "2024-03-03"),
            ("NEXT_N_WEEKS", 2, "2024-03-10", "2024-03-24"),
            ("N_WEEKS_AGO", 1, "2024-02-25", "2024-03-03"),
            ("LAST_N_MONTHS", 3, "2023-12-01", "2024-03-01"),
            ("NEXT_N_MONTHS", 2, "2024-04-01", "2024-06-01"),
            ("N_MONTHS_AGO", 14, "2023-01-01", "2023-02-01"),
            ("LAST_N_QUARTERS", 2, "2023-07-01", "2024-01-01"),
            ("NEXT_N_QUARTERS", 1, "2024-04-01", "2024-07-01"),
            ("N_QUARTERS_AGO", 4, "2023-01-01", "2023-04-01"),
            ("LAST_N_YEARS", 2, "2022-01-01", "2024-01-01"),
            ("NEXT_N_YEARS", 1, "2025-01-01", "2026-01-01"),
            ("N_YEARS_AGO", 30, "1994-01-01", "1995-01-01"),
        ] as [(String, Int?, String, String)]
    )
    func computesRangesInUTC(name: String, n: Int?, from: String, to: String) throws {
        let literal = try #require(SOQLDateLiteral(name: name, n: n))
        #expect(literal.range(at: Self.now) == (try start(from))..<(try start(to)))
    }

    @Test(arguments: [
        ("TODAY", "1969-12-31", "1970-01-01"),
        ("THIS_WEEK", "1969-12-28", "1970-01-04"),
        ("THIS_MONTH", "1969-12-01", "1970-01-01"),
        ("NEXT_QUARTER", "1970-01-01", "1970-04-01"),
    ])
    func computesRangesBeforeTheEpoch(name: String, from: String, to: String) throws {
        let literal = try #require(SOQLDateLiteral(name: name))
        #expect(literal.range(at: -1) == (try start(from))..<(try start(to)))
    }

    @Test func coversTheWholeCurrentDay() throws {
        let today = try #require(SOQLDateLiteral(name: "today"))
        let midnight = try start("2024-03-06")
        #expect(today.range(at: midnight) == today.range(at: midnight + 86_399_999))
        #expect(today.range(at: midnight).contains(midnight + 86_399_999))
    }

    @Test(
        arguments: [
            ("today", nil, "TODAY"),
            ("Last_N_Days", 30, "LAST_N_DAYS:30"),
            ("N_YEARS_AGO", 100_000, "N_YEARS_AGO:100000"),
        ] as [(String, Int?, String)]
    )
    func normalisesTheName(name: String, n: Int?, text: String) throws {
        let literal = try #require(SOQLDateLiteral(name: name, n: n))
        #expect(literal.text == text)
        #expect(literal.description == text)
    }

    @Test(
        arguments: [
            ("TODAY", 1), ("LAST_N_DAYS", nil), ("LAST_N_DAYS", -1), ("LAST_N_DAYS", 100_001), ("SOMEDAY", nil),
            ("THIS_FISCAL_YEAR", nil), ("LAST_90_DAYS", 90),
        ] as [(String, Int?)]
    )
    func rejectsInvalidLiterals(name: String, n: Int?) {
        #expect(SOQLDateLiteral(name: name, n: n) == nil)
    }

    @Test func listsEverySupportedName() {
        #expect(SOQLDateLiteral.supportedNames.count == 32)
        #expect(SOQLDateLiteral.takesN("next_n_days") == true)
        #expect(SOQLDateLiteral.takesN("TODAY") == false)
        #expect(SOQLDateLiteral.takesN("nope") == nil)
    }
}
