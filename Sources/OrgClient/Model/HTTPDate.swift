import Foundation
import SOQL

/// An instant written as an RFC 1123 HTTP date in GMT (`Tue, 05 Mar 2024 17:04:11 GMT`), the form
/// `If-Unmodified-Since` takes. Sub-second parts are dropped, as the header cannot carry them.
public struct HTTPDate: Sendable, Hashable {
    /// The header text.
    public let text: String

    /// Formats `date`.
    public init(_ date: Date) {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = CivilCalendar.floorDivide(seconds, 86_400)
        let secondOfDay = seconds - days * 86_400
        let weekday = Int(CivilCalendar.floorModulo(days + 4, 7))  // 1970-01-01 was a Thursday.
        let (year, month, day) = CivilCalendar.civil(fromDays: days)

        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func pad<Number: BinaryInteger>(_ value: Number, _ width: Int = 2) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        text =
            "\(weekdays[weekday]), \(pad(day)) \(months[month - 1]) \(pad(year, 4)) "
            + "\(pad(secondOfDay / 3600)):\(pad(secondOfDay / 60 % 60)):\(pad(secondOfDay % 60)) GMT"
    }
}
