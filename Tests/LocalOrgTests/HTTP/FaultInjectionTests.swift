import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import SyncrunTestSupport
import Testing

@testable import LocalOrg

/// The fault options and the request log, end to end over HTTP.
struct FaultInjectionTests {
    @Test func failRateOneAnswersServerErrorsWithRealBodies() async throws {
        let faults = FaultConfiguration(failureRate: 1, seed: 7)
        try await LocalOrgFixture.with(configuration: LocalOrgConfiguration(faults: faults)) { org in
            var statuses = Set<Int>()
            for _ in 0..<20 {
                let response = try await org.client.send(.GET, "limits")
                statuses.insert(response.status)
                let code = try response.errorCode()
                #expect(code == (response.status == 503 ? "SERVER_UNAVAILABLE" : "UNKNOWN_EXCEPTION"))
            }
            #expect(statuses == [500, 503])
        }
    }

    @Test func failAfterDropsTheConnectionWithoutAResponse() async throws {
        let faults = FaultConfiguration(failAfter: 2)
        try await LocalOrgFixture.with(configuration: LocalOrgConfiguration(faults: faults)) { org in
            let client = org.client
            let first = try await client.send(.GET, "limits")
            let second = try await client.send(.GET, "limits")
            #expect(first.status == 200 && second.status == 200)
            let third: Result<TestResponse, any Error> = await captureResult { try await client.send(.GET, "limits") }
            #expect(throws: (any Error).self) { try third.get() }
        }
    }

    @Test func aLostResponseCommitsTheWriteThenDropsTheConnection() async throws {
        let faults = FaultConfiguration(loseResponses: [2])
        try await LocalOrgFixture.with(configuration: LocalOrgConfiguration(faults: faults)) { org in
            let client = org.client
            let first = try await client.send(.POST, "sobjects/Account", json: ["Name": "Answered"])
            #expect(first.status == 201)
            let lost: Result<TestResponse, any Error> = await captureResult {
                try await client.send(.POST, "sobjects/Account", json: ["Name": "Lost"])
            }
            #expect(throws: (any Error).self) { try lost.get() }
            let third = try await client.send(.POST, "sobjects/Account", json: ["Name": "Answered again"])
            #expect(third.status == 201)
            let lostRows = try org.database.query("SELECT Id FROM Account WHERE Name = 'Lost'", apiVersion: "62.0")
            #expect(lostRows.totalSize == 1)
        }
    }

    @Test func theRequestObserverSeesEachRequestBeforeItIsServed() async throws {
        let seen = NIOLockedValueBox<[String]>([])
        let configuration = LocalOrgConfiguration(requestObserver: { method, target in
            seen.withLockedValue { $0.append("\(method) \(target)") }
        })
        try await LocalOrgFixture.with(configuration: configuration) { org in
            _ = try await org.client.send(.GET, "limits")
            #expect(
                seen.withLockedValue { $0 }.count == 1
                    && seen.withLockedValue { $0 }[0].hasPrefix("GET /services/data/v")
            )
        }
    }

    @Test func latencyDelaysEveryResponse() async throws {
        let faults = FaultConfiguration(latency: .milliseconds(150))
        try await LocalOrgFixture.with(configuration: LocalOrgConfiguration(faults: faults)) { org in
            let started = ContinuousClock.now
            let response = try await org.client.send(.GET, "limits")
            #expect(response.status == 200)
            #expect(ContinuousClock.now - started >= .milliseconds(150))
        }
    }

    @Test func requestLimitAnswers403OnceUsedUp() async throws {
        try await LocalOrgFixture.with(configuration: LocalOrgConfiguration(apiRequestLimit: 2)) { org in
            let client = org.client
            #expect(try await client.send(.GET, "limits").headers.first(name: "Sforce-Limit-Info") == "api-usage=1/2")
            #expect(try await client.send(.GET, "limits").status == 200)
            let refused = try await client.send(.GET, "limits")
            #expect(refused.status == 403)
            #expect(
                refused.text
                    == #"[{"message":"TotalRequests Limit exceeded.","errorCode":"REQUEST_LIMIT_EXCEEDED","fields":[]}]"#
            )
            #expect(refused.headers.first(name: "Sforce-Limit-Info") == "api-usage=2/2")
            // The versions list is not an API call and stays available.
            #expect(try await client.send(.GET, "/services/data", token: .none).status == 200)
        }
    }

    @Test func requestLogHasOneJSONLinePerRequest() async throws {
        try await TemporaryDirectory.with { directory in
            let logURL = directory.appendingPathComponent("requests.jsonl")
            let configuration = LocalOrgConfiguration(accessToken: "secret-token", requestLogURL: logURL)
            try await LocalOrgFixture.with(configuration: configuration) { org in
                let client = org.client
                let before = Date().timeIntervalSince1970 * 1000
                _ = try await client.send(.GET, "query?q=SELECT+Id+FROM+Account")
                _ = try await client.send(.POST, "sobjects/Account", json: ["Name": "A"])
                _ = try await client.send(.GET, "limits", token: .some("wrong"))
                let text = try String(contentsOf: logURL, encoding: .utf8)
                let entries = try text.split(separator: "\n").map {
                    try JSONDecoder().decode(RequestLogEntry.self, from: Data($0.utf8))
                }
                #expect(entries.map(\.method) == ["GET", "POST", "GET"])
                #expect(
                    entries.map(\.path) == [
                        "/services/data/v59.0/query?q=SELECT+Id+FROM+Account", "/services/data/v59.0/sobjects/Account",
                        "/services/data/v59.0/limits",
                    ]
                )
                #expect(entries.map(\.status) == [200, 201, 401])
                #expect(entries.allSatisfy { $0.durationMs >= 0 })
                // Each request's arrival, in order, within the test's own clock (sent one after another:
                // each starts after the one before it ended).
                let starts = entries.compactMap(\.startedAt)
                #expect(starts.count == 3 && starts.first.map { $0 >= before - 1 } == true)
                for (earlier, later) in zip(entries, entries.dropFirst()) {
                    #expect((later.startedAt ?? 0) >= (earlier.startedAt ?? .infinity) + earlier.durationMs - 1)
                }
                #expect(!text.contains("secret-token"))
            }
        }
    }

    @Test func droppedConnectionsAreLoggedWithoutStatus() async throws {
        try await TemporaryDirectory.with { directory in
            let logURL = directory.appendingPathComponent("requests.jsonl")
            let configuration = LocalOrgConfiguration(faults: FaultConfiguration(failAfter: 0), requestLogURL: logURL)
            try await LocalOrgFixture.with(configuration: configuration) { org in
                let dropped: Result<TestResponse, any Error> = await captureResult {
                    try await org.client.send(.GET, "limits")
                }
                #expect(throws: (any Error).self) { try dropped.get() }
                let line = try #require(try String(contentsOf: logURL, encoding: .utf8).split(separator: "\n").first)
                let entry = try JSONDecoder().decode(RequestLogEntry.self, from: Data(line.utf8))
                #expect(entry.status == nil)
            }
        }
    }
}

/// The fault injector's state machine on its own.
struct FaultPlanTests {
    @Test func sameSeedGivesTheSameFailures() {
        let configuration = FaultConfiguration(failureRate: 0.3, seed: 42)
        var first = FaultPlan(configuration: configuration)
        var second = FaultPlan(configuration: configuration)
        let a = (0..<200).map { _ in first.nextAction() }
        let b = (0..<200).map { _ in second.nextAction() }
        #expect(a == b)
        let failures = a.filter { $0 != .serve }.count
        #expect((30...90).contains(failures))
    }

    @Test func noFaultsServesEverything() {
        var plan = FaultPlan(configuration: .none)
        #expect((0..<100).allSatisfy { _ in plan.nextAction() == .serve })
    }

    @Test func failAfterServesNThenDropsEveryLaterRequest() {
        var plan = FaultPlan(configuration: FaultConfiguration(failAfter: 3))
        let actions = (0..<5).map { _ in plan.nextAction() }
        #expect(actions == [.serve, .serve, .serve, .dropConnection, .dropConnection])
    }

    @Test func loseResponsesServesThoseRequestsThenDrops() {
        var plan = FaultPlan(configuration: FaultConfiguration(loseResponses: [2, 4]))
        let actions = (0..<5).map { _ in plan.nextAction() }
        #expect(actions == [.serve, .serveThenDropConnection, .serve, .serveThenDropConnection, .serve])
    }

    @Test func rateOneAlwaysFailsWith500Or503() {
        var plan = FaultPlan(configuration: FaultConfiguration(failureRate: 1, seed: 1))
        for _ in 0..<50 {
            let action = plan.nextAction()
            #expect(action == .fail(status: 500) || action == .fail(status: 503))
        }
    }

    @Test func dropRateDropsConnectionsBeforeOrAfterServingAndIsSeeded() {
        var always = FaultPlan(configuration: FaultConfiguration(seed: 7, dropRate: 1))
        let dropped = (0..<200).map { _ in always.nextAction() }
        let before = dropped.count { $0 == .dropConnection }
        let after = dropped.count { $0 == .serveThenDropConnection }
        #expect(before + after == 200)
        #expect(before > 50 && after > 50)

        let configuration = FaultConfiguration(failureRate: 0.1, seed: 42, dropRate: 0.1)
        var first = FaultPlan(configuration: configuration)
        var second = FaultPlan(configuration: configuration)
        let actions = (0..<1000).map { _ in first.nextAction() }
        #expect(actions == (0..<1000).map { _ in second.nextAction() })
        let drops = actions.count { $0 == .dropConnection || $0 == .serveThenDropConnection }
        let failures = actions.count { if case .fail = $0 { true } else { false } }
        #expect((60...140).contains(drops), "\(drops) drops")
        #expect((50...130).contains(failures), "\(failures) failures")
        #expect(FaultConfiguration(dropRate: 0.5).isActive)
    }
}
