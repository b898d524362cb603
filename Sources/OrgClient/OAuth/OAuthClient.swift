import Foundation
import Logging

/// Calls the OAuth token endpoint of a login host: the refresh-token grant, the JWT bearer grant
/// and the client-credentials grant.
///
/// ```swift
/// let oauth = OAuthClient(loginURL: "https://login.salesforce.com", orgClient: org)
/// let token = try await oauth.refreshAccessToken(RefreshTokenGrant(clientID: id, refreshToken: rt))
/// ```
///
/// This module has no cryptography dependency, so the JWT bearer grant takes the RS256 signer as
/// a closure (for example one built on swift-crypto's `_RSA.Signing.PrivateKey`).
public struct OAuthClient: Sendable {
    /// The login host, `https://login.salesforce.com` by default.
    public let loginURL: String
    private let transport: RESTOrgClient

    /// Creates a client for `loginURL` that sends through the HTTP client of `orgClient` (its
    /// retry policy and counters apply; its token is not sent).
    ///
    /// - Throws: ``OrgClientError`` with code ``OrgClientError/Code/invalidConfiguration`` when
    ///   `loginURL` is not `http(s)://HOST[:PORT]`.
    public init(loginURL: String = "https://login.salesforce.com", orgClient: RESTOrgClient) throws {
        self.loginURL = try OrgEndpoint.normalizedBaseURL(loginURL)
        var configuration = orgClient.configuration
        configuration.endpoint = try OrgEndpoint(
            baseURL: self.loginURL,
            accessToken: "unused",
            apiVersion: configuration.endpoint.apiVersion
        )
        configuration.accessTokenRefresher = nil
        self.transport = RESTOrgClient(
            configuration: configuration,
            logger: orgClient.logger,
            transport: orgClient.transport
        )
    }

    /// Runs the refresh-token grant.
    ///
    /// - Throws: ``OrgClientError`` with code ``OrgClientError/Code/oauth`` when the login host
    ///   refuses the grant.
    public func refreshAccessToken(_ grant: RefreshTokenGrant) async throws -> OAuthToken {
        var form = [
            ("grant_type", "refresh_token"), ("client_id", grant.clientID), ("refresh_token", grant.refreshToken),
        ]
        if let secret = grant.clientSecret { form.append(("client_secret", secret)) }
        return try await requestToken(form: form)
    }

    /// Runs the JWT bearer grant: builds the assertion (`{"alg":"RS256"}`, `iss`, `sub`, `aud`,
    /// `exp`), has `sign` sign it, and posts it.
    ///
    /// - Parameters:
    ///   - grant: The claims.
    ///   - now: The current time, for `exp`.
    ///   - sign: Returns the RS256 (RSASSA-PKCS1-v1_5 with SHA-256) signature of the bytes given.
    /// - Throws: ``OrgClientError`` with code ``OrgClientError/Code/oauth``, or what `sign` throws.
    public func requestJWTBearerToken(
        _ grant: JWTBearerGrant,
        now: Date = Date(),
        sign: @Sendable ([UInt8]) throws -> [UInt8]
    ) async throws -> OAuthToken {
        let assertion = try Self.makeAssertion(grant, now: now, sign: sign)
        return try await requestToken(form: [
            ("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("assertion", assertion),
        ])
    }

    /// Runs the client-credentials grant (the connected app's run-as user), with the ID and
    /// secret in the form body.
    ///
    /// - Throws: ``OrgClientError`` with code ``OrgClientError/Code/oauth`` when the host refuses.
    public func requestClientCredentialsToken(clientID: String, clientSecret: String) async throws -> OAuthToken {
        try await requestToken(form: [
            ("grant_type", "client_credentials"), ("client_id", clientID), ("client_secret", clientSecret),
        ])
    }

    static func makeAssertion(_ grant: JWTBearerGrant, now: Date, sign: ([UInt8]) throws -> [UInt8]) throws -> String {
        let expiry = Int64(now.timeIntervalSince1970) + grant.lifetime.components.seconds
        let header: OrgValue = ["alg": "RS256"]
        let claims: OrgValue = [
            "iss": .string(grant.clientID), "sub": .string(grant.username), "aud": .string(grant.audience),
            "exp": .integer(expiry),
        ]
        let signingInput = base64URL(Array(header.jsonText.utf8)) + "." + base64URL(Array(claims.jsonText.utf8))
        let signature = try sign(Array(signingInput.utf8))
        return signingInput + "." + base64URL(signature)
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private func requestToken(form: [(String, String)]) async throws -> OAuthToken {
        var request = OutgoingRequest(
            .post,
            "/services/oauth2/token",
            body: form.map { "\($0.0)=\(PathComponents.encode($0.1))" }.joined(separator: "&"),
            isIdempotent: false
        )
        request.contentType = "application/x-www-form-urlencoded"
        request.isAuthenticated = false
        let value: OrgValue
        do {
            value = try await transport.sendForJSON(request)
        } catch let error as OrgClientError where error.httpStatus.map({ (400..<500).contains($0) }) ?? false {
            throw OrgClientError.oauthRefused(error)
        }
        guard let accessToken = value["access_token"]?.stringValue, let instanceURL = value["instance_url"]?.stringValue
        else {
            throw OrgClientError.unexpectedShape(
                "a token response without 'access_token' or 'instance_url'",
                request: request
            )
        }
        return OAuthToken(
            accessToken: accessToken,
            instanceURL: instanceURL,
            identityURL: value["id"]?.stringValue,
            refreshToken: value["refresh_token"]?.stringValue
        )
    }
}

extension OrgClientError {
    static func oauthRefused(_ error: OrgClientError) -> OrgClientError {
        var refused = error
        refused.code = .oauth
        let server = error.serverErrors.first.map { " (\($0.errorCode): \($0.message))" } ?? ""
        refused.message =
            "the login server refused the grant\(server); check the client ID, the user, "
            + "the key or refresh token, and the login URL"
        return refused
    }
}
