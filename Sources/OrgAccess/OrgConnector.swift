import Foundation
import Logging
import OrgClient

/// Turns an ``OrgDefinition`` into a working ``OrgConnection`` for the length of a scope: gets
/// the first token from the source, starts an embedded local org when the source is one, and
/// gives the client a renewal that asks the same source again after a 401.
///
/// ```swift
/// let connector = OrgConnector(environment: ProcessInfo.processInfo.environment, logger: logger)
/// try await connector.withConnection(to: definition) { connection in
///     let page = try await connection.client.queryFirstPage("SELECT Id FROM Account", options: .init())
/// }
/// ```
public struct OrgConnector: Sendable {
    /// The process environment (`SYNCRUN_SF`, `PATH`, `SF_AUDIENCE_URL`, secrets named by env).
    public var environment: [String: String]
    /// A PEM file of extra trusted certificate authorities (`--ca-file` / `SSL_CERT_FILE`).
    public var trustedCertificatesFile: String?
    /// Where the clients log (debug and trace; never tokens).
    public var logger: Logger
    /// What starts a `local:DIR` org; without one such orgs are refused (unavailable).
    public var localOrgLauncher: (any LocalOrgLaunching)?
    /// The proxies every connection to an org goes through (OAuth, REST, Bulk, and the Salesforce
    /// CLI's, through its environment); an embedded `local:DIR` org, in this process, never does.
    public var proxy: ProxySettings?

    /// Creates a connector.
    public init(
        environment: [String: String],
        trustedCertificatesFile: String? = nil,
        localOrgLauncher: (any LocalOrgLaunching)? = nil,
        proxy: ProxySettings? = nil,
        logger: Logger
    ) {
        self.proxy = proxy
        self.environment = environment
        self.trustedCertificatesFile = trustedCertificatesFile
        self.localOrgLauncher = localOrgLauncher
        self.logger = logger
    }

    /// Connects to the org and runs `body`; a local org runs, and the HTTP clients live, until
    /// `body` returns.
    ///
    /// - Throws: ``OrgAccessError`` when the org cannot be resolved (unresolvable) or refuses the
    ///   first login (refused); what `body` throws.
    public func withConnection<T: Sendable>(
        to definition: OrgDefinition,
        _ body: (OrgConnection) async throws -> T
    ) async throws -> T {
        switch definition.source {
        case .accessToken(let instanceURL, let secret):
            let token = try secret.read(environment: environment, purpose: "the access token")
            let login = Login(instanceURL: instanceURL, accessToken: token)
            return try await connect(definition, login, renew: nil, body)
        case .salesforceCLI(let alias):
            let cli = SalesforceCLI(environment: environment.merging(proxy?.environmentVariables ?? [:]) { $1 })
            let display = try await cli.display(alias)
            let token = try await cli.accessToken(alias, display: display)
            var login = Login(instanceURL: display.instanceURL, accessToken: token)
            login.username = display.username
            login.apiVersion = display.apiVersion
            // Ask sf again: it refreshes its own login; its refresh token is never used here.
            return try await connect(definition, login, renew: { try await cli.accessToken(alias, display: nil) }, body)
        case .sfdxAuthURL(let secret, let loginURLOverride):
            let authURL = try SFDXAuthURL(parsing: try secret.read(environment: environment, purpose: "the auth URL"))
            let loginURL = try checkedLoginURL(loginURLOverride ?? authURL.loginURL)
            let refresh = RefreshTokenHolder(
                RefreshTokenGrant(
                    clientID: authURL.clientID,
                    clientSecret: authURL.clientSecret.isEmpty ? nil : authURL.clientSecret,
                    refreshToken: authURL.refreshToken
                )
            )
            return try await withOAuth(loginURL: loginURL) { oauth in
                let grant = { @Sendable () async throws -> OAuthToken in
                    let token = try await oauth.refreshAccessToken(await refresh.grant)
                    // A rotating app hands out a new refresh token and voids the old one.
                    if let rotated = token.refreshToken { await refresh.rotate(to: rotated) }
                    return token
                }
                return try await connectOAuth(definition, grant: grant, body)
            }
        case .jwtBearer(let credentials):
            let signer = try RS256Signer(keyFile: credentials.keyFile)
            let loginURL = try checkedLoginURL(credentials.loginURL ?? "https://login.salesforce.com")
            let jwt = JWTBearerGrant(
                clientID: credentials.clientID,
                username: credentials.username,
                audience: audience(for: loginURL)
            )
            return try await withOAuth(loginURL: loginURL) { oauth in
                // Each call signs a new assertion, with a new `exp`.
                let grant = { @Sendable () async throws -> OAuthToken in
                    try await oauth.requestJWTBearerToken(jwt, sign: signer.sign)
                }
                return try await connectOAuth(definition, username: credentials.username, grant: grant, body)
            }
        case .clientCredentials(let credentials):
            let secret = try credentials.secret.read(environment: environment, purpose: "the client secret")
            let loginURL = try checkedLoginURL(credentials.loginURL)
            return try await withOAuth(loginURL: loginURL) { oauth in
                let grant = { @Sendable () async throws -> OAuthToken in
                    try await oauth.requestClientCredentialsToken(clientID: credentials.clientID, clientSecret: secret)
                }
                return try await connectOAuth(definition, grant: grant, body)
            }
        case .local(let settings):
            guard let launcher = localOrgLauncher else {
                throw OrgAccessError.localOrg(
                    settings.directory,
                    "this program cannot start local orgs (its OrgConnector has no localOrgLauncher); "
                        + "run it with syncrun, or serve the org with 'syncrun org serve' and pass its URL"
                )
            }
            var direct = self
            direct.proxy = nil
            return try await launcher.withRunningOrg(settings, logger: logger) { running in
                try await direct.withOAuth(loginURL: running.baseURL) { oauth in
                    let grant = RefreshTokenGrant(clientID: "syncrun", refreshToken: running.refreshToken)
                    var login = Login(instanceURL: running.baseURL, accessToken: running.accessToken)
                    login.notes = running.notes
                    login.identity = running.identity
                    return try await direct.connect(
                        definition,
                        login,
                        renew: { try await oauth.refreshAccessToken(grant).accessToken },
                        body
                    )
                }
            }
        }
    }

    // MARK: - Steps

    /// What the first login gave.
    private struct Login {
        var instanceURL: String
        var accessToken: String
        var username: String?
        var apiVersion: String?
        var identity: OrgUserIdentity?
        var notes: [String] = []
    }

    /// Runs `grant` for the first token, then connects with `grant` as the renewal.
    private func connectOAuth<T: Sendable>(
        _ definition: OrgDefinition,
        username: String? = nil,
        grant: @escaping @Sendable () async throws -> OAuthToken,
        _ body: (OrgConnection) async throws -> T
    ) async throws -> T {
        let token: OAuthToken
        do {
            token = try await grant()
        } catch let error as OrgClientError where error.code == .oauth || error.code == .authentication {
            throw OrgAccessError.refused(definition, underlying: error)
        }
        var login = Login(instanceURL: token.instanceURL, accessToken: token.accessToken)
        login.username = username
        login.identity = token.identityURL.flatMap(OrgUserIdentity.init(identityURL:))
        return try await connect(definition, login, renew: { try await grant().accessToken }, body)
    }

    /// Runs `body` with a client for the login's instance; `renew` gets a new token after a 401.
    private func connect<T: Sendable>(
        _ definition: OrgDefinition,
        _ login: Login,
        renew: (@Sendable () async throws -> String)?,
        _ body: (OrgConnection) async throws -> T
    ) async throws -> T {
        let apiVersion = definition.apiVersion ?? login.apiVersion ?? OrgEndpoint.defaultAPIVersion
        let endpoint: OrgEndpoint
        do {
            endpoint = try OrgEndpoint(
                baseURL: login.instanceURL,
                accessToken: login.accessToken,
                apiVersion: apiVersion
            )
        } catch let error as OrgClientError {
            throw OrgAccessError.invalidURL(
                login.instanceURL,
                what: "the instance URL of '\(definition.name)'",
                underlying: error
            )
        }
        let configuration = RESTOrgClient.Configuration(
            endpoint: endpoint,
            accessTokenRefresher: renew,
            authenticationAdvice: OrgAuthenticationAdvice(orgName: definition.name, fix: definition.fix),
            trustedCertificatesFile: trustedCertificatesFile,
            proxy: proxy
        )
        return try await withRESTOrgClient(configuration: configuration, logger: logger) { client in
            try await body(
                OrgConnection(
                    definition: definition,
                    client: client,
                    instanceURL: endpoint.baseURL,
                    apiVersion: endpoint.apiVersion,
                    username: login.username,
                    identity: login.identity,
                    notes: login.notes,
                    credentialDigest: OrgConnection.credentialDigest(
                        instanceURL: endpoint.baseURL,
                        accessToken: login.accessToken
                    )
                )
            )
        }
    }

    /// Runs `body` with an OAuth client for `loginURL`, on an HTTP client of its own.
    private func withOAuth<T: Sendable>(loginURL: String, _ body: (OAuthClient) async throws -> T) async throws -> T {
        let endpoint: OrgEndpoint
        do {
            endpoint = try OrgEndpoint(baseURL: loginURL, accessToken: "unused")
        } catch let error as OrgClientError {
            throw OrgAccessError.invalidURL(loginURL, what: "the login URL", underlying: error)
        }
        let configuration = RESTOrgClient.Configuration(
            endpoint: endpoint,
            trustedCertificatesFile: trustedCertificatesFile,
            proxy: proxy
        )
        return try await withRESTOrgClient(configuration: configuration, logger: logger) { loginClient in
            try await body(try OAuthClient(loginURL: loginURL, orgClient: loginClient))
        }
    }

    /// The login URL, normalised; `http://` only for loopback hosts.
    private func checkedLoginURL(_ text: String) throws -> String {
        let endpoint: OrgEndpoint
        do {
            endpoint = try OrgEndpoint(baseURL: text, accessToken: "unused")
        } catch let error as OrgClientError {
            throw OrgAccessError.invalidURL(text, what: "the login URL", underlying: error)
        }
        if endpoint.baseURL.hasPrefix("http://") {
            let host = URLComponents(string: endpoint.baseURL)?.host ?? ""
            guard ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host) || host.hasPrefix("127.") else {
                throw OrgAccessError.insecureLoginURL(text)
            }
        }
        return endpoint.baseURL
    }

    /// The JWT `aud`: `SF_AUDIENCE_URL` when set; the test host for sandboxes, the login host for
    /// production and My Domains; otherwise the login URL itself (a site, or the local org).
    private func audience(for loginURL: String) -> String {
        if let audience = environment["SF_AUDIENCE_URL"], !audience.isEmpty { return audience }
        let host = URLComponents(string: loginURL)?.host ?? ""
        if host == "test.salesforce.com" || host.hasSuffix(".sandbox.my.salesforce.com") {
            return "https://test.salesforce.com"
        }
        if host == "login.salesforce.com" || host.hasSuffix(".my.salesforce.com") {
            return "https://login.salesforce.com"
        }
        return loginURL
    }
}

/// The refresh-token grant of an auth URL, updated when the app rotates refresh tokens.
private actor RefreshTokenHolder {
    private(set) var grant: RefreshTokenGrant

    init(_ grant: RefreshTokenGrant) {
        self.grant = grant
    }

    func rotate(to refreshToken: String) {
        grant.refreshToken = refreshToken
    }
}
