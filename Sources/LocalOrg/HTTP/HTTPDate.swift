import Foundation
import SOQL

/// RFC 1123 HTTP dates (`Tue, 05 Mar 2024 17:04:11 GMT`), for `Last-Modified` and the conditional
/// headers of §4.5, through the calendar (`SalesforceDateTime`).
enum HTTPDate {
    /// Formats `date` (whole seconds, GMT).
    static func format(_ date: Date) -> String {
        SalesforceDateTime.httpDate(milliseconds: OrgDateTime.milliseconds(date))
    }

    /// Parses an RFC 1123 date; also accepts a numeric zone (`+0000`), as Android's `z` may print.
    static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return SalesforceDateTime.milliseconds(httpDate: trimmed).map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }
}

/// Entity-tag lists of `If-Match` / `If-None-Match` (`"a", "b"`, `W/"c"` or `*`).
enum EntityTagList {
    /// The unquoted tags; `nil` when the header is malformed.
    static func parse(_ text: String) -> [String]? {
        var tags: [String] = []
        for item in text.split(separator: ",") {
            var tag = item.trimmingCharacters(in: .whitespaces)
            if tag == "*" {
                tags.append("*")
                continue
            }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            guard tag.count >= 2, tag.first == "\"", tag.last == "\"" else { return nil }
            tags.append(String(tag.dropFirst().dropLast()))
        }
        return tags.isEmpty ? nil : tags
    }
}
