import JSONCore

/// A JSON value sent to or received from an org: record fields, composite bodies, results.
///
/// `OrgValue` is the package's one JSON value type (``JSONCore/JSONValue``) under the name the
/// client has always used: the typed form for any JSON document that is not a query page (query
/// pages stay raw bytes, see ``QueryPage``). Numbers keep their kind: an integer literal is
/// `integer`, anything else `number`; `null` in a write body clears the field.
///
/// ```swift
/// let fields: [String: OrgValue] = ["Name": "Acme", "NumberOfEmployees": 12, "Rating": .null]
/// ```
public typealias OrgValue = JSONValue
