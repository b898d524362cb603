/// A calendar date literal, `2024-01-31`, without a time zone.
public struct SOQLDate: Sendable, Hashable, Comparable {
    /// The year, 1 through 9999.
    public var year: Int
    /// The month, 1 through 12.
    public var month: Int
    /// The day of the month, 1 through 31 (valid for the month).
    public var day: Int

    /// Creates a date from its parts, or returns `nil` when they do not form a real date.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...CivilCalendar.daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Creates the date that starts `daysSinceEpoch` days after 1970-01-01.
    public init(daysSinceEpoch: Int64) {
        let civil = CivilCalendar.civil(fromDays: daysSinceEpoch)
        self.year = civil.year
        self.month = civil.month
        self.day = civil.day
    }

    /// Parses `yyyy-MM-dd`, or returns `nil` when the text is not exactly a valid date.
    public init?(text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = CivilCalendar.digits(bytes, 0, 4),
            let month = CivilCalendar.digits(bytes, 5, 2),
            let day = CivilCalendar.digits(bytes, 8, 2)
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// Days from 1970-01-01 to this date (negative before it).
    public var daysSinceEpoch: Int64 {
        CivilCalendar.days(fromYear: year, month: month, day: day)
    }

    /// Milliseconds since the epoch at midnight UTC starting this date.
    public var startMilliseconds: Int64 { daysSinceEpoch * CivilCalendar.millisecondsPerDay }

    /// The date as `yyyy-MM-dd`.
    public var text: String {
        CivilCalendar.pad(year, 4) + "-" + CivilCalendar.pad(month, 2) + "-" + CivilCalendar.pad(day, 2)
    }

    public static func < (lhs: SOQLDate, rhs: SOQLDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}

extension SOQLDate: CustomStringConvertible {
    /// The date as `yyyy-MM-dd`.
    public var description: String { text }
}
