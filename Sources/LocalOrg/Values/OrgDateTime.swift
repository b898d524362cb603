import Foundation

/// Parsing and formatting of Salesforce date and date-time values as milliseconds since 1970 (UTC),
/// with proleptic Gregorian arithmetic (no `Calendar`, so it is fast and time-zone independent).
enum OrgDateTime {
    /// Parses `YYYY-MM-DD` into days since 1970-01-01, or `nil`.
    static func parseDate(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = number(bytes, 0, 4), let month = number(bytes, 5, 2), let day = number(bytes, 8, 2),
            (1...12).contains(month), (1...daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        return daysFromCivil(year: year, month: month, day: day)
    }

    /// Parses a date-time: `YYYY-MM-DDThh:mm[:ss[.fff…]]` followed by `Z`, `±hh:mm`, `±hhmm` or nothing
    /// (UTC); a bare `YYYY-MM-DD` means midnight UTC. Returns milliseconds since 1970, or `nil`.
    static func parseDateTime(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        if bytes.count == 10 { return parseDate(text).map { $0 * 86_400_000 } }
        guard bytes.count >= 16, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "),
            let days = parseDate(String(decoding: bytes[0..<10], as: UTF8.self)),
            let hour = number(bytes, 11, 2), bytes[13] == UInt8(ascii: ":"), let minute = number(bytes, 14, 2),
            hour < 24, minute < 60
        else { return nil }
        var index = 16
        var second = 0
        var millisecond = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
            guard let value = number(bytes, index + 1, 2), value < 60 else { return nil }
            second = value
            index += 3
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                var digits = 0
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                    if digits < 3 { millisecond = millisecond * 10 + Int(bytes[index] - UInt8(ascii: "0")) }
                    digits += 1
                    index += 1
                }
                guard digits > 0 else { return nil }
                for _ in digits..<max(digits, 3) { millisecond *= 10 }
            }
        }
        var offsetMinutes = 0
        if index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "Z"), UInt8(ascii: "z"):
                index += 1
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
                guard let hours = number(bytes, index + 1, 2) else { return nil }
                index += 3
                var minutes = 0
                if index < bytes.count, bytes[index] == UInt8(ascii: ":") { index += 1 }
                if index < bytes.count {
                    guard let value = number(bytes, index, 2) else { return nil }
                    minutes = value
                    index += 2
                }
                offsetMinutes = sign * (hours * 60 + minutes)
            default:
                return nil
            }
        }
        guard index == bytes.count else { return nil }
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offsetMinutes * 60)
        return seconds * 1000 + Int64(millisecond)
    }

    /// Formats milliseconds since 1970 as `2024-03-05T17:04:11.000+0000`.
    static func format(milliseconds: Int64) -> String {
        let days = floorDivide(milliseconds, 86_400_000)
        let remainder = milliseconds - days * 86_400_000
        let (year, month, day) = civil(fromDays: days)
        let hour = remainder / 3_600_000
        let minute = remainder / 60_000 % 60
        let second = remainder / 1000 % 60
        let millisecond = remainder % 1000
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03d+0000", year, month, day, Int(hour), Int(minute), Int(second),
            Int(millisecond)
        )
    }

    /// Formats days since 1970 as `YYYY-MM-DD`.
    static func formatDate(days: Int64) -> String {
        let (year, month, day) = civil(fromDays: days)
        return String(format: "%04d-%02d-%02d", year, month, day)
    }

    /// Milliseconds since 1970 for a `Date`.
    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }

    static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }

    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(fromDays days: Int64) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }

    private static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func number(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int? {
        guard start + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[start..<start + count] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
