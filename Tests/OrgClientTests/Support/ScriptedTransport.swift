import Foundation
import Logging
import SyncrunTestSupport

@testable import OrgClient

/// A transport that answers from a script and records every request, for the failure paths a
/// real server cannot produce on demand (a dropped connection after a POST was sent).
final class ScriptedTransport: @unchecked Sendable {
    // Safe: `steps` and `sent` are only touched while `lock` is held.
    enum Step {
        case respond(Int, body: String = "", headers: [(name: String, value: String)] = [])
        case fail(TransportFailure.Kind)
    }

    struct SentRequest {
        var method: String
        var target: String
        var headers: [(name: String, value: String)]
        var body: String?
        var accessToken: String?

        func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }
    }

    private let lock = NSLock()
    private var steps: [Step]
    private var sent: [SentRequest] = []

    init(_ steps: [Step]) {
        self.steps = steps
    }

    var requests: [SentRequest] { lock.withLock { sent } }

    func send(baseURL: String, request: OutgoingRequest, accessToken: String?) throws -> IncomingResponse {
        let step: Step = try lock.withLock {
            sent.append(
                SentRequest(
                    method: request.method.rawValue,
                    target: request.target,
                    headers: request.headers,
                    body: request.body,
                    accessToken: accessToken
                )
            )
            guard !steps.isEmpty else { throw TransportFailure(kind: .connectFailed, underlying: CancellationError()) }
            return steps.removeFirst()
        }
        switch step {
        case .respond(let status, let body, let headers):
            return IncomingResponse(status: status, headers: headers, body: body)
        case .fail(let kind):
            throw TransportFailure(kind: kind, underlying: URLError(.networkConnectionLost))
        }
    }

    /// A client on this transport with a recording clock and logger.
    func makeClient(
        token: String = "SECRET-TOKEN",
        policy: RetryPolicy = RetryPolicy(
            maxAttempts: 4,
            baseDelay: .milliseconds(100),
            maxDelay: .seconds(1),
            jitter: 0
        ),
        refresher: (@Sendable () async throws -> String)? = nil
    ) throws -> (RESTOrgClient, RecordingClock, RecordingLogHandler.Storage) {
        let clock = RecordingClock()
        let (logger, logs) = RecordingLogHandler.makeLogger()
        let configuration = RESTOrgClient.Configuration(
            endpoint: try OrgEndpoint(baseURL: "https://org.example.com", accessToken: token),
            retryPolicy: policy,
            clock: clock,
            accessTokenRefresher: refresher
        )
        let client = RESTOrgClient(configuration: configuration, logger: logger) { baseURL, request, accessToken in
            try self.send(baseURL: baseURL, request: request, accessToken: accessToken)
        }
        return (client, clock, logs)
    }
}
