import Logging

extension RESTOrgClient {
    /// Sends a request, retrying per the policy, and returns a successful response.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - acceptedStatuses: Non-2xx statuses to return instead of throwing (e.g. 304).
    /// - Throws: ``OrgClientError`` for failing statuses and transport failures;
    ///   `CancellationError` when the task is cancelled (also during a backoff sleep).
    func send(_ request: OutgoingRequest, acceptedStatuses: Set<Int> = []) async throws -> IncomingResponse {
        var machine = RetryStateMachine(policy: configuration.retryPolicy, isIdempotent: request.isIdempotent)
        var hasRefreshedToken = false
        var requestLogger = logger
        requestLogger[metadataKey: "sf.request.method"] = "\(request.method.rawValue)"
        // The path without its query string: a SOQL query can carry record values.
        requestLogger[metadataKey: "sf.request.path"] = "\(request.path.prefix { $0 != "?" })"
        let baseURL = configuration.endpoint.baseURL
        let bodyBytes = request.body?.utf8.count ?? 0

        while true {
            try Task.checkCancellation()
            let token = request.isAuthenticated ? state.withLockedValue { $0.accessToken } : nil
            let failedWithToken = hasRefreshedToken
            state.withLockedValue {
                $0.statistics.requests += 1
                $0.statistics.bytesSent += bodyBytes
            }
            requestLogger.trace("Sending request", metadata: ["sf.request.attempt": "\(machine.attempt)"])
            let started = ContinuousClock.now

            let outcome: RetryStateMachine.Outcome
            let failure: Result<IncomingResponse, TransportFailure>
            do {
                let response = try await transport(baseURL, request, token)
                record(response)
                requestLogger.debug(
                    "Org request",
                    metadata: [
                        "sf.response.status": "\(response.status)",
                        "sf.request.duration": "\(Self.milliseconds(ContinuousClock.now - started))ms",
                    ]
                )
                if (200..<300).contains(response.status) || acceptedStatuses.contains(response.status) {
                    return response
                }
                if response.status == 401, !hasRefreshedToken, request.isAuthenticated,
                    let refresher = configuration.accessTokenRefresher, let token
                {
                    hasRefreshedToken = true
                    requestLogger.debug("Getting a new access token after HTTP 401")
                    do {
                        _ = try await renewAccessToken(replacing: token, with: refresher)
                    } catch is CancellationError {
                        throw CancellationError()
                    } catch let error as OrgClientError where configuration.authenticationAdvice == nil {
                        throw error
                    } catch {
                        throw OrgClientError.tokenRefreshFailed(
                            error,
                            request: request,
                            advice: configuration.authenticationAdvice
                        )
                    }
                    continue
                }
                if response.status == 401, request.isAuthenticated, let advice = configuration.authenticationAdvice {
                    throw OrgClientError.sessionRefused(
                        response,
                        request: request,
                        advice: advice,
                        afterRenewal: failedWithToken
                    )
                }
                let errorCode = OrgErrorDetail.parseErrorBody(response.body).first?.errorCode
                outcome = .response(status: response.status, errorCode: errorCode)
                failure = .success(response)
            } catch var error as OrgClientError where error.path == nil {
                error.method = request.method.rawValue
                error.path = request.path
                throw error
            } catch let transportFailure as TransportFailure {
                requestLogger.trace(
                    "Request failed below HTTP",
                    metadata: ["sf.error": "\(String(describing: transportFailure.underlying))"]
                )
                outcome = transportFailure.kind == .connectFailed ? .connectFailed : .responseLost
                failure = .failure(transportFailure)
            }

            switch machine.next(after: outcome, randomUnit: Double.random(in: 0..<1)) {
            case .retry(let delay):
                state.withLockedValue { $0.statistics.retries += 1 }
                requestLogger.debug(
                    "Retrying request",
                    metadata: [
                        "sf.retry.attempt": "\(machine.attempt)",
                        "sf.retry.delay": "\(delay)",
                        "sf.retry.reason": "\(Self.describe(outcome))",
                    ]
                )
                try await configuration.clock.sleep(for: delay)
            case .fail(let reason):
                switch failure {
                case .success(let response):
                    throw OrgClientError.httpFailure(response, request: request, attempts: machine.attempt)
                case .failure(let transportFailure):
                    throw OrgClientError.transportFailure(
                        transportFailure,
                        request: request,
                        baseURL: baseURL,
                        attempts: machine.attempt,
                        isUnsafeToRetry: reason == .unsafeToRetry
                    )
                }
            }
        }
    }

    /// Replaces the access token `used` by a new one from `refresher`, once however many requests
    /// ask: the first caller starts the refresh, concurrent callers await the same one, and a
    /// caller whose token was already replaced gets the current token without a refresh.
    ///
    /// - Returns: The token to retry with.
    /// - Throws: What `refresher` throws (to every caller that awaited that refresh).
    func renewAccessToken(
        replacing used: String,
        with refresher: @escaping @Sendable () async throws -> String
    ) async throws -> String {
        enum Step {
            case use(String)
            case await(Task<String, any Error>)
        }
        let step: Step = state.withLockedValue { shared in
            if shared.accessToken != used { return .use(shared.accessToken) }
            if let running = shared.renewal { return .await(running) }
            let task = Task { try await refresher() }
            shared.renewal = task
            return .await(task)
        }
        switch step {
        case .use(let current):
            return current
        case .await(let task):
            do {
                let token = try await task.value
                state.withLockedValue { shared in
                    guard shared.renewal == task else { return }
                    shared.renewal = nil
                    shared.accessToken = token
                    shared.statistics.tokenRenewals += 1
                }
                return token
            } catch {
                state.withLockedValue { shared in
                    if shared.renewal == task { shared.renewal = nil }
                }
                throw error
            }
        }
    }

    /// Sends a request and parses the JSON body of the successful response.
    func sendForJSON(_ request: OutgoingRequest) async throws -> OrgValue {
        let response = try await send(request)
        return try parseJSON(response, of: request)
    }

    func parseJSON(_ response: IncomingResponse, of request: OutgoingRequest) throws -> OrgValue {
        do {
            return try OrgValue(parsing: response.body)
        } catch var error as OrgClientError {
            error.method = request.method.rawValue
            error.path = request.path
            error.httpStatus = response.status
            throw error
        }
    }

    private func record(_ response: IncomingResponse) {
        let usage = response.header("Sforce-Limit-Info").flatMap(APIUsage.init(limitInfoHeader:))
        state.withLockedValue {
            $0.statistics.bytesReceived += response.body.utf8.count
            if let usage { $0.statistics.apiUsage = usage }
        }
    }

    private static func describe(_ outcome: RetryStateMachine.Outcome) -> String {
        switch outcome {
        case .response(let status, let errorCode): errorCode.map { "HTTP \(status) \($0)" } ?? "HTTP \(status)"
        case .connectFailed: "connect failed"
        case .responseLost: "connection lost"
        }
    }

    /// A duration in whole milliseconds, for request logs.
    static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}
