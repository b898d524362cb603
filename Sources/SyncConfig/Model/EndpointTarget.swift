import JSONCore

/// An HTTP method an endpoint target may use.
public enum EndpointMethod: String, Sendable, Hashable, CaseIterable {
    /// `GET`.
    case get = "GET"
    /// `POST`.
    case post = "POST"
    /// `PUT`.
    case put = "PUT"
    /// `PATCH`.
    case patch = "PATCH"
    /// `DELETE`.
    case delete = "DELETE"
}

/// A path or query value with `{Field}` placeholders, parsed once by the config decoder.
///
/// A placeholder names a field of the record (a dot path such as `{Owner.Name}` reads a nested
/// field); the engine percent-encodes the value for paths and queries and JSON-encodes it for
/// bodies, so a value can neither leave its path segment nor change the host.
public struct EndpointTemplate: Sendable, Hashable, CustomStringConvertible {
    /// One piece of a template.
    public enum Part: Sendable, Hashable {
        /// Text used as written.
        case literal(String)
        /// The value of a record field.
        case placeholder(String)
    }

    /// The pieces, in order.
    public var parts: [Part]

    /// Creates a template from its pieces.
    public init(parts: [Part]) {
        self.parts = parts
    }

    /// The fields the template reads.
    public var placeholders: [String] {
        parts.compactMap { part in
            if case .placeholder(let name) = part { return name }
            return nil
        }
    }

    /// The template as written.
    public var description: String {
        parts.map { part in
            switch part {
            case .literal(let text): text
            case .placeholder(let name): "{\(name)}"
            }
        }
        .joined()
    }

    /// Parses `text`; a `{` must open a placeholder closed by `}` around a field name (letters,
    /// digits, `_`, with `.` between names).
    ///
    /// - Returns: the template, or the UTF-8 offset and reason of the first problem.
    public static func parse(_ text: String) -> Result<EndpointTemplate, EndpointTemplateError> {
        var parts: [Part] = []
        var literal = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let offset = text.utf8.distance(from: text.startIndex, to: index)
            if character == "}" {
                return .failure(EndpointTemplateError(offset: offset, reason: "'}' without an opening '{'"))
            }
            guard character == "{" else {
                literal.append(character)
                index = text.index(after: index)
                continue
            }
            guard let close = text[index...].firstIndex(of: "}") else {
                return .failure(EndpointTemplateError(offset: offset, reason: "'{' without a closing '}'"))
            }
            let name = String(text[text.index(after: index)..<close])
            guard isFieldPath(name) else {
                return .failure(
                    EndpointTemplateError(
                        offset: offset,
                        reason: "'{\(name)}' is not a placeholder; write a field name such as '{Id}'"
                    )
                )
            }
            if !literal.isEmpty { parts.append(.literal(literal)) }
            literal = ""
            parts.append(.placeholder(name))
            index = text.index(after: close)
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        return .success(EndpointTemplate(parts: parts))
    }

    /// Whether `name` is field names (letters, digits, `_`, starting with a letter or `_`) joined
    /// by dots.
    public static func isFieldPath(_ name: String) -> Bool {
        let names = name.split(separator: ".", omittingEmptySubsequences: false)
        return !name.isEmpty
            && names.allSatisfy { part in
                guard let first = part.unicodeScalars.first, first.isASCII,
                    first.properties.isAlphabetic || first == "_"
                else { return false }
                return part.unicodeScalars.allSatisfy {
                    $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
                }
            }
    }
}

/// Why a template does not parse, and where (a UTF-8 offset into the text).
public struct EndpointTemplateError: Error, Sendable, Hashable {
    /// The UTF-8 offset of the offending character.
    public var offset: Int
    /// What is wrong.
    public var reason: String
}

/// One request of an endpoint target.
///
/// Keys:
/// - `method` (string, default `"GET"`; `"POST"` for `create`, `"PATCH"` for `update`, `"DELETE"`
///   for `delete`): one of `GET`, `POST`, `PUT`, `PATCH`, `DELETE`.
/// - `path` (string, required): a path of the org starting with `/` (e.g.
///   `/services/apexrest/widgets/{Id}`); no host, query string, fragment, `.`/`..` segments or
///   empty segments. Placeholders are allowed in sync up requests only.
/// - `query` (object of strings, default empty): query parameters, in order; values may hold
///   placeholders (sync up only).
/// - `body` (any JSON, sync up `create` / `update` / `delete` only): a template; a string that is
///   exactly one placeholder becomes the field's JSON value, placeholders inside longer strings are
///   replaced by the value's text. Default for create/update: the field list as a JSON object.
public struct EndpointRequest: Sendable, Hashable {
    /// The method.
    public var method: EndpointMethod
    /// The path template.
    public var path: EndpointTemplate
    /// The query parameters (name, value template), in order.
    public var query: [EndpointQueryParameter]
    /// The body template, when declared.
    public var body: JSONValue?

    /// Creates a request.
    public init(
        method: EndpointMethod = .get,
        path: EndpointTemplate,
        query: [EndpointQueryParameter] = [],
        body: JSONValue? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.body = body
    }
}

extension EndpointRequest {
    /// `GET /services/apexrest/widgets?view=all`: method, path and query as declared, placeholders
    /// as written.
    public var displayText: String {
        let parameters = query.map { "\($0.name)=\($0.value.description)" }.joined(separator: "&")
        return "\(method.rawValue) \(path.description)" + (parameters.isEmpty ? "" : "?" + parameters)
    }
}

/// A query parameter of an endpoint request.
public struct EndpointQueryParameter: Sendable, Hashable {
    /// The parameter name, as written.
    public var name: String
    /// The value template.
    public var value: EndpointTemplate

    /// Creates a parameter.
    public init(name: String, value: EndpointTemplate) {
        self.name = name
        self.value = value
    }
}

/// How the next page of a list response is found (`nextPage`).
///
/// Keys: either `urlPath` (string): where the response holds the next page's URL (a path of the
/// org or an absolute URL of the same host; absent, null or empty ends the paging), or
/// `cursorPath` and `cursorParam` (strings, both required): where the response holds a cursor and
/// the query parameter that sends it back.
public enum EndpointNextPage: Sendable, Hashable {
    /// The response holds the next page's URL at this dot path.
    case urlPath(String)
    /// The response holds a cursor at `path`, sent back as the query parameter `param`.
    case cursor(path: String, param: String)
}

/// How a date is written in a request parameter.
public enum EndpointDateFormat: String, Sendable, Hashable, CaseIterable {
    /// `2024-05-01T10:00:00.000Z`.
    case iso8601
    /// Milliseconds since 1970 (`1714557600000`).
    case epochMillis
}

/// The incremental filter of an endpoint sync down (`since`).
///
/// Keys: `param` (string, required): the query parameter carrying the watermark;
/// `format` (string, default `"iso8601"`): `"iso8601"` or `"epochMillis"`.
public struct EndpointSince: Sendable, Hashable {
    /// The query parameter.
    public var param: String
    /// How the watermark is written.
    public var format: EndpointDateFormat

    /// Creates a filter.
    public init(param: String, format: EndpointDateFormat = .iso8601) {
        self.param = param
        self.format = format
    }
}

/// The request listing every id on the server, for ghost cleaning (`idsRequest`).
///
/// Keys: those of ``EndpointRequest`` (no placeholders, no body), `recordsPath` (string, required):
/// where the list of ids is (strings, or records holding `idFieldName`), `nextPage` (optional, as
/// for the list request).
public struct EndpointIDsRequest: Sendable, Hashable {
    /// The request.
    public var request: EndpointRequest
    /// The dot path to the list of ids (empty: the response is the list).
    public var recordsPath: String
    /// How the next page is found, when paged.
    public var nextPage: EndpointNextPage?

    /// Creates an ids request.
    public init(request: EndpointRequest, recordsPath: String, nextPage: EndpointNextPage? = nil) {
        self.request = request
        self.recordsPath = recordsPath
        self.nextPage = nextPage
    }
}

/// An `endpoint` sync down target: records read from a JSON endpoint of the org.
///
/// Keys:
/// - `type` (string, `"endpoint"`).
/// - `request` (object, required): ``EndpointRequest`` (no placeholders, no body).
/// - `recordsPath` (string, required): the dot path to the records array in a response (`items`,
///   `data.records`); `""` when the response is the array.
/// - `nextPage` (object, default none: one page): ``EndpointNextPage``.
/// - `since` (object, default none: every run fetches everything): ``EndpointSince``.
/// - `idsRequest` (object, default none: ghost cleaning is refused): ``EndpointIDsRequest``.
/// - `idFieldName` (string, default `"Id"`), `modificationDateFieldName` (string, default
///   `"LastModifiedDate"`).
public struct EndpointSyncDownTarget: Sendable, Hashable, TargetCommonKeys {
    /// The list request.
    public var request: EndpointRequest
    /// The dot path to the records.
    public var recordsPath: String
    /// How the next page is found.
    public var nextPage: EndpointNextPage?
    /// The incremental filter.
    public var since: EndpointSince?
    /// The ids request for ghost cleaning.
    public var idsRequest: EndpointIDsRequest?
    /// The field holding the server id (`idFieldName`).
    public var idFieldName: String
    /// The field holding the server modification date (`modificationDateFieldName`).
    public var modificationDateFieldName: String
    /// Keys the product does not know, verbatim.
    public var extraKeys: [String: JSONValue]

    /// Creates an endpoint target.
    public init(
        request: EndpointRequest,
        recordsPath: String,
        nextPage: EndpointNextPage? = nil,
        since: EndpointSince? = nil,
        idsRequest: EndpointIDsRequest? = nil,
        idFieldName: String = "Id",
        modificationDateFieldName: String = "LastModifiedDate",
        extraKeys: [String: JSONValue] = [:]
    ) {
        self.request = request
        self.recordsPath = recordsPath
        self.nextPage = nextPage
        self.since = since
        self.idsRequest = idsRequest
        self.idFieldName = idFieldName
        self.modificationDateFieldName = modificationDateFieldName
        self.extraKeys = extraKeys
    }
}

/// The create request of an endpoint sync up: a request and where the new id is in its response.
public struct EndpointCreate: Sendable, Hashable {
    /// The request.
    public var request: EndpointRequest
    /// The dot path to the new id in the response (`idPath`, default `"id"`).
    public var idPath: String

    /// Creates a create request.
    public init(request: EndpointRequest, idPath: String = "id") {
        self.request = request
        self.idPath = idPath
    }
}

/// How an endpoint sync up reads a record's modification date on the server (`modificationDate`).
///
/// Keys: `request` (object, required): ``EndpointRequest`` with placeholders (no body);
/// `path` (string, required): the dot path to the date in the response (ISO 8601 or epoch ms).
public struct EndpointModificationDate: Sendable, Hashable {
    /// The request.
    public var request: EndpointRequest
    /// The dot path to the date.
    public var path: String

    /// Creates a modification-date read.
    public init(request: EndpointRequest, path: String) {
        self.request = request
        self.path = path
    }
}

/// The batch form of an endpoint sync up (`batch`): several writes in one request.
///
/// Keys: `method` (default `"POST"`), `path` (no placeholders), `maxBatchSize` (integer, 1...200,
/// default 25). The request body is a JSON array of `{"method", "path", "body"}` objects (the
/// single requests the target would have sent); the response must be a JSON array, in the same
/// order, of `{"status", "body"}` objects (the single responses).
public struct EndpointBatch: Sendable, Hashable {
    /// The batch request (method and path).
    public var request: EndpointRequest
    /// Writes per batch request.
    public var maxBatchSize: Int

    /// The default number of writes per batch request.
    public static let defaultMaxBatchSize = 25
    /// The largest number of writes per batch request.
    public static let maxBatchSizeCap = 200

    /// Creates a batch form.
    public init(request: EndpointRequest, maxBatchSize: Int = Self.defaultMaxBatchSize) {
        self.request = request
        self.maxBatchSize = min(max(maxBatchSize, 1), Self.maxBatchSizeCap)
    }
}

/// The requests of an `endpoint` sync up target (``SyncUpTarget/endpoint``).
///
/// Keys of the target (besides the sync up keys `createFieldlist`, `updateFieldlist`,
/// `idFieldName`, `modificationDateFieldName`):
/// - `create` (object, required): ``EndpointRequest`` plus `idPath`.
/// - `update` (object, required), `delete` (object, required): ``EndpointRequest``.
/// - `modificationDate` (object, optional): ``EndpointModificationDate``; without it,
///   `LEAVE_IF_CHANGED` cannot see server changes and behaves as `OVERWRITE`.
/// - `batch` (object, optional): ``EndpointBatch``.
public struct EndpointSyncUpInfo: Sendable, Hashable {
    /// `create`.
    public var create: EndpointCreate
    /// `update`.
    public var update: EndpointRequest
    /// `delete`.
    public var delete: EndpointRequest
    /// `modificationDate`.
    public var modificationDate: EndpointModificationDate?
    /// `batch`.
    public var batch: EndpointBatch?

    /// Creates the requests of an endpoint sync up.
    public init(
        create: EndpointCreate,
        update: EndpointRequest,
        delete: EndpointRequest,
        modificationDate: EndpointModificationDate? = nil,
        batch: EndpointBatch? = nil
    ) {
        self.create = create
        self.update = update
        self.delete = delete
        self.modificationDate = modificationDate
        self.batch = batch
    }
}
