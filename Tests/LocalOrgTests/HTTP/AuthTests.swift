import Crypto
import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing
import X509
import _CryptoExtras

/// Bearer-token checks and the OAuth token endpoint (refresh and JWT bearer grants).
struct AuthTests {
    @Test(arguments: [String?.none, "wrong"])
    func missingOrWrongTokenIs401WithTheRealErrorArray(token: String?) async throws {
        try await LocalOrgFixture.with(configuration: LocalOrgConfiguration(accessToken: "right")) { org in
            let response = try await org.client.send(.GET, "limits", token: token.map { .some($0) } ?? .none)
            #expect(response.status == 401)
            #expect(
                response.text
                    == #"[{"message":"Session expired or invalid","errorCode":"INVALID_SESSION_ID","fields":[]}]"#
            )
        }
    }

    @Test func oauthSchemeIsAccepted() async throws {
        try await LocalOrgFixture.with(configuration: LocalOrgConfiguration(accessToken: "right")) { org in
            let response = try await org.client.send(
                .GET,
                "limits",
                headers: [("Authorization", "OAuth right")],
                token: .none
            )
            #expect(response.status == 200)
        }
    }

    @Test func generatedTokenIsOrgShaped() async throws {
        try await LocalOrgFixture.with { org in
            #expect(org.accessToken.hasPrefix("00D"))
            #expect(org.accessToken.contains("!"))
        }
    }

    @Test func refreshGrantIssuesAWorkingToken() async throws {
        let configuration = LocalOrgConfiguration(refreshToken: "rt-1", clientID: "client-1")
        try await LocalOrgFixture.with(configuration: configuration) { org in
            let client = org.client
            let response = try await postToken(client, "grant_type=refresh_token&client_id=client-1&refresh_token=rt-1")
            #expect(response.status == 200)
            let body = try #require(try response.json().objectValue)
            #expect(body["token_type"] == "Bearer")
            #expect(body["instance_url"] == .string(org.baseURL.absoluteString))
            #expect(body["id"]?.stringValue?.hasPrefix(org.baseURL.absoluteString + "/id/00D") == true)
            #expect(body["signature"]?.stringValue?.isEmpty == false)
            #expect(body["issued_at"]?.stringValue != nil)
            let token = try #require(body["access_token"]?.stringValue)
            #expect(try await client.send(.GET, "limits", token: .some(token)).status == 200)

            let wrong = try await postToken(client, "grant_type=refresh_token&client_id=client-1&refresh_token=nope")
            #expect(wrong.status == 400)
            #expect(try wrong.json().objectValue?["error"] == "invalid_grant")
            let badClient = try await postToken(client, "grant_type=refresh_token&client_id=other&refresh_token=rt-1")
            #expect(try badClient.json().objectValue?["error"] == "invalid_client_id")
        }
    }

    @Test func unsupportedGrantType() async throws {
        try await LocalOrgFixture.with { org in
            let response = try await postToken(org.client, "grant_type=password&username=u&password=p")
            #expect(response.status == 400)
            #expect(try response.json().objectValue?["error"] == "unsupported_grant_type")
        }
    }

    @Test func jwtGrantVerifiesSignatureExpiryAudienceAndIssuer() async throws {
        let signer = try JWTSigner()
        let other = try JWTSigner()
        let settings = JWTBearerSettings(certificatePEM: signer.certificatePEM, clientID: "consumer-key")
        try await LocalOrgFixture.with(configuration: LocalOrgConfiguration(jwtBearer: settings)) { org in
            let client = org.client
            let now = Date().timeIntervalSince1970
            let good = JWTSigner.Claims(
                iss: "consumer-key",
                sub: "ci@example.com",
                aud: "https://login.salesforce.com",
                exp: Int(now) + 180
            )

            let accepted = try await postJWT(client, try signer.sign(good))
            #expect(accepted.status == 200, "\(accepted.text)")
            let token = try #require(try accepted.json().objectValue?["access_token"]?.stringValue)
            #expect(try await client.send(.GET, "limits", token: .some(token)).status == 200)

            var expired = good
            expired.exp = Int(now) - 10
            var wrongAudience = good
            wrongAudience.aud = "https://example.com"
            var wrongIssuer = good
            wrongIssuer.iss = "someone-else"
            for assertion in [
                try other.sign(good), try signer.sign(expired), try signer.sign(wrongAudience),
                try signer.sign(wrongIssuer), "not.a.jwt",
            ] {
                let rejected = try await postJWT(client, assertion)
                #expect(rejected.status == 400)
                #expect(try rejected.json().objectValue?["error"] == "invalid_grant")
            }
        }
    }

    @Test func jwtGrantIsRefusedWithoutACertificate() async throws {
        try await LocalOrgFixture.with { org in
            let response = try await postJWT(org.client, "a.b.c")
            #expect(response.status == 400)
            #expect(try response.json().objectValue?["error"] == "invalid_grant")
        }
    }

    @Test func aCertificateThatIsNotPEMIsAConfigurationError() throws {
        #expect(throws: OrgError.self) {
            try TemporaryDirectory.withSync { directory in
                let database = try OrgDatabase(directory: directory)
                _ = try LocalOrgServer(
                    configuration: LocalOrgConfiguration(jwtBearer: JWTBearerSettings(certificatePEM: "nope")),
                    database: database
                )
            }
        }
    }

    private func postToken(_ client: LocalOrgTestClient, _ form: String) async throws -> TestResponse {
        try await client.send(
            .POST,
            "/services/oauth2/token",
            body: Data(form.utf8),
            headers: [("Content-Type", "application/x-www-form-urlencoded")],
            token: .none
        )
    }

    private func postJWT(_ client: LocalOrgTestClient, _ assertion: String) async throws -> TestResponse {
        try await postToken(
            client,
            "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)"
        )
    }
}

/// A throwaway RSA key and self-signed certificate that sign RS256 JWTs.
struct JWTSigner {
    let key: _RSA.Signing.PrivateKey
    let certificatePEM: String

    init() throws {
        key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        certificatePEM = try SelfSignedCertificate.pem(
            commonName: "syncrun local org test",
            key: Certificate.PrivateKey(key),
            signatureAlgorithm: .sha256WithRSAEncryption
        )
    }

    /// The claims of a JWT bearer assertion.
    struct Claims: Encodable {
        var iss: String
        var sub: String
        var aud: String
        var exp: Int
    }

    /// The compact RS256 JWT of `claims`.
    func sign(_ claims: Claims) throws -> String {
        let header = Self.base64URL(Data(#"{"alg":"RS256"}"#.utf8))
        let payload = Self.base64URL(try JSONEncoder().encode(claims))
        let input = Data("\(header).\(payload)".utf8)
        let signature = try key.signature(for: SHA256.hash(data: input), padding: .insecurePKCS1v1_5)
        return "\(header).\(payload).\(Self.base64URL(signature.rawRepresentation))"
    }

    private static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
