import Foundation

/// The one RFC 4180 CSV writer: Bulk API results of the local org, `migrate`'s id map and its
/// `dir:` sets. Quotes are doubled inside quoted fields; a `nil` value is an empty, unquoted field
/// (Bulk API 2.0's null), so `""` (an empty text) and null stay apart; the delimiter and line
/// ending are the caller's (RFC 4180: a comma and CRLF).
public struct CSVWriter: Sendable {
    /// Which fields are written in quotes.
    public enum Quoting: Sendable {
        /// Every non-null value (Bulk API 2.0 results, `dir:` sets).
        case always
        /// Only values holding a delimiter, quote or line break (the id map).
        case whenNeeded
    }

    /// The bytes written so far.
    public private(set) var data = Data()
    public let delimiter: UInt8
    public let lineEnding: [UInt8]
    public let quoting: Quoting

    /// A writer of `delimiter`-separated rows, each ended by `lineEnding`.
    public init(delimiter: UInt8 = UInt8(ascii: ","), lineEnding: [UInt8] = [0x0D, 0x0A], quoting: Quoting = .always) {
        self.delimiter = delimiter
        self.lineEnding = lineEnding
        self.quoting = quoting
    }

    /// Appends one row; `nil` values are written as empty, unquoted fields.
    public mutating func appendRow(_ values: [String?]) {
        let quote = UInt8(ascii: "\"")
        for (index, value) in values.enumerated() {
            if index > 0 { data.append(delimiter) }
            guard let value else { continue }
            let quoted =
                quoting == .always
                || value.utf8.contains { $0 == quote || $0 == delimiter || $0 == 0x0A || $0 == 0x0D }
            guard quoted else {
                data.append(contentsOf: value.utf8)
                continue
            }
            data.append(quote)
            for byte in value.utf8 {
                if byte == quote { data.append(byte) }
                data.append(byte)
            }
            data.append(quote)
        }
        data.append(contentsOf: lineEnding)
    }

    /// One row as text (a header line, a streamed line).
    public static func line(_ values: [String?], quoting: Quoting = .always) -> String {
        var writer = CSVWriter(quoting: quoting)
        writer.appendRow(values)
        return String(decoding: writer.data, as: UTF8.self)
    }
}
