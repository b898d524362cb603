/// Validation and SQL rendering of the dotted JSON paths soups are indexed and queried by.
///
/// Only plain dotted paths are accepted: names made of ASCII letters, digits and `_`, separated by
/// single dots. This is what lets a validated path be written into a JSON-path literal
/// (`'$.a.b'`) safely: it can contain no quote, bracket or SQL.
package enum SoupPath {
    /// The store's own control paths, mapped to columns rather than indexes.
    package static let entryID = "_soupEntryId"
    package static let lastModified = "_soupLastModifiedDate"
    package static let created = "_soupCreatedDate"
    package static let wholeSoup = "_soup"

    /// Whether `path` is a plain dotted path.
    package static func isValid(_ path: String) -> Bool {
        guard !path.isEmpty, path.utf8.count <= 1024 else { return false }
        var previousWasDot = true
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "."):
                if previousWasDot { return false }
                previousWasDot = true
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                previousWasDot = false
            default:
                return false
            }
        }
        return !previousWasDot
    }

    /// Throws unless `path` is a plain dotted path.
    package static func validate(_ path: String) throws {
        guard isValid(path) else { throw SoupStoreError.invalidPath(path) }
    }

    /// The SQLite JSON path literal for a validated path: `'$.a.b'`.
    package static func jsonPathLiteral(_ path: String) -> String {
        "'$.\(path)'"
    }

    /// SmartStore's expression for a `json1` index or an unindexed path, textually identical to
    /// what the SDK writes into `soup_index_map` (one space after the comma).
    package static func json1Expression(_ path: String) -> String {
        "json_extract(soup, '$.\(path)')"
    }

    /// The path's segments.
    package static func segments(_ path: String) -> [Substring] {
        path.split(separator: ".")
    }
}
