import AsyncHTTPClient
import Foundation
import LocalOrg
import NIOCore
import NIOHTTP1
import SyncrunTestSupport
import Testing

/// A response as the HTTP tests inspect it.
struct TestResponse: Sendable {
    var status: Int
    var headers: HTTPHeaders
    var body: Data

    /// The body parsed as JSON.
    func json() throws -> OrgJSONValue {
        try OrgJSONValue.decode(body)
    }

    /// The body as text.
    var text: String { String(decoding: body, as: UTF8.self) }

    /// The `errorCode` of the first item of a REST error array.
    func errorCode() throws -> String? {
        try json().arrayValue?.first?.objectValue?["errorCode"]?.stringValue
    }
}

/// Sends requests to a running local org with AsyncHTTPClient, as an external client would.
struct LocalOrgTestClient: Sendable {
    let org: LocalOrgFixture
    var version = "59.0"
    var client: HTTPClient = .shared

    /// The data base path, e.g. `/services/data/v59.0`.
    var base: String { "/services/data/v\(version)" }

    /// Sends a request to a host-relative path.
    ///
    /// - Parameters:
    ///   - method: the HTTP method.
    ///   - path: the path (with query); relative paths are prefixed with the data base path.
    ///   - json: a JSON body.
    ///   - headers: extra headers.
    ///   - token: the bearer token; `nil` sends none, the default sends the org's.
    func send(
        _ method: HTTPMethod,
        _ path: String,
        json: OrgJSONValue? = nil,
        body: Data? = nil,
        headers: [(String, String)] = [],
        token: String?? = .some(nil)
    ) async throws -> TestResponse {
        let target = path.hasPrefix("/") ? path : "\(base)/\(path)"
        var request = HTTPClientRequest(url: org.url(target))
        request.method = method
        switch token {
        case .none: break
        case .some(.none): request.headers.add(name: "Authorization", value: "Bearer \(org.accessToken)")
        case .some(.some(let value)): request.headers.add(name: "Authorization", value: "Bearer \(value)")
        }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: json.encoded()))
        } else if let body {
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await client.execute(request, timeout: .seconds(30))
        let buffer = try await response.body.collect(upTo: 64 << 20)
        return TestResponse(
            status: Int(response.status.code),
            headers: response.headers,
            body: Data(buffer.readableBytesView)
        )
    }

    /// Creates a record through the API and returns its ID.
    func create(_ object: String, _ fields: OrgJSONValue) async throws -> String {
        let response = try await send(.POST, "sobjects/\(object)", json: fields)
        #expect(response.status == 201, "create \(object): \(response.text)")
        return try #require(try response.json().objectValue?["id"]?.stringValue)
    }

    /// Creates `count` Accounts named `Account 0001`… directly in the database.
    func seedAccounts(_ count: Int) throws {
        try org.database.write { writer in
            for index in 0..<count {
                try writer.create("Account", fields: ["Name": .string(String(format: "Account %04d", index))])
            }
        }
    }
}

extension LocalOrgFixture {
    /// A client for this org.
    var client: LocalOrgTestClient { LocalOrgTestClient(org: self) }
}

/// A schema with external-ID fields on Account: `External_Id__c` (unique) and `Legacy_Key__c` (not unique).
func externalIDSchema() throws -> OrgSchema {
    try TemporaryDirectory.withSync { directory in
        let file = directory.appendingPathComponent("schema.json")
        try Data(
            """
            {"objects": [{"name": "Account", "fields": [
              {"name": "External_Id__c", "type": "string", "externalId": true, "unique": true},
              {"name": "Legacy_Key__c", "type": "string", "externalId": true}
            ]}]}
            """.utf8
        ).write(to: file)
        return try OrgSchema.standard.merging(contentsOf: file)
    }
}

extension TemporaryDirectory {
    /// Runs a synchronous `body` with a fresh temporary directory and removes it afterwards.
    static func withSync<T>(_ body: (URL) throws -> T) throws -> T {
        let directory = try TemporaryDirectory(prefix: "syncrun-local-org-test")
        defer { try? FileManager.default.removeItem(at: directory.url) }
        return try body(directory.url)
    }
}

/// The outcome of an async throwing call, so a test can assert on a failure it expects.
func captureResult<T>(_ body: () async throws -> T) async -> Result<T, any Error> {
    do {
        return .success(try await body())
    } catch {
        return .failure(error)
    }
}
