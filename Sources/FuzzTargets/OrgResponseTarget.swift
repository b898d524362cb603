import Foundation
import Logging
import OrgClient

/// The org client's response decoding: every call of the REST client answered by the fuzzed body.
///
/// The first byte picks the call, the second the status the "org" answers with; the rest is the
/// body of every response (a call that makes several requests gets the same body each time).
enum OrgResponseTarget {
    private static let statuses = [200, 201, 204, 300, 400, 401, 404, 409, 412, 500]

    private typealias Call = @Sendable (RESTOrgClient) async throws -> Void

    private static let calls: [Call] = [
        { _ = try await $0.queryFirstPage("SELECT Id FROM Account", options: QueryOptions(batchSize: 200)) },
        { _ = try await $0.queryMore("/services/data/v62.0/query/01g-2000", options: QueryOptions()) },
        { _ = try await $0.create("Account", fields: ["Name": "Acme"]) },
        { try await $0.update("Account", id: "001000000000001AAA", fields: ["Name": "A"], ifUnmodifiedSince: Date()) },
        { try await $0.delete("Account", id: "001000000000001AAA") },
        { _ = try await $0.upsert("Account", externalIDField: "Ext__c", externalID: "x", fields: ["Name": "A"]) },
        { _ = try await $0.retrieve("Account", id: "001000000000001AAA", fields: ["Id", "Name"]) },
        { _ = try await $0.compositeBatch([BatchSubrequest(method: .get, path: "/sobjects")], haltOnError: false) },
        {
            _ = try await $0.composite(
                [
                    .create("Account", fields: ["Name": "A"], referenceID: "a"),
                    .delete("Contact", id: "003000000000001AAA", referenceID: "c"),
                ],
                allOrNone: true
            )
        },
        {
            let records = [SObjectRecord(objectType: "Account", fields: ["Name": "A"])]
            _ = try await $0.collection(.create(records), allOrNone: false)
        },
        { _ = try await $0.collection(.delete(ids: ["001000000000001AAA", "001000000000002AAA"]), allOrNone: true) },
        { _ = try await $0.retrieveCollection("Account", ids: ["001000000000001AAA"], fields: ["Id", "Name"]) },
        { _ = try await $0.primingRecords(relayToken: nil, changedAfter: nil) },
        { _ = try await $0.describeGlobal() },
        { _ = try await $0.describe("Account") },
        { _ = try await $0.search("FIND {Acme} RETURNING Account(Id)") },
        { _ = try await $0.recentlyViewedIDs("Account", limit: 10) },
        { _ = try await $0.limits() },
        { _ = try await $0.identity() },
        { _ = try await $0.userInfo() },
    ]

    private static let oauthCalls: [Call] = [
        { client in
            let oauth = try OAuthClient(loginURL: "https://login.example.com", orgClient: client)
            _ = try await oauth.refreshAccessToken(RefreshTokenGrant(clientID: "id", refreshToken: "refresh"))
        },
        { client in
            let oauth = try OAuthClient(loginURL: "https://login.example.com", orgClient: client)
            _ = try await oauth.requestClientCredentialsToken(clientID: "id", clientSecret: "secret")
        },
        { client in
            let oauth = try OAuthClient(loginURL: "https://login.example.com", orgClient: client)
            let grant = JWTBearerGrant(clientID: "id", username: "user@example.com", audience: "https://login")
            _ = try await oauth.requestJWTBearerToken(grant) { _ in [1, 2, 3] }
        },
        { _ = try await $0.identity() },
        { _ = try await $0.userInfo() },
    ]

    static func run(_ bytes: [UInt8]) async {
        await run(bytes, calls: calls)
        if bytes.count > 2 {
            _ = try? QueryPage(scanning: RawJSON(String(decoding: bytes.dropFirst(2), as: UTF8.self)))
        }
    }

    static func runOAuth(_ bytes: [UInt8]) async {
        await run(bytes, calls: oauthCalls)
    }

    private static func run(_ bytes: [UInt8], calls: [Call]) async {
        guard bytes.count >= 2 else { return }
        let call = calls[Int(bytes[0]) % calls.count]
        let status = statuses[Int(bytes[1]) % statuses.count]
        let body = String(decoding: bytes.dropFirst(2), as: UTF8.self)
        guard let endpoint = try? OrgEndpoint(baseURL: "https://org.example.com", accessToken: "fuzz-token")
        else { return }
        let client = RESTOrgClient(
            configuration: RESTOrgClient.Configuration(endpoint: endpoint, retryPolicy: .never),
            logger: Logger(label: "fuzz", factory: { _ in SwiftLogNoOpLogHandler() }),
            answering: { _, _ in (status, body) }
        )
        do {
            try await call(client)
        } catch {
            _ = String(describing: error)
        }
    }
}
