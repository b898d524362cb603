import GRDB
import JSONCore

/// SQL that computes an index column's value from a JSON document, so that every write sets the
/// document and its columns in one statement and they can never disagree.
///
/// Values follow SmartStore's Android conversion (store.md §3.2): strings as-is, numbers in their
/// text form, booleans `'true'`/`'false'`, arrays and objects as compact JSON; `integer` and
/// `floating` take JSON numbers only. When a path crosses an array (`a.b` with `a` an array),
/// SmartStore fans the rest of the path out over the elements (§3.1); SQLite's `json_extract`
/// does not, so that rare case is handed to the `syncrun_project` function.
enum SoupProjection {
    /// Name of the SQL function computing §3.1 fan-out projections.
    static let fanOutFunctionName = "syncrun_project"

    /// The expression giving the column value of `index` for the document expression `document`.
    static func sql(for index: SoupLayout.Index, document: String) -> String {
        let path = SoupPath.jsonPathLiteral(index.path)
        let type = "json_type(\(document), \(path))"
        let value = "json_extract(\(document), \(path))"
        switch index.type {
        case .string, .fullText:
            let direct =
                "CASE \(type) WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' WHEN 'null' THEN NULL "
                + "ELSE CAST(\(value) AS TEXT) END"
            let segments = SoupPath.segments(index.path)
            guard segments.count > 1 else { return direct }
            let prefixes = (1..<segments.count).map { count in
                "json_type(\(document), '$.\(segments.prefix(count).joined(separator: "."))') = 'array'"
            }
            return "CASE WHEN \(prefixes.joined(separator: " OR ")) THEN "
                + "\(fanOutFunctionName)(\(document), '\(index.path)') ELSE \(direct) END"
        case .integer:
            return "CASE \(type) WHEN 'integer' THEN \(value) WHEN 'real' THEN CAST(\(value) AS INTEGER) END"
        case .floating:
            return "CASE \(type) WHEN 'integer' THEN CAST(\(value) AS REAL) WHEN 'real' THEN \(value) END"
        case .json1:
            return value
        }
    }

    /// The SQL function implementing §3.1 for paths that cross arrays; registered on every
    /// connection. Returns the compact JSON of the collected values, or NULL when nothing is found.
    static let fanOutFunction = DatabaseFunction(fanOutFunctionName, argumentCount: 2, pure: true) { values in
        guard var document = String.fromDatabaseValue(values[0]),
            let path = String.fromDatabaseValue(values[1])
        else { return nil }
        let root = document.withUTF8 { bytes in
            var reader = JSONReader(bytes: bytes)
            return try? reader.readDocument()
        }
        guard let root, let found = project(root, segments: SoupPath.segments(path)[...]) else { return nil }
        if case .string(let text) = found { return text }
        return found.jsonText
    }

    /// SmartStore's projection walk (store.md §3.1).
    static func project(_ node: JSONValue, segments: ArraySlice<Substring>) -> JSONValue? {
        if node == .null { return nil }
        guard let first = segments.first else { return node }
        if case .array(let array) = node {
            let collected = array.compactMap { project($0, segments: segments) }
            return collected.isEmpty ? nil : .array(collected)
        }
        guard case .object(let object) = node, let child = object[String(first)] else { return nil }
        return project(child, segments: segments.dropFirst())
    }
}
