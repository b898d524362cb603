/// Proleptic Gregorian calendar arithmetic in UTC, by hand: fast, and free of locale and
/// time-zone settings. The one calendar of the package: the local org and the org client use it
/// too (package visibility).
package enum CivilCalendar {
    package static let millisecondsPerDay: Int64 = 86_400_000

    static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to the given date (Howard Hinnant's `days_from_civil`).
    package static func days(fromYear year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shiftedMonth = Int64(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
    package static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }

    /// Floor division, so instants before 1970 fall in the right day.
    package static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    /// The non-negative remainder of floor division.
    package static func floorModulo(_ value: Int64, _ divisor: Int64) -> Int64 {
        value - floorDivide(value, divisor) * divisor
    }

    /// The number written by `count` ASCII digits at offset `start` from the start of
    /// `bytes`, or `nil` when any of them is not a digit or out of bounds.
    static func digits<Bytes: RandomAccessCollection>(_ bytes: Bytes, _ start: Int, _ count: Int) -> Int?
    where Bytes.Element == UInt8, Bytes.Index == Int {
        guard start >= 0, start + count <= bytes.count else { return nil }
        var value = 0
        var index = bytes.startIndex + start
        let end = index + count
        while index < end {
            let byte = bytes[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            index += 1
        }
        return value
    }

    /// Writes `value` as `width` ASCII digits (zero-padded, truncated on the left) at
    /// `start`, returning the position after them.
    static func write(_ value: Int, width: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        var remaining = value
        var index = start + width - 1
        while index >= start {
            // `magnitude` keeps a negative year (never a Salesforce value) from trapping.
            buffer[index] = UInt8(ascii: "0") + UInt8((remaining % 10).magnitude)
            remaining /= 10
            index -= 1
        }
        return start + width
    }

    /// `value` in decimal, left-padded with zeros to `width` digits.
    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
