import Foundation
import SOQL

/// An instant written as an RFC 1123 HTTP date in GMT (`Tue, 05 Mar 2024 17:04:11 GMT`), the form
/// `If-Unmodified-Since` takes. Sub-second parts are dropped, as the header cannot carry them.
public struct HTTPDate: Sendable, Hashable {
    /// The header text.
    public let text: String

    /// Formats `date` through the calendar (`SalesforceDateTime.httpDate(milliseconds:)`).
    public init(_ date: Date) {
        text = SalesforceDateTime.httpDate(milliseconds: Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
    }
}
