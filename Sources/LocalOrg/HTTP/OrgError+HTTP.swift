/// The errors of the HTTP layer (auth, limits, routing, faults, composite), written in one place.
extension OrgError.Code {
    /// A missing, wrong or expired access token (401).
    static let invalidSessionID = OrgError.Code("INVALID_SESSION_ID")
    /// The API request allocation is used up (403).
    static let requestLimitExceeded = OrgError.Code("REQUEST_LIMIT_EXCEEDED")
    /// An injected 503.
    static let serverUnavailable = OrgError.Code("SERVER_UNAVAILABLE")
    /// The method is not allowed on the resource (405).
    static let methodNotAllowed = OrgError.Code("METHOD_NOT_ALLOWED")
    /// A composite batch subrequest after a failure with `haltOnError` (412).
    static let batchProcessingHalted = OrgError.Code("BATCH_PROCESSING_HALTED")
    /// A composite subrequest rolled back or skipped (400).
    static let processingHalted = OrgError.Code("PROCESSING_HALTED")
    /// A collection record rolled back because another failed under `allOrNone`.
    static let allOrNoneOperationRolledBack = OrgError.Code("ALL_OR_NONE_OPERATION_ROLLED_BACK")
    /// A request that is well-formed JSON but not what the resource expects.
    static let invalidRequest = OrgError.Code("INVALID_REQUEST")
    /// Too many records or subrequests in one call.
    static let exceededIDLimit = OrgError.Code("EXCEEDED_ID_LIMIT")
    /// A request body above the configured maximum (413).
    static let requestTooLarge = OrgError.Code("REQUEST_ENTITY_TOO_LARGE")
}

extension OrgError {
    /// The 401 every data request without a valid token gets.
    static let invalidSession = OrgError(status: 401, code: .invalidSessionID, message: "Session expired or invalid")

    /// The 403 once the API request allocation is used up.
    static let requestLimitExceeded = OrgError(
        status: 403,
        code: .requestLimitExceeded,
        message: "TotalRequests Limit exceeded."
    )

    /// The body of an injected server error.
    static func injectedFailure(status: Int) -> OrgError {
        if status == 503 {
            return OrgError(
                status: 503,
                code: .serverUnavailable,
                message: "Server temporarily unavailable; retry the request (injected by --fail-rate)"
            )
        }
        return OrgError(
            status: 500,
            code: .storage,
            message:
                "An unexpected error occurred. Please include this ErrorId if you contact support: local-org-fault (injected by --fail-rate)"
        )
    }

    /// A path the local org does not serve.
    static let resourceNotFound = OrgError(
        status: 404,
        code: .notFound,
        message: "The requested resource does not exist"
    )

    /// A method the resource does not accept.
    static func methodNotAllowed(_ method: String, allowed: [String]) -> OrgError {
        OrgError(
            status: 405,
            code: .methodNotAllowed,
            message: "HTTP Method '\(method)' not allowed. Allowed are \(allowed.joined(separator: ","))"
        )
    }

    /// A required query parameter such as `q` or `ids` is missing.
    static func missingParameter(_ name: String) -> OrgError {
        OrgError(
            status: 400,
            code: .malformedQuery,
            message: "A query string has to be specified: parameter '\(name)' is missing"
        )
    }

    /// A body that is valid JSON but has the wrong shape for the resource.
    /// A query parameter the resource cannot take (`INVALID_INPUT`, 400).
    static func invalidParameter(_ reason: String) -> OrgError {
        OrgError(status: 400, code: .invalidInput, message: reason)
    }

    static func invalidBody(_ reason: String) -> OrgError {
        OrgError(status: 400, code: .jsonParserError, message: reason)
    }

    /// A request that exceeds a per-call maximum (records, IDs, subrequests).
    static func tooMany(_ what: String, maximum: Int) -> OrgError {
        OrgError(status: 400, code: .exceededIDLimit, message: "Too many \(what): the maximum is \(maximum)")
    }

    /// A conditional header that cannot be parsed (400, §4.5).
    static func malformedConditionalHeader(_ name: String) -> OrgError {
        OrgError(status: 400, code: .invalidRequest, message: "The '\(name)' header is malformed")
    }

    /// A body larger than the configured maximum.
    static func requestTooLarge(maximum: Int) -> OrgError {
        OrgError(status: 413, code: .requestTooLarge, message: "The request body is larger than \(maximum) bytes")
    }

    /// A composite or batch subrequest whose url is itself a composite resource (composite, batch,
    /// tree, graph); see ``OrgAPI/namesCompositeResource(_:)`` for what a real org allows.
    static let nestedComposite = OrgError(
        status: 400,
        code: .invalidInput,
        message:
            "A composite or batch subrequest cannot be a composite, batch, tree or graph request; "
            + "send it as a request of its own"
    )

    /// A composite batch subrequest not run because an earlier one failed with `haltOnError`.
    static let batchHalted = OrgError(
        status: 412,
        code: .batchProcessingHalted,
        message: "Batch processing halted per request because an earlier subrequest failed"
    )

    /// A composite subrequest rolled back or skipped.
    static let processingHalted = OrgError(
        status: 400,
        code: .processingHalted,
        message: "The transaction was rolled back since another operation in the same transaction failed."
    )

    /// A composite subrequest whose reference names a failed or unknown subrequest.
    static func unresolvedReference(_ reference: String) -> OrgError {
        OrgError(
            status: 400,
            code: .processingHalted,
            message:
                "Invalid reference specified. No value for \(reference) found in the results of earlier subrequests."
        )
    }

    /// The per-record error of a collection record rolled back by `allOrNone`.
    static let allOrNoneRolledBack = OrgError(
        status: 400,
        code: .allOrNoneOperationRolledBack,
        message: "Record rolled back because not all records were valid and the request was using AllOrNone header"
    )

    /// A problem with the server's own settings (certificates, log file), reported before it starts.
    static func configuration(_ message: String) -> OrgError {
        OrgError(status: 400, code: .invalidInput, message: message)
    }
}
