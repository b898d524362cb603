import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing

/// The client-credentials grant, the identity URL, userinfo and token expiry (`tokenTTL`).
struct IdentityAndExpiryTests {
    @Test func clientCredentialsGrantTakesTheFormOrHTTPBasic() async throws {
        let configuration = LocalOrgConfiguration(clientID: "app", clientSecret: "s3cret")
        try await LocalOrgFixture.with(configuration: configuration) { org in
            let form = try await postToken(
                org.client,
                "grant_type=client_credentials&client_id=app&client_secret=s3cret"
            )
            #expect(form.status == 200, "\(form.text)")
            let body = try #require(try form.json().objectValue)
            #expect(
                Set(body.keys) == [
                    "access_token", "instance_url", "id", "token_type", "issued_at", "signature", "scope",
                ]
            )
            #expect(
                body["id"]
                    == .string("\(org.baseURL.absoluteString)/id/\(org.database.organizationID)/\(org.database.userID)")
            )
            let token = try #require(body["access_token"]?.stringValue)
            #expect(try await org.client.send(.GET, "limits", token: .some(token)).status == 200)

            let basic = Data("app:s3cret".utf8).base64EncodedString()
            let viaBasic = try await org.client.send(
                .POST,
                "/services/oauth2/token",
                body: Data("grant_type=client_credentials".utf8),
                headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Authorization", "Basic \(basic)")],
                token: .none
            )
            #expect(viaBasic.status == 200, "\(viaBasic.text)")

            let wrongSecret = try await postToken(
                org.client,
                "grant_type=client_credentials&client_id=app&client_secret=x"
            )
            #expect(wrongSecret.status == 400)
            #expect(try wrongSecret.json().objectValue?["error"] == "invalid_client")
            let wrongClient = try await postToken(
                org.client,
                "grant_type=client_credentials&client_id=x&client_secret=s3cret"
            )
            #expect(try wrongClient.json().objectValue?["error"] == "invalid_client_id")
            let noSecret = try await postToken(org.client, "grant_type=client_credentials&client_id=app")
            #expect(try noSecret.json().objectValue?["error"] == "invalid_client")
        }
    }

    @Test func identityURLAndUserInfoDescribeTheTokensUser() async throws {
        try await LocalOrgFixture.with { org in
            let orgID = org.database.organizationID
            let userID = org.database.userID
            let identity = try await org.client.send(.GET, "/id/\(orgID)/\(userID)")
            #expect(identity.status == 200, "\(identity.text)")
            let fields = try #require(try identity.json().objectValue)
            #expect(fields["user_id"] == .string(userID))
            #expect(fields["organization_id"] == .string(orgID))
            #expect(fields["username"] == "admin@localorg.invalid")
            #expect(fields["display_name"] == "Local Admin")
            #expect(fields["id"] == .string("\(org.baseURL.absoluteString)/id/\(orgID)/\(userID)"))
            // The 15-character forms name the same user; other ids do not exist.
            #expect(try await org.client.send(.GET, "/id/\(orgID.prefix(15))/\(userID.prefix(15))").status == 200)
            #expect(try await org.client.send(.GET, "/id/\(orgID)/005000000000999AAA").status == 404)
            #expect(try await org.client.send(.GET, "/id/\(orgID)/\(userID)", token: .none).status == 401)

            let info = try await org.client.send(.GET, "/services/oauth2/userinfo")
            #expect(info.status == 200, "\(info.text)")
            let claims = try #require(try info.json().objectValue)
            #expect(claims["user_id"] == .string(userID))
            #expect(claims["organization_id"] == .string(orgID))
            #expect(claims["preferred_username"] == "admin@localorg.invalid")
            #expect(claims["sub"] == .string("\(org.baseURL.absoluteString)/id/\(orgID)/\(userID)"))
            let refused = try await org.client.send(.GET, "/services/oauth2/userinfo", token: .some("nope"))
            #expect(refused.status == 401)
            #expect(try refused.errorCode() == "INVALID_SESSION_ID")
        }
    }

    @Test func tokensExpireAfterTheirLifetimeAndANewGrantWorks() async throws {
        let clock = MovableClock()
        let configuration = LocalOrgConfiguration(refreshToken: "rt", tokenTTL: .seconds(3600))
        try await LocalOrgFixture.with(
            configuration: configuration,
            databaseConfiguration: OrgDatabase.Configuration(now: clock.now)
        ) { org in
            #expect(try await org.client.send(.GET, "limits").status == 200)
            // Real time passes too (minutes under a loaded machine): stay well inside the lifetime.
            clock.advance(by: 3000)
            #expect(try await org.client.send(.GET, "limits").status == 200)
            clock.advance(by: 600)
            let expired = try await org.client.send(.GET, "limits")
            #expect(expired.status == 401)
            #expect(try expired.errorCode() == "INVALID_SESSION_ID")
            #expect(try expired.json().arrayValue?.first?.objectValue?["message"] == "Session expired or invalid")

            let grant = try await postToken(org.client, "grant_type=refresh_token&client_id=any&refresh_token=rt")
            let token = try #require(try grant.json().objectValue?["access_token"]?.stringValue)
            #expect(try await org.client.send(.GET, "limits", token: .some(token)).status == 200)
            clock.advance(by: 3600)
            #expect(try await org.client.send(.GET, "limits", token: .some(token)).status == 401)
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
}
