import Foundation
import NIOConcurrencyHelpers
import Testing

@testable import OrgClient

struct OAuthClientTests {
    @Test func buildsTheJWTAssertion() throws {
        let grant = JWTBearerGrant(
            clientID: "3MVG9client",
            username: "ci@example.com",
            audience: "https://login.salesforce.com"
        )
        let signed = NIOLockedValueBox<[UInt8]>([])
        let assertion = try OAuthClient.makeAssertion(grant, now: Date(timeIntervalSince1970: 1_700_000_000)) { input in
            signed.withLockedValue { $0 = input }
            return [0xFB, 0xFF, 0x01]
        }
        let parts = assertion.split(separator: ".").map(String.init)
        #expect(parts.count == 3)
        #expect(parts[0] == "eyJhbGciOiJSUzI1NiJ9")
        #expect(signed.withLockedValue { $0 } == Array("\(parts[0]).\(parts[1])".utf8))
        #expect(parts[2] == "-_8B")
        let claims = try OrgValue(
            parsing: String(decoding: try #require(Self.decodeBase64URL(parts[1])), as: UTF8.self)
        )
        #expect(
            claims == [
                "iss": "3MVG9client", "sub": "ci@example.com", "aud": "https://login.salesforce.com",
                "exp": .integer(1_700_000_180),
            ]
        )
    }

    @Test func tokensAndGrantsNeverShowSecrets() {
        let token = OAuthToken(
            accessToken: "SECRET-A",
            instanceURL: "https://x.my.salesforce.com",
            refreshToken: "SECRET-R"
        )
        let grant = RefreshTokenGrant(clientID: "id", clientSecret: "SECRET-C", refreshToken: "SECRET-R")
        var dumped = ""
        dump(token, to: &dumped)
        dump(grant, to: &dumped)
        #expect(!dumped.contains("SECRET"))
        #expect(!"\(token) \(grant)".contains("SECRET"))
    }

    static func decodeBase64URL(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
