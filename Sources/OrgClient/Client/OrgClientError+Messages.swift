import JSONCore

/// Every message of the module, built in one place so wording stays consistent. Messages name the
/// request by method and path (never the query string, which may carry values) and never include
/// the access token.
extension OrgClientError {
    static func invalidBaseURL(_ text: String) -> OrgClientError {
        OrgClientError(
            code: .invalidConfiguration,
            message: "'\(text)' is not an org URL; use http(s)://HOST[:PORT] with no path, for example "
                + "'https://mydomain.my.salesforce.com'"
        )
    }

    static func invalidAccessToken() -> OrgClientError {
        OrgClientError(
            code: .invalidConfiguration,
            message:
                "the access token is empty or contains a line break; pass it with --access-token or SF_ACCESS_TOKEN"
        )
    }

    static func unreadableCertificates(_ path: String, underlying: any Error) -> OrgClientError {
        OrgClientError(
            code: .invalidConfiguration,
            message: "cannot read trusted certificates from '\(path)': \(underlying); give a PEM file of CA "
                + "certificates (--ca-file or SSL_CERT_FILE)",
            underlying: underlying
        )
    }

    static func invalidProxy(_ source: String, _ redactedValue: String, _ reason: String) -> OrgClientError {
        OrgClientError(
            code: .invalidConfiguration,
            message: "\(source) '\(redactedValue)' is not a usable proxy: \(reason)"
        )
    }

    static func proxyRefused(_ server: ProxySettings.Server, authenticationRequired: Bool) -> OrgClientError {
        OrgClientError(
            code: .connectionFailed,
            message: authenticationRequired
                ? "the proxy \(server) asks for credentials (407 Proxy Authentication Required): check the user "
                    + "name and password in the proxy URL (--proxy or HTTPS_PROXY), written before its host as "
                    + "USER:PASSWORD@ (percent-encode any '@' or ':' in them)"
                : "the proxy \(server) refused to open a tunnel to the org: check that it allows CONNECT to the org's "
                    + "host and port, or list the host in NO_PROXY"
        )
    }

    static func invalidAPIVersion(_ text: String) -> OrgClientError {
        OrgClientError(
            code: .invalidConfiguration,
            message:
                "'\(text)' is not an API version; use the form NN.N, for example '\(OrgEndpoint.defaultAPIVersion)'"
        )
    }

    static func invalidArgument(_ message: String) -> OrgClientError {
        OrgClientError(code: .invalidArgument, message: message)
    }

    static func malformedJSON(_ error: JSONSyntaxError, context: String) -> OrgClientError {
        OrgClientError(
            code: .invalidResponse,
            message: "the org sent \(context) that is not valid JSON at byte \(error.offset): \(error.message)",
            underlying: error
        )
    }

    static func queryPageShape(missing key: String?) -> OrgClientError {
        let detail = key.map { "it has no '\($0)'" } ?? "it is not a JSON object"
        return OrgClientError(
            code: .invalidResponse,
            message: "the org sent a query response that is not a query page: \(detail)"
        )
    }

    static func unexpectedShape(_ what: String, request: OutgoingRequest) -> OrgClientError {
        OrgClientError(
            code: .invalidResponse,
            message: "\(request.method.rawValue) '\(request.path)' answered with \(what)",
            method: request.method.rawValue,
            path: request.path
        )
    }

    static func tokenRefreshFailed(
        _ error: any Error,
        request: OutgoingRequest,
        advice: OrgAuthenticationAdvice? = nil
    ) -> OrgClientError {
        let reason = (error as? OrgClientError)?.message ?? "\(error)"
        let org = advice.map { " '\($0.orgName)'" } ?? ""
        return OrgClientError(
            code: .authentication,
            message: "the org\(org) rejected the access token for \(request.method.rawValue) '\(request.path)' and "
                + "getting a new one failed: \(reason); \(advice?.fix ?? "check the refresh credentials")",
            method: request.method.rawValue,
            path: request.path,
            httpStatus: 401,
            underlying: error
        )
    }

    static func responseTooLarge(underlying: any Error) -> OrgClientError {
        OrgClientError(
            code: .invalidResponse,
            message:
                "the response is larger than the configured maximum; raise maxResponseBytes or ask for smaller pages",
            underlying: underlying
        )
    }

    static func unsafeNextRecordsURL(_ url: String) -> OrgClientError {
        OrgClientError(
            code: .invalidResponse,
            message: "the org sent a nextRecordsUrl '\(url)' that is not a path under /services/data/; "
                + "refusing to send the access token there"
        )
    }

    static func unsafeJobURL(_ url: String, expected path: String) -> OrgClientError {
        OrgClientError(
            code: .invalidResponse,
            message: "the org sent a Bulk results URL '\(url)' that is not '\(path)' with a query string; "
                + "refusing to send the access token there"
        )
    }

    /// The error for a 401 that a new token did not cure (or that nothing can renew), naming the
    /// org and the fix.
    static func sessionRefused(
        _ response: IncomingResponse,
        request: OutgoingRequest,
        advice: OrgAuthenticationAdvice,
        afterRenewal: Bool
    ) -> OrgClientError {
        let details = OrgErrorDetail.parseErrorBody(response.body)
        let server = details.first.map { " (\($0.errorCode): \($0.message))" } ?? ""
        let renewal = afterRenewal ? ", also with a new token," : ""
        return OrgClientError(
            code: .authentication,
            message: "the org '\(advice.orgName)' rejected the access token\(renewal) for "
                + "\(request.method.rawValue) '\(request.path)'\(server); \(advice.fix)",
            method: request.method.rawValue,
            path: request.path,
            httpStatus: 401,
            serverErrors: details
        )
    }

    /// The error for a failing HTTP status, after retries when there were any.
    static func httpFailure(
        _ response: IncomingResponse,
        request: OutgoingRequest,
        attempts: Int
    ) -> OrgClientError {
        let details = OrgErrorDetail.parseErrorBody(response.body)
        let target = "\(request.method.rawValue) '\(request.path)'"
        let server = details.first.map { " (\($0.errorCode): \($0.message))" } ?? ""
        let after = attempts > 1 ? " after \(attempts) attempts" : ""
        let code: Code
        let message: String
        switch response.status {
        case 300:
            code = .multipleMatches
            message = "\(target) matched several records\(server); use a unique external ID"
        case 304:
            code = .notModified
            message = "\(target) answered 304 Not Modified"
        case 401:
            code = .authentication
            message =
                "the org rejected the access token for \(target)\(server); get a new token (for example "
                + "'sf org auth show-access-token') and pass it with --access-token or SF_ACCESS_TOKEN"
        case 403 where details.first?.errorCode == "REQUEST_LIMIT_EXCEEDED":
            code = .requestLimitExceeded
            message =
                "the org refused \(target) because its API request limit is used up\(server)\(after); "
                + "wait for requests to free up in the 24-hour window or raise the org's limit"
        case 403:
            code = .forbidden
            message = "the org refused \(target)\(server); check the user's permissions"
        case 404:
            code = .notFound
            message = "\(target) found nothing\(server)"
        case 412:
            code = .conflict
            message =
                "\(target) was not applied because the record changed on the org after the given date"
                + "\(server); fetch it again before updating"
        case 500...599:
            code = .serverError
            message = "the org failed with HTTP \(response.status) on \(target)\(server)\(after); try again later"
        default:
            code = .badRequest
            message = "the org rejected \(target) with HTTP \(response.status)\(server)"
        }
        return OrgClientError(
            code: code,
            message: message,
            method: request.method.rawValue,
            path: request.path,
            httpStatus: response.status,
            serverErrors: details,
            attempts: attempts
        )
    }

    /// The error for a connection-level failure, after retries when there were any.
    static func transportFailure(
        _ failure: TransportFailure,
        request: OutgoingRequest,
        baseURL: String,
        attempts: Int,
        isUnsafeToRetry: Bool
    ) -> OrgClientError {
        let target = "\(request.method.rawValue) '\(request.path)'"
        let after = attempts > 1 ? " after \(attempts) attempts" : ""
        let code: Code
        let message: String
        if isUnsafeToRetry {
            code = .responseLost
            message =
                "the connection was lost after \(target) was sent, so it is unknown whether the org applied it; "
                + "it was not resent because it is not idempotent; look the record up before sending it again"
        } else {
            switch failure.kind {
            case .connectFailed:
                code = .connectionFailed
                message =
                    "could not connect to '\(baseURL)' for \(target)\(after); check the org URL and that the server is up"
            case .connectionDropped:
                code = .connectionFailed
                message = "the connection to '\(baseURL)' dropped during \(target)\(after); try again later"
            case .timedOut:
                code = .timeout
                message =
                    "\(target) got no answer within the request timeout\(after); raise the timeout or try again later"
            }
        }
        return OrgClientError(
            code: code,
            message: message,
            method: request.method.rawValue,
            path: request.path,
            attempts: attempts,
            underlying: failure.underlying
        )
    }
}
