import Foundation
import LocalOrg
import Logging
import OrgClient
import SyncrunTestSupport

extension LocalOrgFixture {
    /// A retry policy with short, jitter-free delays; the recording clock skips them anyway.
    static let testRetryPolicy = RetryPolicy(
        maxAttempts: 4,
        baseDelay: .milliseconds(10),
        maxDelay: .milliseconds(80),
        jitter: 0
    )

    /// Runs `body` with a REST client pointed at this org.
    func withClient<Result>(
        accessToken: String? = nil,
        retryPolicy: RetryPolicy = LocalOrgFixture.testRetryPolicy,
        apiVersion: String = OrgEndpoint.defaultAPIVersion,
        refresher: (@Sendable () async throws -> String)? = nil,
        maxResponseBytes: Int = 256 * 1024 * 1024,
        _ body: (RESTOrgClient, RecordingClock, RecordingLogHandler.Storage) async throws -> Result
    ) async throws -> Result {
        let clock = RecordingClock()
        let (logger, logs) = RecordingLogHandler.makeLogger()
        let endpoint = try OrgEndpoint(
            baseURL: baseURL.absoluteString,
            accessToken: accessToken ?? self.accessToken,
            apiVersion: apiVersion
        )
        let configuration = RESTOrgClient.Configuration(
            endpoint: endpoint,
            requestTimeout: .seconds(30),
            retryPolicy: retryPolicy,
            maxResponseBytes: maxResponseBytes,
            clock: clock,
            accessTokenRefresher: refresher
        )
        return try await withRESTOrgClient(configuration: configuration, logger: logger) { client in
            try await body(client, clock, logs)
        }
    }
}

extension QueryPage {
    /// The records of the page, parsed (tests only; the engine never does this).
    func records() throws -> [OrgValue] {
        try body.parse()["records"]?.arrayValue ?? []
    }
}

extension OrgClient {
    /// Creates `count` Accounts named `prefix 0`, `prefix 1`… through collections, 200 per call.
    func seedAccounts(_ count: Int, prefix: String = "Account") async throws -> [String] {
        var ids: [String] = []
        var index = 0
        while index < count {
            let chunk = (index..<min(count, index + 200)).map { number in
                SObjectRecord(objectType: "Account", fields: ["Name": .string("\(prefix) \(number)")])
            }
            let results = try await collection(.create(chunk), allOrNone: true)
            ids += results.compactMap(\.id)
            index += chunk.count
        }
        return ids
    }
}
