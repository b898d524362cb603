/// The error every operation of the `OrgClient` module throws.
///
/// Switch on ``code`` to react (``Code/conflict`` on an update with `If-Unmodified-Since`,
/// ``Code/notFound`` on a delete, ``Code/responseLost`` after a create whose outcome is unknown);
/// show ``message`` to the user. When the org answered with the standard error array, its entries
/// are in ``serverErrors`` and the first code in ``serverErrorCode``.
///
/// The description never contains the access token, record field values or the query string of
/// the request (SOQL may carry values); only the method and the path.
public struct OrgClientError: Error, Sendable {
    /// What kind of failure this is. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case invalidConfiguration, invalidArgument, authentication, badRequest, forbidden
            case requestLimitExceeded, notFound, multipleMatches, conflict, notModified, serverError
            case connectionFailed, timeout, responseLost, invalidResponse, oauth
        }

        private let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        /// The client configuration or endpoint is unusable (bad URL, empty token, bad version).
        public static let invalidConfiguration = Code(.invalidConfiguration)
        /// The caller passed something the API cannot accept (too many subrequests, empty IDs).
        public static let invalidArgument = Code(.invalidArgument)
        /// HTTP 401: the access token is invalid or expired (`INVALID_SESSION_ID`).
        public static let authentication = Code(.authentication)
        /// HTTP 400 and other refusals of the request itself (`MALFORMED_QUERY`, `INVALID_FIELD`…).
        public static let badRequest = Code(.badRequest)
        /// HTTP 403 other than the request limit: the user lacks a permission.
        public static let forbidden = Code(.forbidden)
        /// HTTP 403 `REQUEST_LIMIT_EXCEEDED`, still failing after the retries.
        public static let requestLimitExceeded = Code(.requestLimitExceeded)
        /// HTTP 404: the record, object, external-ID field or path does not exist (or is deleted).
        public static let notFound = Code(.notFound)
        /// HTTP 300: an external ID matched several records.
        public static let multipleMatches = Code(.multipleMatches)
        /// HTTP 412: a conditional request's precondition failed, i.e. the record changed on the
        /// server after the given `If-Unmodified-Since` date.
        public static let conflict = Code(.conflict)
        /// HTTP 304 on a request that cannot use it.
        public static let notModified = Code(.notModified)
        /// HTTP 5xx, still failing after the retries.
        public static let serverError = Code(.serverError)
        /// The org could not be reached, or the connection dropped, still failing after the retries.
        public static let connectionFailed = Code(.connectionFailed)
        /// No answer within the request timeout, still failing after the retries.
        public static let timeout = Code(.timeout)
        /// The connection dropped after a non-idempotent request (a create) was sent: the org may
        /// or may not have applied it, so it was not retried. Look the record up before resending.
        public static let responseLost = Code(.responseLost)
        /// The org answered with something that is not the documented wire shape.
        public static let invalidResponse = Code(.invalidResponse)
        /// The OAuth token endpoint refused the grant (`invalid_grant`, `invalid_client`…).
        public static let oauth = Code(.oauth)

        public var description: String { base.rawValue }
    }

    /// What kind of failure this is.
    public var code: Code
    /// What failed and, when known, how to fix it.
    public var message: String
    /// The HTTP method of the failing request, when there was one.
    public var method: String?
    /// The path of the failing request without its query string, when there was one.
    public var path: String?
    /// The HTTP status the org answered with, when it answered.
    public var httpStatus: Int?
    /// The entries of the org's error array (or the OAuth error), when it sent one.
    public var serverErrors: [OrgErrorDetail]
    /// How many attempts were made before giving up (1 when the request was not retried).
    public var attempts: Int
    /// The lower-level error (transport, JSON syntax), when there is one.
    public var underlying: (any Error & Sendable)?

    /// Creates an error; the module builds its errors in `OrgClientError+Messages.swift`.
    public init(
        code: Code,
        message: String,
        method: String? = nil,
        path: String? = nil,
        httpStatus: Int? = nil,
        serverErrors: [OrgErrorDetail] = [],
        attempts: Int = 1,
        underlying: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.message = message
        self.method = method
        self.path = path
        self.httpStatus = httpStatus
        self.serverErrors = serverErrors
        self.attempts = attempts
        self.underlying = underlying
    }

    /// The first Salesforce `errorCode` of the response (`MALFORMED_QUERY`, `INVALID_SESSION_ID`…).
    public var serverErrorCode: String? { serverErrors.first?.errorCode }
}

extension OrgClientError: CustomStringConvertible {
    /// `code: message`, the form the CLI prints.
    public var description: String { "\(code): \(message)" }
}
