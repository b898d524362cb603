/// A simple JSON endpoint the local org serves over one of its objects, declared in the schema
/// file's `endpoints` array, so that the local org can stand in for an Apex REST service or an
/// integration endpoint.
///
/// ```json
/// {"endpoints": [{"path": "/services/apexrest/widgets", "object": "Widget__c",
///                 "fields": ["Id", "Name", "LastModifiedDate"], "keyField": "Id", "pageSize": 2,
///                 "since": {"param": "modifiedSince", "format": "iso8601"}}]}
/// ```
///
/// Routes, for a declared `path` P (all need the bearer token and count as API requests):
/// - `GET P[?since][&cursor=N]`: `{"totalSize", "data": {"items": […], "nextUrl", "cursor"}}`,
///   records ordered by `LastModifiedDate` then `Id`, `pageSize` per page; `nextUrl` (a path with
///   its query) and `cursor` (sent back as `cursor`) are `null` on the last page. The `since`
///   parameter keeps records modified at or after the instant (ISO 8601 or epoch milliseconds).
/// - `GET P/ids[?cursor=N]`: `{"data": {"ids": […], "nextUrl", "cursor"}}`, every id.
/// - `GET P/{key}`: the record whose `keyField` equals the (percent-decoded) segment.
/// - `POST P`: creates a record from the JSON object body: `201 {"id", "success": true}`.
/// - `PATCH` or `PUT P/{key}`: updates it from the body (`200` with the record).
/// - `DELETE P/{key}`: deletes it (`204`).
/// - `POST P/batch`: a JSON array of `{"method", "path", "body"}` (paths of this endpoint), answered
///   by a JSON array of `{"status", "body"}` in the same order.
///
/// Failures answer the REST error array (`[{"errorCode", "message"}]`) with the record API's status.
public struct OrgCustomEndpoint: Sendable, Equatable {
    /// The path, starting with `/services/apexrest/`, without a trailing slash.
    public var path: String
    /// The object the endpoint serves.
    public var object: String
    /// The fields a record is shown with (`Id` and `LastModifiedDate` are always included).
    public var fields: [String]
    /// The field the `{key}` segment matches.
    public var keyField: String
    /// Records per page.
    public var pageSize: Int
    /// The modified-since query parameter, if any.
    public var sinceParam: String?
    /// `"iso8601"` or `"epochMillis"`: how `sinceParam` is written.
    public var sinceFormat: String

    /// Creates a declaration.
    public init(
        path: String,
        object: String,
        fields: [String],
        keyField: String = "Id",
        pageSize: Int = 100,
        sinceParam: String? = nil,
        sinceFormat: String = "iso8601"
    ) {
        self.path = path
        self.object = object
        self.fields = fields
        self.keyField = keyField
        self.pageSize = pageSize
        self.sinceParam = sinceParam
        self.sinceFormat = sinceFormat
    }

    /// The fields of a shown record: the declared ones plus `Id` and `LastModifiedDate`.
    var shownFields: [String] {
        var result = fields
        for required in ["Id", "LastModifiedDate"]
        where !result.contains(where: { $0.lowercased() == required.lowercased() }) {
            result.append(required)
        }
        return result
    }

    private static let keys: Set<String> = ["path", "object", "fields", "keyField", "pageSize", "since"]

    /// Reads `endpoints[position]` of a schema file.
    static func decode(_ value: OrgJSONValue, schema: OrgSchema, location: String) throws -> OrgCustomEndpoint {
        guard let json = value.objectValue else { throw OrgError.invalidInput("\(location): expected an object") }
        if let unknown = json.keys.first(where: { !keys.contains($0) }) {
            throw OrgError.invalidInput(
                "\(location): unknown key '\(unknown)'; expected \(keys.sorted().map { "'\($0)'" }.joined(separator: ", "))"
            )
        }
        guard var path = json["path"]?.stringValue, path.hasPrefix("/services/apexrest/"),
            path.count > "/services/apexrest/".count, !path.contains("?"), !path.contains("{")
        else {
            throw OrgError.invalidInput(
                "\(location): \"path\" must be a path below '/services/apexrest/', such as '/services/apexrest/widgets'"
            )
        }
        while path.hasSuffix("/") { path.removeLast() }
        guard let objectName = json["object"]?.stringValue, let object = schema.object(named: objectName) else {
            throw OrgError.invalidInput("\(location): \"object\" must name an object of the schema")
        }
        guard let fieldValues = json["fields"]?.arrayValue else {
            throw OrgError.invalidInput("\(location): \"fields\" must be an array of field names")
        }
        var fields: [String] = []
        for value in fieldValues {
            guard let name = value.stringValue, object.field(named: name) != nil else {
                throw OrgError.invalidInput(
                    "\(location): \"fields\" holds something that is not a field of '\(object.name)'"
                )
            }
            fields.append(name)
        }
        let keyField = json["keyField"]?.stringValue ?? "Id"
        guard object.field(named: keyField) != nil else {
            throw OrgError.invalidInput("\(location): \"keyField\" '\(keyField)' is not a field of '\(object.name)'")
        }
        var pageSize = 100
        if let value = json["pageSize"] {
            guard case .integer(let size) = value, (1...2000).contains(size) else {
                throw OrgError.invalidInput("\(location): \"pageSize\" must be an integer from 1 to 2000")
            }
            pageSize = Int(size)
        }
        var sinceParam: String?
        var sinceFormat = "iso8601"
        if let since = json["since"] {
            guard let param = since.objectValue?["param"]?.stringValue, !param.isEmpty else {
                throw OrgError.invalidInput("\(location): \"since\" must be {\"param\": NAME, \"format\": FORMAT}")
            }
            sinceParam = param
            switch since.objectValue?["format"] {
            case nil: break
            case .string("iso8601")?, .string("epochMillis")?:
                sinceFormat = since.objectValue?["format"]?.stringValue ?? ""
            default:
                throw OrgError.invalidInput("\(location): \"since.format\" must be \"iso8601\" or \"epochMillis\"")
            }
        }
        return OrgCustomEndpoint(
            path: path,
            object: object.name,
            fields: fields,
            keyField: keyField,
            pageSize: pageSize,
            sinceParam: sinceParam,
            sinceFormat: sinceFormat
        )
    }

    /// The declaration as a schema-file entry.
    var json: OrgJSONValue {
        var entry: OrgJSONObject = [
            "path": .string(path), "object": .string(object), "fields": .array(fields.map { .string($0) }),
            "keyField": .string(keyField), "pageSize": .integer(Int64(pageSize)),
        ]
        if let sinceParam { entry["since"] = ["param": .string(sinceParam), "format": .string(sinceFormat)] }
        return .object(entry)
    }
}

/// A record layout declared in the schema file's `layouts` array, served as written by
/// `GET /ui-api/layout/{object}` for its `layoutType` and `mode` (instead of the layout derived
/// from the object's fields).
///
/// ```yaml
/// layouts:
///   - object: Account
///     layoutType: Full     # default Full
///     mode: View           # default View
///     layout: {sections: [...]}
/// ```
public struct OrgDeclaredLayout: Sendable, Equatable {
    /// The object.
    public var object: String
    /// `Full` or `Compact`.
    public var layoutType: String
    /// `Create`, `Edit` or `View`.
    public var mode: String
    /// The response body.
    public var layout: OrgJSONObject

    /// Creates a declared layout.
    public init(object: String, layoutType: String = "Full", mode: String = "View", layout: OrgJSONObject) {
        self.object = object
        self.layoutType = layoutType
        self.mode = mode
        self.layout = layout
    }

    private static let keys: Set<String> = ["object", "layoutType", "mode", "layout"]

    /// Reads `layouts[position]` of a schema file.
    static func decode(_ value: OrgJSONValue, schema: OrgSchema, location: String) throws -> OrgDeclaredLayout {
        guard let json = value.objectValue else { throw OrgError.invalidInput("\(location): expected an object") }
        if let unknown = json.keys.first(where: { !keys.contains($0) }) {
            throw OrgError.invalidInput(
                "\(location): unknown key '\(unknown)'; expected 'object', 'layoutType', 'mode' and 'layout'"
            )
        }
        guard let name = json["object"]?.stringValue, let object = schema.object(named: name) else {
            throw OrgError.invalidInput("\(location): \"object\" must name an object of the schema")
        }
        let layoutType = json["layoutType"]?.stringValue ?? "Full"
        let mode = json["mode"]?.stringValue ?? "View"
        guard ["Full", "Compact"].contains(layoutType), ["Create", "Edit", "View"].contains(mode) else {
            throw OrgError.invalidInput(
                "\(location): \"layoutType\" must be Full or Compact and \"mode\" Create, Edit or View"
            )
        }
        guard let layout = json["layout"]?.objectValue else {
            throw OrgError.invalidInput("\(location): \"layout\" must be the layout's JSON object")
        }
        return OrgDeclaredLayout(object: object.name, layoutType: layoutType, mode: mode, layout: layout)
    }

    /// The declaration as a schema-file entry.
    var json: OrgJSONValue {
        [
            "object": .string(object), "layoutType": .string(layoutType), "mode": .string(mode),
            "layout": .object(layout),
        ]
    }
}
