/// The other date-time forms the package writes or reads, kept with the calendar so that no
/// `DateFormatter` is needed anywhere: RFC 1123 HTTP dates (`Last-Modified`,
/// `If-Unmodified-Since`, `If-Modified-Since`) and ISO 8601 in whole seconds (JUnit reports).
///
/// ```swift
/// SalesforceDateTime.httpDate(milliseconds: 1_709_658_251_000)           // "Tue, 05 Mar 2024 17:04:11 GMT"
/// SalesforceDateTime.milliseconds(httpDate: "Tue, 05 Mar 2024 17:04:11 GMT")  // 1_709_658_251_000
/// SalesforceDateTime.iso8601Seconds(milliseconds: 1_709_658_251_000)     // "2024-03-05T17:04:11Z"
/// ```
extension SalesforceDateTime {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Formats an instant as an RFC 1123 HTTP date in GMT (RFC 9110 §5.6.7, `IMF-fixdate`):
    /// `Tue, 05 Mar 2024 17:04:11 GMT`. The sub-second part is dropped (rounded down), as the form
    /// cannot carry it.
    public static func httpDate(milliseconds: Int64) -> String {
        let seconds = CivilCalendar.floorDivide(milliseconds, 1000)
        let days = CivilCalendar.floorDivide(seconds, 86_400)
        let secondOfDay = Int(seconds - days * 86_400)
        let weekday = Int(CivilCalendar.floorModulo(days + 4, 7))  // 1970-01-01 was a Thursday.
        let date = CivilCalendar.civil(fromDays: days)
        let pad = CivilCalendar.pad
        return "\(weekdays[weekday]), \(pad(date.day, 2)) \(months[date.month - 1]) \(pad(date.year, 4)) "
            + "\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2)) GMT"
    }

    /// Parses an RFC 1123 HTTP date (`Tue, 05 Mar 2024 17:04:11 GMT`) to milliseconds since the
    /// epoch. The zone may be `GMT`, `UTC`, `Z` or a numeric `±hhmm` (as Android's formatter may
    /// write it); the weekday is not checked against the date, as RFC 9110 lets a recipient ignore
    /// it. Surrounding spaces are ignored.
    ///
    /// - Returns: the instant, or `nil` when the text is not such a date.
    public static func milliseconds(httpDate text: String) -> Int64? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","),
            weekdays.contains(String(parts[0].dropLast())),
            parts[1].count == 2, let day = CivilCalendar.digits(Array(parts[1].utf8), 0, 2),
            let monthIndex = months.firstIndex(of: String(parts[2])),
            parts[3].count == 4, let year = CivilCalendar.digits(Array(parts[3].utf8), 0, 4),
            let date = SOQLDate(year: year, month: monthIndex + 1, day: day)
        else { return nil }
        let clock = Array(parts[4].utf8)
        guard clock.count == 8, clock[2] == UInt8(ascii: ":"), clock[5] == UInt8(ascii: ":"),
            let hours = CivilCalendar.digits(clock, 0, 2), hours < 24,
            let minutes = CivilCalendar.digits(clock, 3, 2), minutes < 60,
            let seconds = CivilCalendar.digits(clock, 6, 2), seconds < 60
        else { return nil }
        let offsetMinutes: Int
        switch parts[5] {
        case "GMT", "UTC", "Z":
            offsetMinutes = 0
        default:
            let zone = Array(parts[5].utf8)
            guard zone.count == 5, zone[0] == UInt8(ascii: "+") || zone[0] == UInt8(ascii: "-"),
                let zoneHours = CivilCalendar.digits(zone, 1, 2), zoneHours <= 23,
                let zoneMinutes = CivilCalendar.digits(zone, 3, 2), zoneMinutes < 60
            else { return nil }
            let total = zoneHours * 60 + zoneMinutes
            offsetMinutes = zone[0] == UInt8(ascii: "-") ? -total : total
        }
        let local = date.startMilliseconds + Int64(((hours * 60 + minutes) * 60 + seconds) * 1000)
        return local - Int64(offsetMinutes) * 60_000
    }

    /// Formats an instant as ISO 8601 in UTC, in whole seconds (rounded down):
    /// `2024-03-05T17:04:11Z`, the form of a JUnit report's `timestamp`.
    public static func iso8601Seconds(milliseconds: Int64) -> String {
        let wire = wireText(milliseconds: CivilCalendar.floorDivide(milliseconds, 1000) * 1000)
        return String(wire.prefix(19)) + "Z"
    }
}
