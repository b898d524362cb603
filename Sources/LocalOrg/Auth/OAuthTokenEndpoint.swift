import Foundation

/// `POST /services/oauth2/token`: the refresh-token grant (§9.3), the JWT bearer grant (§9.2) and
/// the client-credentials grant (client ID and secret in the form body or as HTTP Basic), which is
/// refused (`invalid_client`) unless a client secret is configured, and then takes only that secret.
/// An empty or blank refresh token or secret never matches.
///
/// Answers with Salesforce's token response on success and the OAuth error shape
/// `{"error": "invalid_grant", "error_description": "…"}` (400) on failure, never the REST error array.
struct OAuthTokenEndpoint: Sendable {
    /// The JWT bearer grant type.
    static let jwtBearerGrant = "urn:ietf:params:oauth:grant-type:jwt-bearer"

    /// A successful token response.
    struct TokenResponse: Encodable {
        var accessToken: String
        var instanceURL: String
        var id: String
        var tokenType = "Bearer"
        var issuedAt: String
        var signature: String
        var scope: String

        private enum CodingKeys: String, CodingKey {
            case accessToken = "access_token", instanceURL = "instance_url", id, tokenType = "token_type"
            case issuedAt = "issued_at", signature, scope
        }
    }

    /// An OAuth failure.
    struct Failure: Encodable, Error {
        var error: String
        var errorDescription: String

        private enum CodingKeys: String, CodingKey {
            case error, errorDescription = "error_description"
        }
    }

    /// The tokens.
    let sessions: SessionStore
    /// The JWT verifier, when the JWT grant is enabled.
    let verifier: JWTAssertionVerifier?
    /// The client ID the refresh and client-credentials grants require, if any.
    let clientID: String?
    /// The client secret the client-credentials grant requires; `nil` turns that grant off.
    let clientSecret: String?
    /// The org and user the tokens belong to.
    let identity: OrgIdentity
    /// The usernames of the schema's restricted users (``OrgUser``): a JWT assertion whose `sub`
    /// names one gets a token acting as that user, as a real org issues it for the named user.
    var restrictedUsernames: [String] = []

    /// Handles one token request.
    ///
    /// - Parameters:
    ///   - request: the request; its body is form-encoded.
    ///   - baseURL: the server's base URL, returned as `instance_url`.
    ///   - now: the current time.
    func respond(to request: OrgHTTPRequest, baseURL: String, now: Date) -> OrgHTTPResponse {
        do {
            let token = try grant(request, baseURL: baseURL, now: now)
            return .json(200, Self.encode(token))
        } catch {
            return .json(400, Self.encode(error))
        }
    }

    private func grant(_ request: OrgHTTPRequest, baseURL: String, now: Date) throws(Failure) -> TokenResponse {
        guard request.method == "POST" else {
            throw Failure(error: "invalid_request", errorDescription: "must use HTTP POST")
        }
        let form = FormDecoding.pairs(String(decoding: request.body, as: UTF8.self))
        func value(_ name: String) -> String? { form.first { $0.name == name }?.value }
        switch value("grant_type") {
        case "refresh_token":
            if let clientID, value("client_id") != clientID {
                throw Failure(error: "invalid_client_id", errorDescription: "client identifier invalid")
            }
            guard sessions.isRefreshToken(value("refresh_token")) else {
                throw Failure(error: "invalid_grant", errorDescription: "expired access/refresh token")
            }
            return makeToken(baseURL: baseURL, now: now, scope: "api refresh_token", username: sessions.primaryUsername)
        case Self.jwtBearerGrant:
            guard let verifier else {
                throw Failure(
                    error: "invalid_grant",
                    errorDescription: "the JWT bearer grant is not enabled; start the local org with --jwt-cert"
                )
            }
            guard let assertion = value("assertion"), !assertion.isEmpty else {
                throw Failure(error: "invalid_request", errorDescription: "assertion is missing")
            }
            let claims: JWTAssertionVerifier.Claims
            do {
                claims = try verifier.verify(assertion, now: now, ownAudience: baseURL)
            } catch {
                throw Failure(error: "invalid_grant", errorDescription: error.description)
            }
            let subject = claims.sub?.lowercased()
            let named = restrictedUsernames.first { $0.lowercased() == subject }
            return makeToken(baseURL: baseURL, now: now, scope: "api", username: named ?? sessions.primaryUsername)
        case "client_credentials":
            // Without a configured secret nobody can prove who they are: the grant is off, and a
            // token for "any id, any secret" would hand the org to whoever can reach the port.
            guard let clientSecret, !SessionStore.isBlank(clientSecret) else {
                throw Failure(
                    error: "invalid_client",
                    errorDescription:
                        "the client-credentials grant is not enabled on this org; start it with --client-secret-file"
                )
            }
            let (id, secret) = Self.clientCredentials(form: form, authorization: request.header("Authorization"))
            guard let id, !SessionStore.isBlank(id), let secret, !SessionStore.isBlank(secret) else {
                throw Failure(error: "invalid_client", errorDescription: "client_id and client_secret are required")
            }
            if let clientID, id != clientID {
                throw Failure(error: "invalid_client_id", errorDescription: "client identifier invalid")
            }
            guard SessionStore.constantTimeEquals(secret, clientSecret) else {
                throw Failure(error: "invalid_client", errorDescription: "invalid client credentials")
            }
            return makeToken(baseURL: baseURL, now: now, scope: "api", username: sessions.primaryUsername)
        case nil:
            throw Failure(error: "invalid_request", errorDescription: "grant_type is missing")
        default:
            throw Failure(error: "unsupported_grant_type", errorDescription: "grant type not supported")
        }
    }

    private func makeToken(
        baseURL: String,
        now: Date,
        scope: String,
        username: String? = nil
    ) -> TokenResponse {
        let identityURL = "\(baseURL)/id/\(identity.orgID)/\(identity.userID)"
        let issuedAt = String(Int64(now.timeIntervalSince1970 * 1000))
        return TokenResponse(
            accessToken: sessions.issueAccessToken(orgID: identity.orgID, username: username),
            instanceURL: baseURL,
            id: identityURL,
            issuedAt: issuedAt,
            signature: sessions.signature(identityURL: identityURL, issuedAt: issuedAt),
            scope: scope
        )
    }

    /// The client ID and secret of a client-credentials request: HTTP Basic when present, else the
    /// `client_id` and `client_secret` form fields.
    private static func clientCredentials(
        form: [(name: String, value: String)],
        authorization: String?
    ) -> (String?, String?) {
        if let authorization, authorization.lowercased().hasPrefix("basic "),
            let decoded = Data(base64Encoded: String(authorization.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
            let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":")
        {
            // RFC 6749 §2.3.1: both parts are form-encoded before they are joined.
            return (FormDecoding.component(text[..<colon]), FormDecoding.component(text[text.index(after: colon)...]))
        }
        return (form.first { $0.name == "client_id" }?.value, form.first { $0.name == "client_secret" }?.value)
    }

    private static func encode(_ value: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)) ?? Data("{}".utf8)
    }
}

/// The org and user the local org's sessions belong to.
struct OrgIdentity: Sendable, Equatable {
    /// The 18-character organization ID (`00D…`).
    var orgID: String
    /// The 18-character user ID (`005…`).
    var userID: String
}
