import Foundation

/// RFC 1123 HTTP dates (`Tue, 05 Mar 2024 17:04:11 GMT`), for `Last-Modified` and the conditional
/// headers of §4.5.
enum HTTPDate {
    private static func makeFormatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = format
        return formatter
    }

    /// Formats `date` (whole seconds, GMT).
    static func format(_ date: Date) -> String {
        makeFormatter("EEE, dd MMM yyyy HH:mm:ss 'GMT'").string(from: date)
    }

    /// Parses an RFC 1123 date; also accepts a numeric zone (`+0000`), as Android's `z` may print.
    static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        for format in [
            "EEE, dd MMM yyyy HH:mm:ss 'GMT'", "EEE, dd MMM yyyy HH:mm:ss zzz", "EEE, dd MMM yyyy HH:mm:ss Z",
        ] {
            if let date = makeFormatter(format).date(from: trimmed) { return date }
        }
        return nil
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
