import Testing

@testable import SOQL

struct SalesforceDateTimeTests {
    @Test(arguments: [
        ("2024-03-05T17:04:11.000+0000", Int64(1_709_658_251_000)),
        ("2024-03-05T17:04:11.000Z", 1_709_658_251_000),
        ("2024-03-05T17:04:11Z", 1_709_658_251_000),
        ("2024-03-05T17:04:11", 1_709_658_251_000),
        ("2024-03-05t17:04:11z", 1_709_658_251_000),
        ("2024-03-05T18:04:11+01:00", 1_709_658_251_000),
        ("2024-03-05T18:34:11+0130", 1_709_658_251_000),
        ("2024-03-05T09:04:11.000-0800", 1_709_658_251_000),
        ("2024-03-05T09:04:11-08", 1_709_658_251_000),
        ("2024-03-05T17:04:11.5Z", 1_709_658_251_500),
        ("2024-03-05T17:04:11.12Z", 1_709_658_251_120),
        ("2024-03-05T17:04:11.1239999Z", 1_709_658_251_123),
        ("1970-01-01T00:00:00.000+0000", 0),
        ("1969-12-31T23:59:59.999Z", -1),
        ("2000-02-29T12:00:00.000+0000", 951_825_600_000),
        ("1600-03-01T00:00:00Z", -11_670_912_000_000),
    ])
    func parsesWireAndLiteralForms(text: String, milliseconds: Int64) {
        #expect(SalesforceDateTime.milliseconds(from: text) == milliseconds)
    }

    @Test(arguments: [
        "", "2024-03-05", "2024-03-05T17:04", "2024-03-05 17:04:11Z", "2024-02-30T00:00:00Z",
        "2024-03-05T24:00:00Z", "2024-03-05T17:60:00Z", "2024-03-05T17:04:60Z", "2024-03-05T17:04:11.Z",
        "2024-03-05T17:04:11+2400", "2024-03-05T17:04:11+01:60", "2024-03-05T17:04:11 +0000",
        "2024-03-05T17:04:11.000+00:0", "2024-03-05T17:04:11.000+000", "2024-03-05T17:04:11ZZ",
        "24-03-05T17:04:11Z", "2024-3-05T17:04:11Z", "２０２４-03-05T17:04:11Z",
    ])
    func rejectsMalformedText(text: String) {
        #expect(SalesforceDateTime.milliseconds(from: text) == nil)
    }

    @Test func formatsWireTextAndSOQLLiterals() {
        #expect(SalesforceDateTime.wireText(milliseconds: 1_709_658_251_000) == "2024-03-05T17:04:11.000+0000")
        #expect(SalesforceDateTime.soqlLiteral(milliseconds: 1_709_658_251_042) == "2024-03-05T17:04:11.042Z")
        #expect(SalesforceDateTime.wireText(milliseconds: 0) == "1970-01-01T00:00:00.000+0000")
        #expect(SalesforceDateTime.wireText(milliseconds: -1) == "1969-12-31T23:59:59.999+0000")
        #expect(SalesforceDateTime.soqlLiteral(milliseconds: 951_825_600_000) == "2000-02-29T12:00:00.000Z")
    }

    @Test func roundTripsEveryFormattedInstant() {
        // A spread of instants over four centuries, including negative ones, leap days
        // and millisecond fractions.
        var milliseconds: Int64 = -11_670_912_000_000
        while milliseconds < 4_102_444_800_000 {
            #expect(
                SalesforceDateTime.milliseconds(from: SalesforceDateTime.wireText(milliseconds: milliseconds))
                    == milliseconds
            )
            #expect(
                SalesforceDateTime.milliseconds(from: SalesforceDateTime.soqlLiteral(milliseconds: milliseconds))
                    == milliseconds
            )
            milliseconds += 7_777_777_777
        }
    }

    @Test func buildsDateTimeLiteralsInUTC() throws {
        let literal = SOQLDateTime(millisecondsSinceEpoch: 1_709_658_251_000)
        #expect(literal.text == "2024-03-05T17:04:11.000Z")
        let offset = try #require(SOQLDateTime(text: "2024-03-05T18:04:11+01:00"))
        #expect(offset.millisecondsSinceEpoch == literal.millisecondsSinceEpoch)
        #expect(offset.text == "2024-03-05T18:04:11+01:00")
        #expect(SOQLDateTime(text: "2024-03-05T18:04:11") == nil)
    }

    @Test(arguments: [
        ("1970-01-01", Int64(0)), ("2024-02-29", 19_782), ("1969-12-31", -1), ("2000-03-01", 11_017),
    ])
    func convertsDatesToDays(text: String, days: Int64) throws {
        let date = try #require(SOQLDate(text: text))
        #expect(date.daysSinceEpoch == days)
        #expect(SOQLDate(daysSinceEpoch: days) == date)
        #expect(date.text == text)
        #expect(date.startMilliseconds == days * 86_400_000)
    }

    @Test(arguments: ["2023-02-29", "2024-04-31", "2024-00-10", "2024-13-01", "2024-1-01", "0000-01-01", "2024-01-01Z"])
    func rejectsInvalidDates(text: String) {
        #expect(SOQLDate(text: text) == nil)
    }

    @Test func ordersDates() throws {
        let earlier = try #require(SOQLDate(year: 2023, month: 12, day: 31))
        let later = try #require(SOQLDate(year: 2024, month: 1, day: 1))
        #expect(earlier < later)
        #expect(later.daysSinceEpoch - earlier.daysSinceEpoch == 1)
    }
}
