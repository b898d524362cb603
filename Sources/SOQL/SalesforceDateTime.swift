/// Salesforce date-time text: parsing the wire and SOQL forms, formatting instants.
///
/// Records carry `2024-03-05T17:04:11.000+0000`; SOQL literals accept fractional seconds
/// and `Z`, `±hh:mm` or `±hhmm`. Everything here is computed by hand in UTC (no
/// `DateFormatter`, no locale), so it is fast and deterministic.
///
/// ```swift
/// let ms = SalesforceDateTime.milliseconds(from: "2024-03-05T17:04:11.000+0000")
/// SalesforceDateTime.wireText(milliseconds: ms!)     // "2024-03-05T17:04:11.000+0000"
/// SalesforceDateTime.soqlLiteral(milliseconds: ms!)  // "2024-03-05T17:04:11.000Z"
/// ```
public enum SalesforceDateTime {
    /// Parses a date-time to milliseconds since the epoch.
    ///
    /// Accepts `yyyy-MM-ddTHH:mm:ss`, optional fractional seconds (any number of digits,
    /// truncated to milliseconds), then `Z`, `±hh:mm`, `±hhmm` or `±hh`; text without a time
    /// zone is read as UTC. A lower-case `t` or `z` is accepted too.
    ///
    /// - Parameter text: the date-time text.
    /// - Returns: the instant, or `nil` when the text is not a valid date-time.
    public static func milliseconds(from text: String) -> Int64? {
        parse(text)?.milliseconds
    }

    /// Parses a date-time given as UTF-8 bytes, such as a slice of a JSON page, without
    /// making a `String`; the forms are those of ``milliseconds(from:)``.
    public static func milliseconds<Bytes: RandomAccessCollection>(fromUTF8 bytes: Bytes) -> Int64?
    where Bytes.Element == UInt8, Bytes.Index == Int {
        parse(bytes: bytes)?.milliseconds
    }

    /// Parses the looser forms the local org accepts in record values and query parameters:
    /// those of ``milliseconds(from:)``, and also a bare `yyyy-MM-dd` (midnight UTC), a space
    /// instead of the `T`, and a time without seconds (`yyyy-MM-ddTHH:mm`).
    package static func milliseconds(lenient text: String) -> Int64? {
        var bytes = Array(text.utf8)
        if bytes.count == 10 { return SOQLDate(text: text)?.startMilliseconds }
        guard bytes.count >= 16 else { return nil }
        if bytes[10] == UInt8(ascii: " ") { bytes[10] = UInt8(ascii: "T") }
        if bytes.count == 16 || bytes[16] != UInt8(ascii: ":") {
            bytes.insert(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: "0"), UInt8(ascii: "0")], at: 16)
        }
        return parse(bytes: bytes)?.milliseconds
    }

    /// Formats an instant as Salesforce writes it in records: `2024-03-05T17:04:11.000+0000`.
    ///
    /// Instants outside the years 0001–9999 do not have a Salesforce form; their year is
    /// written with its last four digits.
    public static func wireText(milliseconds: Int64) -> String {
        format(milliseconds, zone: "+0000")
    }

    /// Formats an instant as a SOQL literal in UTC: `2024-03-05T17:04:11.000Z`.
    public static func soqlLiteral(milliseconds: Int64) -> String {
        format(milliseconds, zone: "Z")
    }

    /// `yyyy-MM-ddTHH:mm:ss.SSS` in UTC followed by `zone`, written straight into the
    /// string's storage.
    private static func format(_ milliseconds: Int64, zone: StaticString) -> String {
        let days = CivilCalendar.floorDivide(milliseconds, CivilCalendar.millisecondsPerDay)
        let inDay = Int(milliseconds - days * CivilCalendar.millisecondsPerDay)
        let date = CivilCalendar.civil(fromDays: days)
        let zoneBytes = UnsafeBufferPointer(start: zone.utf8Start, count: zone.utf8CodeUnitCount)
        return String(unsafeUninitializedCapacity: 23 + zoneBytes.count) { buffer in
            var index = CivilCalendar.write(date.year, width: 4, into: buffer, at: 0)
            buffer[index] = UInt8(ascii: "-")
            index = CivilCalendar.write(date.month, width: 2, into: buffer, at: index + 1)
            buffer[index] = UInt8(ascii: "-")
            index = CivilCalendar.write(date.day, width: 2, into: buffer, at: index + 1)
            buffer[index] = UInt8(ascii: "T")
            index = CivilCalendar.write(inDay / 3_600_000, width: 2, into: buffer, at: index + 1)
            buffer[index] = UInt8(ascii: ":")
            index = CivilCalendar.write(inDay / 60_000 % 60, width: 2, into: buffer, at: index + 1)
            buffer[index] = UInt8(ascii: ":")
            index = CivilCalendar.write(inDay / 1000 % 60, width: 2, into: buffer, at: index + 1)
            buffer[index] = UInt8(ascii: ".")
            index = CivilCalendar.write(inDay % 1000, width: 3, into: buffer, at: index + 1)
            for byte in zoneBytes {
                buffer[index] = byte
                index += 1
            }
            return index
        }
    }

    /// A parsed date-time: the instant and whether the text named a time zone.
    struct Parsed {
        var milliseconds: Int64
        var hasTimeZone: Bool
    }

    static func parse(_ text: String) -> Parsed? {
        var text = text
        // Native strings are contiguous, so this does not copy.
        return text.withUTF8 { parse(bytes: $0) }
    }

    static func parse<Bytes: RandomAccessCollection>(bytes: Bytes) -> Parsed?
    where Bytes.Element == UInt8, Bytes.Index == Int {
        func byte(_ offset: Int) -> UInt8 { bytes[bytes.startIndex + offset] }
        guard bytes.count >= 19, byte(4) == UInt8(ascii: "-"), byte(7) == UInt8(ascii: "-"),
            byte(10) == UInt8(ascii: "T") || byte(10) == UInt8(ascii: "t"),
            byte(13) == UInt8(ascii: ":"), byte(16) == UInt8(ascii: ":"),
            let year = CivilCalendar.digits(bytes, 0, 4), let month = CivilCalendar.digits(bytes, 5, 2),
            let day = CivilCalendar.digits(bytes, 8, 2), let date = SOQLDate(year: year, month: month, day: day),
            let hours = CivilCalendar.digits(bytes, 11, 2), hours < 24,
            let minutes = CivilCalendar.digits(bytes, 14, 2), minutes < 60,
            let seconds = CivilCalendar.digits(bytes, 17, 2), seconds < 60
        else { return nil }
        var index = 19
        var millis = 0
        if index < bytes.count, byte(index) == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < bytes.count, let digit = CivilCalendar.digits(bytes, index, 1) {
                if index - start < 3 { millis = millis * 10 + digit }
                index += 1
            }
            guard index > start else { return nil }
            for _ in 0..<max(0, 3 - (index - start)) { millis *= 10 }
        }
        guard let offsetMinutes = zoneOffset(bytes, from: index) else { return nil }
        let local = date.startMilliseconds + Int64(((hours * 60 + minutes) * 60 + seconds) * 1000 + millis)
        return Parsed(
            milliseconds: local - Int64(offsetMinutes ?? 0) * 60_000,
            hasTimeZone: offsetMinutes != nil
        )
    }

    /// The zone suffix at `start` in minutes east of UTC: `.some(nil)` when there is none,
    /// `nil` when it is malformed.
    private static func zoneOffset<Bytes: RandomAccessCollection>(_ bytes: Bytes, from start: Int) -> Int??
    where Bytes.Element == UInt8, Bytes.Index == Int {
        let rest = bytes.count - start
        if rest == 0 { return .some(nil) }
        let sign = bytes[bytes.startIndex + start]
        if rest == 1, sign == UInt8(ascii: "Z") || sign == UInt8(ascii: "z") { return .some(0) }
        guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"),
            let hours = CivilCalendar.digits(bytes, start + 1, 2), hours <= 23
        else { return nil }
        let minutes: Int
        switch rest {
        case 3:
            minutes = 0
        case 5:
            guard let value = CivilCalendar.digits(bytes, start + 3, 2) else { return nil }
            minutes = value
        case 6:
            guard bytes[bytes.startIndex + start + 3] == UInt8(ascii: ":"),
                let value = CivilCalendar.digits(bytes, start + 4, 2)
            else { return nil }
            minutes = value
        default:
            return nil
        }
        guard minutes < 60 else { return nil }
        let total = hours * 60 + minutes
        return .some(sign == UInt8(ascii: "-") ? -total : total)
    }
}
