import Testing

@testable import SOQL

/// The calendar's HTTP-date and whole-second ISO 8601 forms (the ones `DateFormatter` used to
/// write in the local org, the org client and the JUnit report).
struct CalendarFormsTests {
    @Test(arguments: [
        (Int64(1_709_658_251_000), "Tue, 05 Mar 2024 17:04:11 GMT"),
        (0, "Thu, 01 Jan 1970 00:00:00 GMT"),
        (951_782_400_999, "Tue, 29 Feb 2000 00:00:00 GMT"),
        (-1, "Wed, 31 Dec 1969 23:59:59 GMT"),
        (4_102_444_800_000, "Fri, 01 Jan 2100 00:00:00 GMT"),
    ])
    func formatsHTTPDates(milliseconds: Int64, expected: String) {
        #expect(SalesforceDateTime.httpDate(milliseconds: milliseconds) == expected)
    }

    @Test func httpDatesRoundTripInWholeSeconds() {
        // Every day of four years around a leap year and a century, at a time with every field.
        let start: Int64 = 946_684_800_000 - 400 * 86_400_000
        for day in stride(from: Int64(0), to: 1_500, by: 1) {
            let instant = start + day * 86_400_000 + 49_851_789
            let text = SalesforceDateTime.httpDate(milliseconds: instant)
            #expect(SalesforceDateTime.milliseconds(httpDate: text) == instant / 1000 * 1000, "\(text)")
        }
    }

    @Test func readsTheZonesAnHTTPDateMayCarry() {
        let gmt: Int64 = 1_709_658_251_000
        #expect(SalesforceDateTime.milliseconds(httpDate: "Tue, 05 Mar 2024 17:04:11 GMT") == gmt)
        #expect(SalesforceDateTime.milliseconds(httpDate: "  Tue, 05 Mar 2024 17:04:11 UTC ") == gmt)
        #expect(SalesforceDateTime.milliseconds(httpDate: "Tue, 05 Mar 2024 17:04:11 +0000") == gmt)
        #expect(SalesforceDateTime.milliseconds(httpDate: "Tue, 05 Mar 2024 18:04:11 +0100") == gmt)
        #expect(SalesforceDateTime.milliseconds(httpDate: "Tue, 05 Mar 2024 12:34:11 -0430") == gmt)
    }

    @Test(arguments: [
        "yesterday", "", "Tue, 05 Mar 2024 17:04:11", "Tue 05 Mar 2024 17:04:11 GMT",
        "Tue, 5 Mar 2024 17:04:11 GMT", "Tue, 05 March 2024 17:04:11 GMT", "Tue, 30 Feb 2024 17:04:11 GMT",
        "Tue, 05 Mar 2024 24:00:00 GMT", "Tue, 05 Mar 2024 17:04 GMT", "Tue, 05 Mar 2024 17:04:11 PST",
        "Tue, +5 Mar 2024 17:04:11 GMT", "Tue, 05 Mar 2024 17:04:11 +01:00", "Tue, 05 Mar 24 17:04:11 GMT",
        "Xyz, 05 Mar 2024 17:04:11 GMT",
    ])
    func refusesWhatIsNotAnHTTPDate(_ text: String) {
        #expect(SalesforceDateTime.milliseconds(httpDate: text) == nil)
    }

    @Test(arguments: [
        (Int64(1_709_658_251_999), "2024-03-05T17:04:11Z"),
        (0, "1970-01-01T00:00:00Z"),
        (-1, "1969-12-31T23:59:59Z"),
        (951_782_400_000, "2000-02-29T00:00:00Z"),
    ])
    func formatsISO8601InWholeSeconds(milliseconds: Int64, expected: String) {
        #expect(SalesforceDateTime.iso8601Seconds(milliseconds: milliseconds) == expected)
    }
}
