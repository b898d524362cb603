import Foundation
import SyncrunTestSupport
import Testing

@testable import LocalOrg

/// Issue 27 item 1: the local org gives tokens only to who it should, closes stalled and idle
/// connections, caps open connections, and refuses nested composite requests.
struct ProductionSafetyTests {
    private static func postToken(
        _ client: LocalOrgTestClient,
        _ form: String,
        headers: [(String, String)] = []
    ) async throws -> TestResponse {
        try await client.send(
            .POST,
            "/services/oauth2/token",
            body: Data(form.utf8),
            headers: [("Content-Type", "application/x-www-form-urlencoded")] + headers,
            token: .none
        )
    }

    // MARK: Tokens

    @Test func clientCredentialsGrantIsRefusedWithoutAConfiguredSecret() async throws {
        try await LocalOrgFixture.with { org in
            let form = try await Self.postToken(
                org.client,
                "grant_type=client_credentials&client_id=anything&client_secret=anything"
            )
            #expect(form.status == 400, "\(form.text)")
            let body = try #require(try form.json().objectValue)
            #expect(Set(body.keys) == ["error", "error_description"])
            #expect(body["error"] == "invalid_client")
            #expect(body["access_token"] == nil)
            let basic = Data("anything:anything".utf8).base64EncodedString()
            let viaBasic = try await Self.postToken(
                org.client,
                "grant_type=client_credentials",
                headers: [("Authorization", "Basic \(basic)")]
            )
            #expect(viaBasic.status == 400)
            #expect(try viaBasic.json().objectValue?["error"] == "invalid_client")
            // The refresh grant keeps working with any client ID.
            let refresh = try await Self.postToken(
                org.client,
                "grant_type=refresh_token&client_id=CumulusCI&refresh_token=\(org.endpoint.refreshToken)"
            )
            #expect(refresh.status == 200, "\(refresh.text)")
        }
    }

    @Test func clientCredentialsGrantTakesOnlyTheConfiguredSecret() async throws {
        try await LocalOrgFixture.with(configuration: LocalOrgConfiguration(clientSecret: "s3cret")) { org in
            for secret in ["anything", "", "%20", "s3cre", "s3cret%20"] {
                let response = try await Self.postToken(
                    org.client,
                    "grant_type=client_credentials&client_id=any&client_secret=\(secret)"
                )
                #expect(response.status == 400, "secret '\(secret)': \(response.text)")
                #expect(try response.json().objectValue?["error"] == "invalid_client")
            }
            let right = try await Self.postToken(
                org.client,
                "grant_type=client_credentials&client_id=any&client_secret=s3cret"
            )
            #expect(right.status == 200, "\(right.text)")
        }
    }

    @Test(arguments: ["", " ", "\t\n"])
    func blankTokensAndSecretsAreRefusedAtStart(_ blank: String) async throws {
        try await TemporaryDirectory.with { directory in
            let database = try OrgDatabase(directory: directory)
            for configuration in [
                LocalOrgConfiguration(refreshToken: blank),
                LocalOrgConfiguration(accessToken: blank),
                LocalOrgConfiguration(clientSecret: blank),
            ] {
                #expect(throws: OrgError.self) {
                    _ = try LocalOrgServer(configuration: configuration, database: database)
                }
            }
        }
    }

    @Test func aBlankPresentedRefreshTokenNeverMatches() async throws {
        try await LocalOrgFixture.with(configuration: LocalOrgConfiguration(refreshToken: "rt-1")) { org in
            for presented in ["", "%20", "refresh_token"] {
                let form =
                    presented == "refresh_token"
                    ? "grant_type=refresh_token&refresh_token" : "grant_type=refresh_token&refresh_token=\(presented)"
                let response = try await Self.postToken(org.client, form)
                #expect(response.status == 400, "\(form): \(response.text)")
                #expect(try response.json().objectValue?["error"] == "invalid_grant")
            }
        }
    }

    // MARK: Connections

    private static func configuration(header: Int, idle: Int, cap: Int = 256) -> LocalOrgConfiguration {
        var configuration = LocalOrgConfiguration()
        configuration.headerTimeout = .seconds(header)
        configuration.idleTimeout = .seconds(idle)
        configuration.maxConnections = cap
        return configuration
    }

    private static let versionsRequest = "GET /services/data HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    @Test func aHalfSentRequestLineIsClosedAfterTheHeaderTimeout() async throws {
        try await LocalOrgFixture.with(configuration: Self.configuration(header: 1, idle: 60)) { org in
            let outcome = try await RawConnection.offPool {
                let connection = try RawConnection(port: org.endpoint.port)
                try connection.send("GET /services/da")
                let start = ContinuousClock.now
                let read = connection.readUntilClosed(timeout: 20)
                return (read, ContinuousClock.now - start)
            }
            #expect(outcome.0.closed, "the stalled connection stayed open for 20 s")
            #expect(outcome.0.data.isEmpty)
            #expect(outcome.1 < .seconds(12))
        }
    }

    @Test func anIdleKeepAliveConnectionIsClosedAfterTheIdleTimeout() async throws {
        try await LocalOrgFixture.with(configuration: Self.configuration(header: 60, idle: 1)) { org in
            let outcome = try await RawConnection.offPool {
                let connection = try RawConnection(port: org.endpoint.port)
                try connection.send(Self.versionsRequest)
                let head = connection.read(until: "\r\n\r\n", timeout: 30)
                // Idle from here on (the versions list is small: its body came with the head).
                let start = ContinuousClock.now
                let read = connection.readUntilClosed(timeout: 20)
                return (head, read.closed, ContinuousClock.now - start)
            }
            #expect(String(decoding: outcome.0, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
            #expect(outcome.1, "the idle connection stayed open for 20 s")
            #expect(outcome.2 < .seconds(12))
        }
    }

    @Test func connectionsPastTheCapGet503AndTheCapFreesAsConnectionsClose() async throws {
        try await LocalOrgFixture.with(configuration: Self.configuration(header: 60, idle: 60, cap: 2)) { org in
            let port = org.endpoint.port
            let result = try await RawConnection.offPool { () throws -> (String, Bool, String) in
                // Two connections served (so both are counted), kept open.
                let first = try RawConnection(port: port)
                let second = try RawConnection(port: port)
                for connection in [first, second] {
                    try connection.send(Self.versionsRequest)
                    _ = connection.read(until: "\r\n\r\n", timeout: 10)
                }
                let third = try RawConnection(port: port)
                try? third.send(Self.versionsRequest)
                let refused = third.readUntilClosed(timeout: 10)
                first.close()
                // Once the server has seen the close, a new connection is served again.
                var later = ""
                for _ in 0..<200 where !later.hasPrefix("HTTP/1.1 200") {
                    let next = try RawConnection(port: port)
                    try? next.send(Self.versionsRequest)
                    later = String(decoding: next.read(until: "\r\n\r\n", timeout: 10), as: UTF8.self)
                    next.close()
                }
                second.close()
                return (String(decoding: refused.data, as: UTF8.self), refused.closed, later)
            }
            #expect(result.0.hasPrefix("HTTP/1.1 503"), "\(result.0)")
            #expect(result.0.contains("SERVER_UNAVAILABLE"))
            #expect(result.1)
            #expect(result.2.hasPrefix("HTTP/1.1 200"), "\(result.2)")
        }
    }

    // MARK: Composite

    @Test(arguments: [
        "/services/data/v59.0/composite", "/services/data/v59.0/composite/", "/services/data/v59.0/composite/batch",
        "/services/data/v59.0/Composite/Tree/Account", "/services/data/v59.0/composite/graph",
        "/services/data/v59.0/compos%69te?x=1",
    ])
    func aCompositeInsideACompositeIsRefusedAndNothingRuns(_ url: String) async throws {
        try await LocalOrgFixture.with { org in
            for allOrNone in [false, true] {
                let response = try await org.client.send(
                    .POST,
                    "composite",
                    json: [
                        "allOrNone": .bool(allOrNone),
                        "compositeRequest": [
                            [
                                "method": "POST", "url": "/services/data/v59.0/sobjects/Account",
                                "referenceId": "first", "body": ["Name": "Should not exist"],
                            ],
                            [
                                "method": "POST", "url": .string(url), "referenceId": "nested",
                                "body": [
                                    "compositeRequest": [
                                        [
                                            "method": "GET", "url": "/services/data/v59.0/limits",
                                            "referenceId": "inner",
                                        ]
                                    ]
                                ],
                            ],
                        ],
                    ]
                )
                #expect(response.status == 400, "\(url): \(response.text)")
                #expect(try response.errorCode() == "INVALID_INPUT")
            }
            let page = try org.database.query("SELECT Id FROM Account", apiVersion: "59.0")
            #expect(page.totalSize == 0)
        }
    }

    @Test func aCompositeInsideABatchIsRefusedAndACollectionInsideACompositeStillRuns() async throws {
        try await LocalOrgFixture.with { org in
            for url in ["v59.0/composite", "v59.0/composite/batch", "/services/data/v59.0/composite/batch"] {
                let batch = try await org.client.send(
                    .POST,
                    "composite/batch",
                    json: [
                        "batchRequests": [
                            ["method": "GET", "url": "v59.0/limits"],
                            ["method": "POST", "url": .string(url), "richInput": ["batchRequests": []]],
                        ]
                    ]
                )
                #expect(batch.status == 400, "\(url): \(batch.text)")
                #expect(try batch.errorCode() == "INVALID_INPUT")
            }
            // A url completed by a reference is checked when it runs.
            _ = try await org.client.create("Account", ["Name": "composite"])
            let referenced = try await org.client.send(
                .POST,
                "composite",
                json: [
                    "compositeRequest": [
                        [
                            "method": "GET", "url": "/services/data/v59.0/query?q=SELECT+Name+FROM+Account",
                            "referenceId": "q",
                        ],
                        [
                            "method": "POST", "url": "/services/data/v59.0/@{q.records[0].Name}",
                            "referenceId": "nested",
                            "body": [
                                "compositeRequest": [
                                    ["method": "GET", "url": "/services/data/v59.0/limits", "referenceId": "inner"]
                                ]
                            ],
                        ],
                    ]
                ]
            )
            #expect(referenced.status == 200, "\(referenced.text)")
            let nested = try #require(
                try referenced.json().objectValue?["compositeResponse"]?.arrayValue?.last?.objectValue
            )
            #expect(nested["httpStatusCode"] == 400, "\(referenced.text)")
            #expect(nested["body"]?.arrayValue?.first?.objectValue?["errorCode"] == "INVALID_INPUT")
            let collection = try await org.client.send(
                .POST,
                "composite",
                json: [
                    "compositeRequest": [
                        [
                            "method": "POST", "url": "/services/data/v59.0/composite/sobjects", "referenceId": "c",
                            "body": ["records": [["attributes": ["type": "Account"], "Name": "Collected"]]],
                        ]
                    ]
                ]
            )
            #expect(collection.status == 200)
            let sub = try #require(try collection.json().objectValue?["compositeResponse"]?.arrayValue?.first)
            #expect(sub.objectValue?["httpStatusCode"] == 200, "\(collection.text)")
        }
    }
}

/// A blocking TCP client for probing the server below HTTP (half-sent requests, idle sockets).
final class RawConnection: @unchecked Sendable {
    // @unchecked: each instance is used by one thread at a time (inside one offPool closure).
    private let descriptor: Int32
    private var isClosed = false

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs blocking socket work on a dispatch thread, away from the cooperative pool.
    static func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
        }
    }

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket() failed: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            Glibc.close(descriptor)
            throw Failure(description: "connect() failed: \(errno)")
        }
    }

    deinit { close() }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { throw Failure(description: "send() failed: \(errno)") }
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        Glibc.close(descriptor)
    }

    /// Reads until the server closes the connection or `timeout` seconds pass.
    func readUntilClosed(timeout: Int) -> (data: Data, closed: Bool) {
        read(timeout: timeout) { _ in false }
    }

    /// Reads until `marker` has arrived, the server closes, or `timeout` seconds pass.
    func read(until marker: String, timeout: Int) -> Data {
        let needle = Data(marker.utf8)
        return read(timeout: timeout) { $0.range(of: needle) != nil }.data
    }

    private func read(timeout: Int, done: (Data) -> Bool) -> (data: Data, closed: Bool) {
        let deadline = ContinuousClock.now + .seconds(timeout)
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now < deadline, !done(data) {
            var wait = timeval(tv_sec: 0, tv_usec: 200_000)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                data.append(contentsOf: buffer[0..<count])
            } else if count == 0 {
                return (data, true)
            } else if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
                return (data, true)  // reset by the server
            }
        }
        return (data, false)
    }
}
