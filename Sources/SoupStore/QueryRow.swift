import GRDB
import JSONCore

/// A value bound into, or read out of, a query.
public enum SoupValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .integer(let value): value.databaseValue
        case .real(let value): value.databaseValue
        case .text(let value): value.databaseValue
        }
    }

    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let value): self = .integer(value)
        case .double(let value): self = .real(value)
        case .string(let value): self = .text(value)
        case .blob(let data): self = .text(String(decoding: data, as: UTF8.self))
        }
    }
}

/// One row of a Smart SQL query, in select-list order.
///
/// A column named `soup` (or `soup:<n>`) holds a whole document; SmartStore returns it parsed,
/// and `jsonArray` writes it as a JSON object rather than a string (store.md §5.3).
public struct QueryRow: Sendable, Hashable {
    /// The result column names.
    public var columnNames: [String]
    /// The values, one per column.
    public var values: [SoupValue]

    /// The row as compact JSON array text: documents inline, text as JSON strings, numbers as
    /// numbers, NULL as `null`.
    public var jsonArray: String {
        var out = "["
        for (position, value) in values.enumerated() {
            if position > 0 { out += "," }
            switch value {
            case .null: out += "null"
            case .integer(let number): out += String(number)
            case .real(let number): out += JSONWriter.number(number)
            case .text(let text):
                let name = columnNames[position]
                if name == "soup" || name.hasPrefix("soup:") {
                    out += text
                } else {
                    JSONWriter.appendQuoted(text, to: &out)
                }
            }
        }
        return out + "]"
    }
}

/// Small JSON text helpers for the few strings the store writes itself.
package enum JSONText {
    /// A JSON array of strings, escaped by JSONCore's one escaper.
    package static func array(_ values: [String]) -> String {
        "[" + values.map(JSONWriter.quoted).joined(separator: ",") + "]"
    }
}
