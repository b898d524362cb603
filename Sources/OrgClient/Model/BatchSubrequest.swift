/// One independent subrequest of a composite batch call (`POST /composite/batch`).
public struct BatchSubrequest: Sendable, Hashable {
    /// The subrequest's HTTP method.
    public var method: OrgRequestMethod
    /// The path relative to the versioned base, e.g. `sobjects/Account/001…?fields=Name`; the
    /// client prefixes `vNN.N/`.
    public var path: String
    /// The JSON body (sent as `richInput`), for POST and PATCH.
    public var body: OrgValue?

    /// Creates a subrequest.
    public init(method: OrgRequestMethod, path: String, body: OrgValue? = nil) {
        self.method = method
        self.path = path
        self.body = body
    }
}

/// The response to one ``BatchSubrequest``.
public struct BatchSubresponse: Sendable, Hashable {
    /// Its HTTP status (`412` with `BATCH_PROCESSING_HALTED` after an earlier failure with
    /// `haltOnError`).
    public var statusCode: Int
    /// Its result: a record, a create result, an error array, or `null`.
    public var result: OrgValue

    /// Creates a subresponse.
    public init(statusCode: Int, result: OrgValue) {
        self.statusCode = statusCode
        self.result = result
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(statusCode) }
    /// The error entries when the result is an error array.
    public var errors: [OrgErrorDetail] { isSuccess ? [] : OrgErrorDetail.parseErrors(result) }
}
