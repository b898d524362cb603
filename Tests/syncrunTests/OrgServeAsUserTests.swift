import AsyncHTTPClient
import Foundation
import NIOCore
import SyncrunTestSupport
import Testing

/// `syncrun org serve --as-user USERNAME` (issue 30 item 3): the printed token acts as the schema
/// file's restricted user; an undeclared user is refused before serving.
struct OrgServeAsUserTests {
    static let schema = """
        {"profiles": [{"name": "ReadAccounts", "objects": [{"name": "Account", "read": true}]}],
         "users": [{"username": "reader@example.com", "profile": "ReadAccounts"}]}
        """

    @Test func thePrintedTokenActsAsTheNamedUser() async throws {
        try await TemporaryDirectory.with { directory in
            let schemaFile = directory.appendingPathComponent("schema.json")
            try Self.schema.write(to: schemaFile, atomically: true, encoding: .utf8)
            let server = try OrgServeSafetyTests.Server(
                ["--port", "0", "--format", "json", "--schema", schemaFile.path, "--as-user", "reader@example.com"],
                in: directory
            )
            defer { _ = server.stop() }
            let line = try #require(
                try JSONSerialization.jsonObject(with: Data(server.startLine.utf8)) as? [String: Any],
                "start line: \(server.startLine)"
            )
            let url = try #require(line["url"] as? String)
            let token = try #require(line["accessToken"] as? String)
            func status(_ path: String, posting body: String? = nil) async throws -> UInt {
                var request = HTTPClientRequest(url: url + "/services/data/v59.0/" + path)
                request.method = body == nil ? .GET : .POST
                request.headers.add(name: "Authorization", value: "Bearer \(token)")
                if let body {
                    request.headers.add(name: "Content-Type", value: "application/json")
                    request.body = .bytes(ByteBuffer(string: body))
                }
                return try await HTTPClient.shared.execute(request, timeout: .seconds(30)).status.code
            }
            #expect(try await status("sobjects/Account/describe") == 200)
            #expect(try await status("sobjects/Contact/describe") == 404)
            #expect(try await status("sobjects/Account", posting: #"{"Name": "A"}"#) == 400)
        }
    }

    @Test func anUndeclaredUserIsRefused() async throws {
        try await TemporaryDirectory.with { directory in
            let result = try await OrgServeSafetyTests.runWithDeadline(
                [
                    "org", "serve", "--data", directory.appendingPathComponent("org").path, "--port", "0",
                    "--as-user", "nobody@example.com",
                ],
                in: directory
            )
            #expect(!result.timedOut)
            #expect(result.status != 0)
            #expect(result.stderr.contains("the user 'nobody@example.com' is not declared"), "\(result.stderr)")
        }
    }
}
