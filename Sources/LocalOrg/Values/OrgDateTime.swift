import Foundation
import SOQL

/// The local org's date and date-time conversions as milliseconds (or days) since 1970 in UTC,
/// over SOQL's calendar (``SOQL/SalesforceDateTime``, ``SOQL/SOQLDate``, `CivilCalendar`): the
/// one calendar implementation of the package.
enum OrgDateTime {
    /// Parses `YYYY-MM-DD` into days since 1970-01-01, or `nil`.
    static func parseDate(_ text: String) -> Int64? {
        SOQLDate(text: text)?.daysSinceEpoch
    }

    /// Parses a date-time: `YYYY-MM-DDThh:mm[:ss[.fff…]]` followed by `Z`, `±hh:mm`, `±hhmm`, `±hh`
    /// or nothing (UTC); a bare `YYYY-MM-DD` means midnight UTC. Returns milliseconds since 1970, or `nil`.
    static func parseDateTime(_ text: String) -> Int64? {
        SalesforceDateTime.milliseconds(lenient: text)
    }

    /// Formats milliseconds since 1970 as `2024-03-05T17:04:11.000+0000`.
    static func format(milliseconds: Int64) -> String {
        SalesforceDateTime.wireText(milliseconds: milliseconds)
    }

    /// Formats days since 1970 as `YYYY-MM-DD`.
    static func formatDate(days: Int64) -> String {
        SOQLDate(daysSinceEpoch: days).text
    }

    /// Milliseconds since 1970 for a `Date`.
    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }

    /// Floor division, so instants before 1970 fall in the right day.
    static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        CivilCalendar.floorDivide(value, divisor)
    }
}
