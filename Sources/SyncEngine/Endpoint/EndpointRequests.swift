import JSONCore
import OrgClient
import SOQL
import SyncConfig

/// Why a request of an endpoint target cannot be built for a record.
package struct EndpointSubstitutionError: Error, Sendable, Hashable {
    /// The placeholder's field.
    var field: String
    /// What is wrong with its value.
    var problem: String

    package var message: String { "the record's '\(field)' \(problem), so the request cannot be built" }
}

/// The *decide* half of the endpoint targets: builds the calls a run would send from the declared
/// requests, a record and a watermark, with no I/O (so `--dry-run` and `plan` show exactly what a
/// run sends).
///
/// Placeholder values are percent-encoded in paths and queries (every byte but the RFC 3986
/// unreserved characters, so `/`, `?`, `#`, `%`, quotes and non-ASCII text stay inside their path
/// segment or query value; a value made only of dots is encoded as `%2E`s so it cannot become a
/// `.`/`..` segment) and JSON-encoded in bodies. The host is never taken from a template: paths
/// are checked to be paths of the org when the config is loaded and again before sending.
package enum EndpointRequests {
    /// The call for `request`, its placeholders filled from `record`, `extraQuery` appended (a
    /// parameter of the same name as a declared one replaces it).
    package static func call(
        _ request: EndpointRequest,
        record: JSONValue? = nil,
        extraQuery: [(name: String, value: String)] = [],
        body: String? = nil
    ) throws(EndpointSubstitutionError) -> EndpointCall {
        let path = try substitute(request.path, record: record, isPath: true)
        var pairs: [(String, String)] = []
        let replaced = Set(extraQuery.map(\.name))
        for parameter in request.query where !replaced.contains(parameter.name) {
            pairs.append((parameter.name, try substitute(parameter.value, record: record, isPath: false)))
        }
        pairs += extraQuery.map { ($0.name, $0.value) }
        let query = pairs.map { percentEncoded($0.0) + "=" + percentEncoded($0.1) }.joined(separator: "&")
        return EndpointCall(
            method: request.method.rawValue,
            path: path,
            query: query.isEmpty ? nil : query,
            body: body
        )
    }

    /// The template's text with each placeholder replaced by the record's value, percent-encoded
    /// when `isPath` (query values are encoded by ``call(_:record:extraQuery:body:)``).
    static func substitute(_ template: EndpointTemplate, record: JSONValue?, isPath: Bool)
        throws(EndpointSubstitutionError) -> String
    {
        var text = ""
        for part in template.parts {
            switch part {
            case .literal(let literal):
                text += literal
            case .placeholder(let field):
                let value = try scalarText(field, in: record)
                if isPath, value.isEmpty {
                    throw EndpointSubstitutionError(field: field, problem: "is empty, which cannot be part of a path")
                }
                text += isPath ? pathSegmentEncoded(value) : value
            }
        }
        return text
    }

    /// The JSON body: the template with every placeholder filled (a string that is exactly one
    /// placeholder becomes the field's JSON value), or `fields` of the record when no template is
    /// declared.
    package static func body(
        _ template: JSONValue?,
        record: JSONValue,
        fields: [String]?
    ) throws(EndpointSubstitutionError) -> String? {
        if let template { return try fill(template, record: record).jsonText }
        guard let fields else { return nil }
        var object = JSONObject()
        for field in fields { object[field] = value(at: field, in: record) ?? .null }
        return JSONValue.object(object).jsonText
    }

    private static func fill(_ template: JSONValue, record: JSONValue) throws(EndpointSubstitutionError) -> JSONValue {
        switch template {
        case .string(let text):
            guard case .success(let parsed) = EndpointTemplate.parse(text), !parsed.placeholders.isEmpty else {
                return template
            }
            if parsed.parts.count == 1, case .placeholder(let field) = parsed.parts[0] {
                return value(at: field, in: record) ?? .null
            }
            return .string(try substitute(parsed, record: record, isPath: false))
        case .array(let elements):
            var result: [JSONValue] = []
            for element in elements { result.append(try fill(element, record: record)) }
            return .array(result)
        case .object(let object):
            var result = JSONObject()
            for (key, value) in object { result[key] = try fill(value, record: record) }
            return .object(result)
        default:
            return template
        }
    }

    /// The text of a scalar field: strings as they are, numbers and booleans as JSON writes them.
    static func scalarText(_ field: String, in record: JSONValue?) throws(EndpointSubstitutionError) -> String {
        switch record.flatMap({ value(at: field, in: $0) }) {
        case .string(let text)?: return text
        case .integer(let number)?: return String(number)
        case .bool(let flag)?: return flag ? "true" : "false"
        case let number?:
            if case .number = number { return number.jsonText }
            throw EndpointSubstitutionError(field: field, problem: "is not a string, number or boolean")
        case nil:
            throw EndpointSubstitutionError(field: field, problem: "has no value")
        }
    }

    /// The value at a dot path (`data.records`, `items.0.id`); `""` is the value itself.
    package static func value(at path: String, in json: JSONValue) -> JSONValue? {
        guard !path.isEmpty else { return json }
        var current = json
        for name in path.split(separator: ".") {
            if case .array(let elements) = current, let index = Int(name), elements.indices.contains(index) {
                current = elements[index]
            } else if let next = current[String(name)] {
                current = next
            } else {
                return nil
            }
        }
        return current
    }

    /// The ids of an ids response's entries: each an id (string or integer) or a record with
    /// `idFieldName`; `nil` when an entry is neither.
    package static func ids(in entries: [JSONValue], idFieldName: String) -> [String]? {
        var ids: [String] = []
        ids.reserveCapacity(entries.count)
        for entry in entries {
            switch entry {
            case .string(let id): ids.append(id)
            case .integer(let id): ids.append(String(id))
            default:
                guard let id = entry[idFieldName]?.stringValue else { return nil }
                ids.append(id)
            }
        }
        return ids
    }

    /// The watermark as the `since` parameter writes it.
    static func watermark(_ milliseconds: Int64, format: EndpointDateFormat) -> String {
        switch format {
        case .iso8601: SalesforceDateTime.soqlLiteral(milliseconds: milliseconds)
        case .epochMillis: String(milliseconds)
        }
    }

    /// Every byte but the RFC 3986 unreserved characters percent-encoded (the org client's own
    /// encoding of path segments and query values).
    static func percentEncoded(_ text: String) -> String {
        PathComponents.encode(text)
    }

    /// ``percentEncoded(_:)``, and a value made only of dots (or empty) written so it cannot be a
    /// `.`, `..` or empty segment.
    static func pathSegmentEncoded(_ text: String) -> String {
        if text.allSatisfy({ $0 == "." }) {
            return String(repeating: "%2E", count: text.count)
        }
        return percentEncoded(text)
    }
}
