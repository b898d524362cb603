/// What the OAuth token endpoint returns: a token and the instance to use it with.
public struct OAuthToken: Sendable, Hashable {
    /// The access token for `Authorization: Bearer`.
    public var accessToken: String
    /// The org's instance URL (`instance_url`), the base URL of every data call.
    public var instanceURL: String
    /// The identity URL (`id`, `https://login…/id/{orgId}/{userId}`), when sent.
    public var identityURL: String?
    /// A new refresh token, when the app rotates them.
    public var refreshToken: String?

    /// Creates a token.
    public init(accessToken: String, instanceURL: String, identityURL: String? = nil, refreshToken: String? = nil) {
        self.accessToken = accessToken
        self.instanceURL = instanceURL
        self.identityURL = identityURL
        self.refreshToken = refreshToken
    }

    /// An endpoint for this token's instance.
    ///
    /// - Throws: ``OrgClientError`` with code ``OrgClientError/Code/invalidConfiguration``.
    public func makeEndpoint(apiVersion: String = OrgEndpoint.defaultAPIVersion) throws -> OrgEndpoint {
        try OrgEndpoint(baseURL: instanceURL, accessToken: accessToken, apiVersion: apiVersion)
    }
}

extension OAuthToken: CustomStringConvertible, CustomReflectable {
    /// The instance URL only; tokens are shown as `<redacted>`.
    public var description: String { "OAuthToken(\(instanceURL), accessToken: <redacted>)" }

    /// A mirror without the tokens.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: ["instanceURL": instanceURL, "identityURL": identityURL as Any, "accessToken": "<redacted>"]
        )
    }
}

/// The credentials of a refresh-token grant.
public struct RefreshTokenGrant: Sendable, Hashable {
    /// The connected app's consumer key.
    public var clientID: String
    /// The consumer secret, when the app requires one.
    public var clientSecret: String?
    /// The refresh token.
    public var refreshToken: String

    /// Creates a grant.
    public init(clientID: String, clientSecret: String? = nil, refreshToken: String) {
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.refreshToken = refreshToken
    }
}

extension RefreshTokenGrant: CustomStringConvertible, CustomReflectable {
    /// The client ID only.
    public var description: String { "RefreshTokenGrant(clientID: \(clientID), refreshToken: <redacted>)" }

    /// A mirror without the secrets.
    public var customMirror: Mirror { Mirror(self, children: ["clientID": clientID]) }
}

/// The claims of a JWT bearer grant; the assertion is signed by the caller's RS256 signer.
public struct JWTBearerGrant: Sendable, Hashable {
    /// The connected app's consumer key (`iss`).
    public var clientID: String
    /// The username (`sub`).
    public var username: String
    /// The audience (`aud`): `https://login.salesforce.com`, `https://test.salesforce.com` or a
    /// site URL.
    public var audience: String
    /// How long the assertion is valid (`exp` = now + this). Salesforce allows about 3 minutes.
    public var lifetime: Duration

    /// Creates a grant.
    public init(clientID: String, username: String, audience: String, lifetime: Duration = .seconds(180)) {
        self.clientID = clientID
        self.username = username
        self.audience = audience
        self.lifetime = lifetime
    }
}
