/// One subrequest of a composite call (`POST /composite`), which may reference results of
/// earlier subrequests with `@{referenceID.field}` in its path or body.
///
/// ```swift
/// let requests: [CompositeSubrequest] = [
///     .create("Account", fields: ["Name": "Acme"], referenceID: "acct"),
///     .create("Contact", fields: ["LastName": "Doe", "AccountId": "@{acct.id}"], referenceID: "con"),
/// ]
/// let responses = try await org.composite(requests, allOrNone: true)
/// ```
public struct CompositeSubrequest: Sendable, Hashable {
    /// The subrequest's HTTP method.
    public var method: OrgRequestMethod
    /// The path relative to the versioned base, e.g. `sobjects/Account/001…`; the client
    /// prefixes `/services/data/vNN.N/`.
    public var path: String
    /// The JSON body, for POST and PATCH.
    public var body: OrgValue?
    /// The unique name later subrequests use to reference this one's result.
    public var referenceID: String
    /// Per-subrequest headers (for example `If-Unmodified-Since`).
    public var headers: [String: String]

    /// Creates a subrequest.
    public init(
        method: OrgRequestMethod,
        path: String,
        body: OrgValue? = nil,
        referenceID: String,
        headers: [String: String] = [:]
    ) {
        self.method = method
        self.path = path
        self.body = body
        self.referenceID = referenceID
        self.headers = headers
    }

    /// A create of a record of `objectType`.
    public static func create(_ objectType: String, fields: [String: OrgValue], referenceID: String) -> Self {
        Self(method: .post, path: "sobjects/\(objectType)", body: .object(fields), referenceID: referenceID)
    }

    /// An update of the record `id` (which may be a reference such as `@{acct.id}`).
    public static func update(
        _ objectType: String,
        id: String,
        fields: [String: OrgValue],
        referenceID: String,
        ifUnmodifiedSince: HTTPDate? = nil
    ) -> Self {
        var headers: [String: String] = [:]
        if let ifUnmodifiedSince { headers["If-Unmodified-Since"] = ifUnmodifiedSince.text }
        return Self(
            method: .patch,
            path: "sobjects/\(objectType)/\(id)",
            body: .object(fields),
            referenceID: referenceID,
            headers: headers
        )
    }

    /// An upsert by external ID.
    public static func upsert(
        _ objectType: String,
        externalIDField: String,
        externalID: String,
        fields: [String: OrgValue],
        referenceID: String
    ) -> Self {
        Self(
            method: .patch,
            path: "sobjects/\(objectType)/\(externalIDField)/\(PathComponents.encode(externalID))",
            body: .object(fields),
            referenceID: referenceID
        )
    }

    /// A delete of the record `id`.
    public static func delete(_ objectType: String, id: String, referenceID: String) -> Self {
        Self(method: .delete, path: "sobjects/\(objectType)/\(id)", referenceID: referenceID)
    }

    /// A retrieve of the record `id` (all fields when `fields` is empty).
    public static func retrieve(_ objectType: String, id: String, fields: [String], referenceID: String) -> Self {
        let query = fields.isEmpty ? "" : "?fields=" + fields.map(PathComponents.encode).joined(separator: ",")
        return Self(method: .get, path: "sobjects/\(objectType)/\(id)\(query)", referenceID: referenceID)
    }
}

/// The response to one ``CompositeSubrequest``.
public struct CompositeSubresponse: Sendable, Hashable {
    /// The subrequest's reference ID.
    public var referenceID: String
    /// Its HTTP status (`400` with `PROCESSING_HALTED` when it was rolled back or skipped).
    public var statusCode: Int
    /// Its body: a record, a create result, an error array, or `null`.
    public var body: OrgValue
    /// Its headers (for example `Location` after a create).
    public var headers: [String: String]

    /// Creates a subresponse.
    public init(referenceID: String, statusCode: Int, body: OrgValue, headers: [String: String] = [:]) {
        self.referenceID = referenceID
        self.statusCode = statusCode
        self.body = body
        self.headers = headers
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(statusCode) }
    /// The error entries when the body is an error array.
    public var errors: [OrgErrorDetail] { isSuccess ? [] : OrgErrorDetail.parseErrors(body) }
    /// The `id` of a create or upsert result.
    public var id: String? { body["id"]?.stringValue }
}
