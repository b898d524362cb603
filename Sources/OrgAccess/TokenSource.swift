/// Where an org's access tokens come from, and so how a new one is obtained when the org answers
/// 401 `INVALID_SESSION_ID` in the middle of a run.
///
/// | case | first token | after a 401 | ``label`` |
/// |---|---|---|---|
/// | ``accessToken(instanceURL:token:)`` | given | none: the run fails with the fix | `access-token` |
/// | ``salesforceCLI(alias:)`` | `sf org display` + `sf org auth show-access-token` | asks `sf` again | `sf:NAME` |
/// | ``sfdxAuthURL(_:loginURL:)`` | refresh-token grant | the grant again | `sfdx-auth-url` |
/// | ``jwtBearer(_:)`` | JWT bearer grant | a new assertion | `jwt` |
/// | ``clientCredentials(_:)`` | client-credentials grant | the grant again | `client-credentials` |
/// | ``local(_:)`` | the embedded org's token | its refresh grant | `local` |
///
/// A refresh token that belongs to `sf` is never used here: `sf` refreshes it itself, and a
/// rotation done behind its back would log it out.
public enum TokenSource: Sendable, Hashable {
    /// A raw access token for an instance URL.
    case accessToken(instanceURL: String, token: SecretSource)
    /// An org logged in with the Salesforce CLI, by alias or username.
    case salesforceCLI(alias: String)
    /// An SFDX auth URL (`force://CLIENT_ID:SECRET:REFRESH_TOKEN@HOST`); `loginURL` overrides
    /// `https://HOST`.
    case sfdxAuthURL(SecretSource, loginURL: String?)
    /// The OAuth 2.0 JWT bearer flow with an RSA key.
    case jwtBearer(JWTBearerCredentials)
    /// The OAuth 2.0 client-credentials flow.
    case clientCredentials(ClientCredentials)
    /// The embedded local org stored in a directory, started in this process.
    case local(LocalOrgSettings)

    /// How `org whoami` names the source: `sf:NAME`, `jwt`, `sfdx-auth-url`, `client-credentials`,
    /// `access-token` or `local`.
    public var label: String {
        switch self {
        case .accessToken: "access-token"
        case .salesforceCLI(let alias): "sf:\(alias)"
        case .sfdxAuthURL: "sfdx-auth-url"
        case .jwtBearer: "jwt"
        case .clientCredentials: "client-credentials"
        case .local: "local"
        }
    }
}

/// The settings of the JWT bearer flow.
public struct JWTBearerCredentials: Sendable, Hashable {
    /// The PEM file of the RSA private key whose certificate the connected app holds.
    public var keyFile: String
    /// The connected app's consumer key (`iss`).
    public var clientID: String
    /// The user to log in as (`sub`).
    public var username: String
    /// The login host: `https://login.salesforce.com` (default), `https://test.salesforce.com` or a
    /// My Domain URL.
    public var loginURL: String?

    /// Creates JWT settings.
    public init(keyFile: String, clientID: String, username: String, loginURL: String? = nil) {
        self.keyFile = keyFile
        self.clientID = clientID
        self.username = username
        self.loginURL = loginURL
    }
}

/// The settings of the client-credentials flow.
public struct ClientCredentials: Sendable, Hashable {
    /// The connected app's consumer key.
    public var clientID: String
    /// Where the consumer secret is.
    public var secret: SecretSource
    /// The org's My Domain URL (the flow is not served by login.salesforce.com).
    public var loginURL: String

    /// Creates client-credentials settings.
    public init(clientID: String, secret: SecretSource, loginURL: String) {
        self.clientID = clientID
        self.secret = secret
        self.loginURL = loginURL
    }
}

/// How to open and serve an embedded local org (`local:DIR`).
public struct LocalOrgSettings: Sendable, Hashable {
    /// The org's data directory.
    public var directory: String
    /// Data-tree files loaded when the org is created.
    public var seedFiles: [String]
    /// A schema file adding objects and fields, stored with the org.
    public var schemaFile: String?
    /// A forced query page size (tests).
    public var pageSize: Int?
    /// The probability of an injected 500/503.
    public var failRate: Double
    /// The seed of the failure draws.
    public var failSeed: UInt64?
    /// Serve this many requests, then drop connections.
    public var failAfter: Int?
    /// A file receiving one JSON line per request.
    public var requestLog: String?

    /// Creates settings; only the directory is required.
    public init(
        directory: String,
        seedFiles: [String] = [],
        schemaFile: String? = nil,
        pageSize: Int? = nil,
        failRate: Double = 0,
        failSeed: UInt64? = nil,
        failAfter: Int? = nil,
        requestLog: String? = nil
    ) {
        self.directory = directory
        self.seedFiles = seedFiles
        self.schemaFile = schemaFile
        self.pageSize = pageSize
        self.failRate = failRate
        self.failSeed = failSeed
        self.failAfter = failAfter
        self.requestLog = requestLog
    }
}
