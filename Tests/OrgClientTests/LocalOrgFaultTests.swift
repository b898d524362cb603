import Foundation
import LocalOrg
import OrgClient
import SyncrunTestSupport
import Testing

/// Retries, limits and dropped connections against the local org's fault injection.
struct LocalOrgFaultTests {
    @Test func retriesInjectedServerErrorsAndStillReturnsExactResults() async throws {
        let faults = FaultConfiguration(failureRate: 0.3, seed: 42)
        try await LocalOrgFixture.with(configuration: LocalOrgConfiguration(pageSize: 5, faults: faults)) { org in
            // Seed with the database directly: these writes must not meet the injected faults.
            let seeded = try org.database.write { writer in
                try (0..<25).map { try writer.create("Account", fields: ["Name": .string("Account \($0)")]) }
            }
            let policy = RetryPolicy(
                maxAttempts: 10,
                baseDelay: .milliseconds(1),
                maxDelay: .milliseconds(5),
                jitter: 0
            )
            try await org.withClient(retryPolicy: policy) { client, clock, logs in
                var names: [String] = []
                for try await page in client.queryPages(
                    "SELECT Id, Name FROM Account ORDER BY Name",
                    options: .init()
                ) {
                    names += try page.records().compactMap { $0["Name"]?.stringValue }
                }
                #expect(names == (0..<25).map { "Account \($0)" }.sorted())
                for id in seeded.prefix(5) {
                    try await client.update("Account", id: id, fields: ["Industry": "Banking"])
                }
                let statistics = client.statistics()
                #expect(statistics.retries > 0)
                #expect(statistics.requests == 5 + 5 + statistics.retries)
                #expect(clock.sleeps.count == statistics.retries)
                #expect(logs.entries.filter { $0.message == "Retrying request" }.count == statistics.retries)
                let page = try await client.queryFirstPage(
                    "SELECT Id FROM Account WHERE Industry = 'Banking'",
                    options: .init()
                )
                #expect(page.totalSize == 5)
            }
        }
    }

    @Test func retriesInjectedServerErrorsOnReadsAndIdempotentWrites() async throws {
        let faults = FaultConfiguration(failureRate: 0.4, seed: 7)
        try await LocalOrgFixture.with(configuration: LocalOrgConfiguration(faults: faults)) { org in
            let seeded = try org.database.write { writer in
                try (0..<10).map { try writer.create("Account", fields: ["Name": .string("Account \($0)")]) }
            }
            let policy = RetryPolicy(
                maxAttempts: 12,
                baseDelay: .milliseconds(1),
                maxDelay: .milliseconds(5),
                jitter: 0
            )
            try await org.withClient(retryPolicy: policy) { client, clock, logs in
                for id in seeded {
                    try await client.update("Account", id: id, fields: ["Industry": "Banking"])
                }
                var names: [String] = []
                for id in seeded {
                    let record = try await client.retrieve("Account", id: id, fields: ["Name", "Industry"]).parse()
                    #expect(record["Industry"] == "Banking")
                    names += record["Name"]?.stringValue.map { [$0] } ?? []
                }
                #expect(names == (0..<10).map { "Account \($0)" })
                let page = try await client.queryFirstPage(
                    "SELECT Id FROM Account WHERE Industry = 'Banking'",
                    options: .init()
                )
                #expect(page.totalSize == 10)

                let statistics = client.statistics()
                #expect(statistics.retries > 0)
                #expect(statistics.requests == 10 + 10 + 1 + statistics.retries)
                #expect(clock.sleeps.count == statistics.retries)
                let retryLogs = logs.entries.filter { $0.message == "Retrying request" }
                #expect(retryLogs.count == statistics.retries)
                #expect(retryLogs.allSatisfy { $0.level == .debug && $0.metadata["sf.retry.attempt"] != nil })
            }
        }
    }

    @Test func anExhaustedRequestLimitFailsAfterTheRetries() async throws {
        try await LocalOrgFixture.with(configuration: LocalOrgConfiguration(apiRequestLimit: 3)) { org in
            try await org.withClient { client, clock, _ in
                for _ in 0..<3 {
                    _ = try await client.queryFirstPage("SELECT Id FROM Account", options: .init())
                }
                #expect(client.statistics().apiUsage == APIUsage(used: 3, max: 3))
                let error = await #expect(throws: OrgClientError.self) {
                    _ = try await client.queryFirstPage("SELECT Id FROM Account", options: .init())
                }
                #expect(error?.code == .requestLimitExceeded)
                #expect(error?.httpStatus == 403)
                #expect(error?.attempts == 4)
                #expect(clock.sleeps == [.milliseconds(10), .milliseconds(20), .milliseconds(40)])
                #expect(client.statistics().retries == 3)
            }
        }
    }

    @Test func droppedConnectionsAreRetriedForReadsAndReportedForCreates() async throws {
        try await LocalOrgFixture.with(configuration: LocalOrgConfiguration(faults: FaultConfiguration(failAfter: 2))) {
            org in
            try await org.withClient { client, _, _ in
                _ = try await client.queryFirstPage("SELECT Id FROM Account", options: .init())
                _ = try await client.describe("Account")

                let read = await #expect(throws: OrgClientError.self) {
                    _ = try await client.queryFirstPage("SELECT Id FROM Account", options: .init())
                }
                #expect(read?.code == .connectionFailed)
                #expect(read?.attempts == 4)

                let before = client.statistics().requests
                let create = await #expect(throws: OrgClientError.self) {
                    _ = try await client.create("Account", fields: ["Name": "Lost"])
                }
                #expect(create?.code == .responseLost)
                #expect(client.statistics().requests == before + 1)
            }
        }
    }

    @Test func anUnreachableOrgIsAConnectionFailure() async throws {
        // Bind a port through a local org, then stop it, so nothing listens there.
        let url = try await LocalOrgFixture.with { org in org.baseURL.absoluteString }
        let endpoint = try OrgEndpoint(baseURL: url, accessToken: "t")
        let clock = RecordingClock()
        let configuration = RESTOrgClient.Configuration(
            endpoint: endpoint,
            connectTimeout: .seconds(2),
            retryPolicy: RetryPolicy(maxAttempts: 2, baseDelay: .milliseconds(1), jitter: 0),
            clock: clock
        )
        let (logger, _) = RecordingLogHandler.makeLogger()
        try await withRESTOrgClient(configuration: configuration, logger: logger) { client in
            let error = await #expect(throws: OrgClientError.self) {
                _ = try await client.create("Account", fields: ["Name": "A"])
            }
            // Nothing was sent, so even a create is retried, and the failure is a connection one.
            #expect(error?.code == .connectionFailed)
            #expect(error?.attempts == 2)
        }
    }

    @Test func aResponseOverTheSizeLimitIsRefused() async throws {
        try await LocalOrgFixture.with { org in
            try await org.withClient(maxResponseBytes: 1024) { client, _, _ in
                let error = await #expect(throws: OrgClientError.self) {
                    _ = try await client.describe("Account")
                }
                #expect(error?.code == .invalidResponse)
                #expect(error?.attempts == 1)
                #expect(error?.path == "/services/data/v62.0/sobjects/Account/describe")
                #expect(
                    error?.message
                        == "the response is larger than the configured maximum; raise maxResponseBytes or ask for "
                        + "smaller pages"
                )
            }
        }
    }

    @Test func aRefresherRecoversFromAnExpiredToken() async throws {
        try await LocalOrgFixture.with { org in
            let token = org.accessToken
            try await org.withClient(accessToken: "expired", refresher: { token }) { client, _, logs in
                let page = try await client.queryFirstPage("SELECT Id FROM Account", options: .init())
                #expect(page.totalSize == 0)
                #expect(client.statistics().requests == 2)
                #expect(!logs.allText.contains(token))
            }
        }
    }

    @Test func theRefreshTokenGrantReturnsAUsableToken() async throws {
        try await LocalOrgFixture.with { org in
            try await org.withClient { client, _, _ in
                let oauth = try OAuthClient(loginURL: org.baseURL.absoluteString, orgClient: client)
                let token = try await oauth.refreshAccessToken(
                    RefreshTokenGrant(clientID: "syncrun", refreshToken: org.endpoint.refreshToken)
                )
                #expect(!token.accessToken.isEmpty)
                #expect(!"\(token)".contains(token.accessToken))
                try await org.withClient(accessToken: token.accessToken) { refreshed, _, _ in
                    _ = try await refreshed.queryFirstPage("SELECT Id FROM Account", options: .init())
                }
                let error = await #expect(throws: OrgClientError.self) {
                    _ = try await oauth.refreshAccessToken(
                        RefreshTokenGrant(clientID: "syncrun", refreshToken: "wrong")
                    )
                }
                #expect(error?.code == .oauth)
                #expect(error?.serverErrorCode == "invalid_grant")
            }
        }
    }
}
