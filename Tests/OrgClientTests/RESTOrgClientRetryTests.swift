import Foundation
import Logging
import Testing

@testable import OrgClient

/// The retry and error paths of the REST client, on a scripted transport.
struct RESTOrgClientRetryTests {
    static let page = #"{"totalSize":1,"done":true,"records":[{"Id":"001000000000001AAA"}]}"#
    static let created = #"{"id":"001000000000001AAA","success":true,"errors":[]}"#

    @Test func retriesServerErrorsWithBackoffAndLogsEachRetry() async throws {
        let transport = ScriptedTransport([
            .respond(503, body: #"[{"message":"down","errorCode":"SERVER_UNAVAILABLE"}]"#),
            .respond(502),
            .respond(200, body: Self.page, headers: [(name: "Sforce-Limit-Info", value: "api-usage=42/15000")]),
        ])
        let (client, clock, logs) = try transport.makeClient()
        let page = try await client.queryFirstPage("SELECT Id FROM Account", options: .init())
        #expect(page.totalSize == 1)
        #expect(clock.sleeps == [.milliseconds(100), .milliseconds(200)])
        let statistics = client.statistics()
        #expect(statistics.requests == 3)
        #expect(statistics.retries == 2)
        #expect(statistics.apiUsage == APIUsage(used: 42, max: 15000))
        #expect(statistics.bytesReceived == Self.page.utf8.count + 53)
        let retries = logs.entries.filter { $0.message == "Retrying request" }
        #expect(retries.map(\.level) == [.debug, .debug])
        #expect(retries.map { $0.metadata["sf.retry.attempt"]?.description } == ["2", "3"])
        #expect(retries.first?.metadata["sf.request.method"]?.description == "GET")
        #expect(retries.first?.metadata["sf.request.path"]?.description == "/services/data/v62.0/query")
        #expect(retries.first?.metadata["sf.retry.reason"]?.description == "HTTP 503 SERVER_UNAVAILABLE")
        #expect(!logs.allText.contains("SECRET"))
        #expect(!logs.allText.contains("SELECT"))
        #expect(transport.requests.allSatisfy { $0.accessToken == "SECRET-TOKEN" })
    }

    @Test func followsNextRecordsURLsWithTheBatchSize() async throws {
        func page(_ done: Bool, next: String?, ids: [Int]) -> String {
            let records = ids.map { #"{"Id":"\#($0)"}"# }.joined(separator: ",")
            let nextKey = next.map { #","nextRecordsUrl":"\#($0)""# } ?? ""
            return #"{"totalSize":5,"done":\#(done)\#(nextKey),"records":[\#(records)]}"#
        }
        let transport = ScriptedTransport([
            .respond(200, body: page(false, next: "/services/data/v62.0/queryAll/01gA-2", ids: [1, 2])),
            .respond(503),
            .respond(200, body: page(false, next: "/services/data/v62.0/queryAll/01gA-4?x=1", ids: [3, 4])),
            .respond(200, body: page(true, next: nil, ids: [5])),
        ])
        let (client, _, _) = try transport.makeClient()
        var ids: [String] = []
        for try await page in client.queryPages(
            "SELECT Id FROM Account",
            options: .init(batchSize: 200, includesDeleted: true)
        ) {
            ids += try page.records().compactMap { $0["Id"]?.stringValue }
        }
        #expect(ids == ["1", "2", "3", "4", "5"])
        #expect(
            transport.requests.map(\.target) == [
                "/services/data/v62.0/queryAll?q=SELECT%20Id%20FROM%20Account",
                "/services/data/v62.0/queryAll/01gA-2",
                "/services/data/v62.0/queryAll/01gA-2",
                "/services/data/v62.0/queryAll/01gA-4?x=1",
            ]
        )
        #expect(transport.requests.allSatisfy { $0.header("Sforce-Query-Options") == "batchSize=200" })
    }

    @Test func givesUpAfterMaxAttempts() async throws {
        let body = #"[{"message":"TotalRequests Limit exceeded.","errorCode":"REQUEST_LIMIT_EXCEEDED"}]"#
        let transport = ScriptedTransport(Array(repeating: .respond(403, body: body), count: 4))
        let (client, clock, _) = try transport.makeClient()
        let error = await #expect(throws: OrgClientError.self) {
            try await client.describeGlobal()
        }
        #expect(error?.code == .requestLimitExceeded)
        #expect(error?.attempts == 4)
        #expect(error?.httpStatus == 403)
        #expect(error?.serverErrorCode == "REQUEST_LIMIT_EXCEEDED")
        #expect(
            error?.message
                == "the org refused GET '/services/data/v62.0/sobjects' because its API request limit is used up "
                + "(REQUEST_LIMIT_EXCEEDED: TotalRequests Limit exceeded.) after 4 attempts; wait for requests to free up "
                + "in the 24-hour window or raise the org's limit"
        )
        #expect(clock.sleeps.count == 3)
        #expect(client.statistics().retries == 3)
    }

    @Test func aLostCreateIsNotResent() async throws {
        let transport = ScriptedTransport([.fail(.connectionDropped), .respond(201, body: Self.created)])
        let (client, _, _) = try transport.makeClient()
        let error = await #expect(throws: OrgClientError.self) {
            _ = try await client.create("Account", fields: ["Name": "Acme"])
        }
        #expect(error?.code == .responseLost)
        #expect(transport.requests.count == 1)
        #expect(
            error?.message
                == "the connection was lost after POST '/services/data/v62.0/sobjects/Account' was sent, so it is unknown "
                + "whether the org applied it; it was not resent because it is not idempotent; look the record up "
                + "before sending it again"
        )
    }

    @Test func aCreateWhoseConnectionFailedIsResent() async throws {
        let transport = ScriptedTransport([.fail(.connectFailed), .respond(201, body: Self.created)])
        let (client, _, _) = try transport.makeClient()
        let id = try await client.create("Account", fields: ["Name": "Acme"])
        #expect(id == "001000000000001AAA")
        #expect(transport.requests.count == 2)
        #expect(transport.requests.first?.body == #"{"Name":"Acme"}"#)
    }

    @Test func idempotentWritesAreResentAfterALostResponse() async throws {
        let transport = ScriptedTransport([.fail(.connectionDropped), .fail(.timedOut), .respond(204)])
        let (client, _, _) = try transport.makeClient()
        try await client.update("Account", id: "001000000000001AAA", fields: ["Name": "B"])
        #expect(transport.requests.map(\.method) == ["PATCH", "PATCH", "PATCH"])
    }

    @Test func aConnectionThatNeverComesUpFails() async throws {
        let transport = ScriptedTransport(Array(repeating: .fail(.connectFailed), count: 4))
        let (client, _, _) = try transport.makeClient()
        let error = await #expect(throws: OrgClientError.self) {
            try await client.delete("Account", id: "001000000000001AAA")
        }
        #expect(error?.code == .connectionFailed)
        #expect(
            error?.message
                == "could not connect to 'https://org.example.com' for DELETE "
                + "'/services/data/v62.0/sobjects/Account/001000000000001AAA' after 4 attempts; check the org URL "
                + "and that the server is up"
        )
    }

    @Test func anExpiredTokenIsReportedWithoutTheToken() async throws {
        let body = #"[{"message":"Session expired or invalid","errorCode":"INVALID_SESSION_ID"}]"#
        let transport = ScriptedTransport([.respond(401, body: body)])
        let (client, _, logs) = try transport.makeClient()
        let error = await #expect(throws: OrgClientError.self) {
            try await client.limits()
        }
        #expect(error?.code == .authentication)
        #expect(
            error?.message
                == "the org rejected the access token for GET '/services/data/v62.0/limits' (INVALID_SESSION_ID: Session "
                + "expired or invalid); get a new token (for example 'sf org auth show-access-token') and pass it with "
                + "--access-token or SF_ACCESS_TOKEN"
        )
        #expect(!"\(String(describing: error))".contains("SECRET"))
        #expect(!logs.allText.contains("SECRET"))
    }

    @Test func aRefresherIsCalledOnceOn401() async throws {
        let body = #"[{"message":"Session expired or invalid","errorCode":"INVALID_SESSION_ID"}]"#
        let transport = ScriptedTransport([
            .respond(401, body: body), .respond(200, body: #"{"DailyApiRequests":{"Max":10,"Remaining":7}}"#),
        ])
        let (client, _, _) = try transport.makeClient(refresher: { "NEW-TOKEN" })
        let limits = try await client.limits()
        #expect(limits == ["DailyApiRequests": OrgLimit(max: 10, remaining: 7)])
        #expect(transport.requests.map(\.accessToken) == ["SECRET-TOKEN", "NEW-TOKEN"])
    }

    @Test func aFailingRefresherIsAnAuthenticationError() async throws {
        struct RefreshFailure: Error, CustomStringConvertible {
            var description: String { "refresh token revoked" }
        }
        let body = #"[{"message":"Session expired or invalid","errorCode":"INVALID_SESSION_ID"}]"#
        let transport = ScriptedTransport([.respond(401, body: body)])
        let (client, _, _) = try transport.makeClient(refresher: { throw RefreshFailure() })
        let error = await #expect(throws: OrgClientError.self) {
            _ = try await client.limits()
        }
        #expect(error?.code == .authentication)
        #expect(
            error?.message
                == "the org rejected the access token for GET '/services/data/v62.0/limits' and getting a new one "
                + "failed: refresh token revoked; check the refresh credentials"
        )
        #expect(transport.requests.count == 1)
    }

    @Test func badQueriesAreNotRetried() async throws {
        let body = #"[{"message":"unexpected token: FRM","errorCode":"MALFORMED_QUERY"}]"#
        let transport = ScriptedTransport([.respond(400, body: body)])
        let (client, _, _) = try transport.makeClient()
        let error = await #expect(throws: OrgClientError.self) {
            _ = try await client.queryFirstPage("SELECT Id FRM Account", options: .init(batchSize: 300))
        }
        #expect(error?.code == .badRequest)
        #expect(error?.serverErrors == [OrgErrorDetail(errorCode: "MALFORMED_QUERY", message: "unexpected token: FRM")])
        #expect(
            error?.message
                == "the org rejected GET '/services/data/v62.0/query' with HTTP 400 (MALFORMED_QUERY: unexpected token: FRM)"
        )
        #expect(transport.requests.count == 1)
        #expect(transport.requests.first?.target == "/services/data/v62.0/query?q=SELECT%20Id%20FRM%20Account")
        #expect(transport.requests.first?.header("Sforce-Query-Options") == "batchSize=300")
    }

    @Test func updateSendsIfUnmodifiedSinceAndMaps412ToConflict() async throws {
        let transport = ScriptedTransport([
            .respond(412, body: #"[{"message":"changed","errorCode":"PRECONDITION_FAILED"}]"#)
        ])
        let (client, _, _) = try transport.makeClient()
        let error = await #expect(throws: OrgClientError.self) {
            try await client.update(
                "Account",
                id: "001000000000001AAA",
                fields: ["Name": "B"],
                ifUnmodifiedSince: Date(timeIntervalSince1970: 1_709_658_251)
            )
        }
        #expect(error?.code == .conflict)
        #expect(transport.requests.first?.header("If-Unmodified-Since") == "Tue, 05 Mar 2024 17:04:11 GMT")
    }

    @Test func queryMoreRefusesURLsOutsideTheAPI() async throws {
        let transport = ScriptedTransport([])
        let (client, _, _) = try transport.makeClient()
        for url in [
            "https://evil.example.com/services/data/v62.0/query/x", "/other/path", "//evil.example.com/services/data/",
        ] {
            let error = await #expect(throws: OrgClientError.self) {
                _ = try await client.queryMore(url, options: .init())
            }
            #expect(error?.code == .invalidResponse)
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func invalidArgumentsFailBeforeSending() async throws {
        let transport = ScriptedTransport([])
        let (client, _, _) = try transport.makeClient()
        let tooMany = (0..<26).map {
            CompositeSubrequest.delete("Account", id: "001000000000001AAA", referenceID: "r\($0)")
        }
        let error = await #expect(throws: OrgClientError.self) {
            _ = try await client.composite(tooMany, allOrNone: false)
        }
        #expect(error?.message == "a composite call takes at most 25 subrequests, not 26; split them")
        await #expect(throws: OrgClientError.self) {
            try await client.delete("Account/../User", id: "001000000000001AAA")
        }
        await #expect(throws: OrgClientError.self) {
            try await client.delete("Account", id: "001?x=1")
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func aCancelledTaskSendsNothing() async throws {
        let transport = ScriptedTransport([.respond(200, body: Self.page)])
        let (client, _, _) = try transport.makeClient()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.queryFirstPage("SELECT Id FROM Account", options: .init())
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(transport.requests.isEmpty)
    }
}
