/// An org resolved from an ORG argument, flags, the environment or the project file: its name
/// and where its tokens come from. Holds no secret, only where secrets are.
public struct OrgDefinition: Sendable, Hashable {
    /// The org as the user named it (an alias, a project-file name, a URL, `local:DIR`), for
    /// messages.
    public var name: String
    /// Where the tokens come from.
    public var source: TokenSource
    /// The REST API version; `nil` for the one `sf` reports, else ``OrgClient/OrgEndpoint/defaultAPIVersion``.
    public var apiVersion: String?

    /// Creates a definition.
    public init(name: String, source: TokenSource, apiVersion: String? = nil) {
        self.name = name
        self.source = source
        self.apiVersion = apiVersion
    }

    /// The command or change that gives this org a working login again, as a sentence fragment.
    public var fix: String {
        switch source {
        case .accessToken:
            "get a new access token (for example with 'sf org auth show-access-token -o ALIAS --json') and pass it "
                + "with --access-token or SF_ACCESS_TOKEN, or use an sf alias with --org ALIAS"
        case .salesforceCLI(let alias):
            "log in again with 'sf org login web -o \(alias)' and run again"
        case .sfdxAuthURL(let secret, _):
            "make a new auth URL with 'sf org auth show-sfdx-auth-url -o ALIAS --json' and store it in \(secret)"
        case .jwtBearer(let jwt):
            "check that the connected app '\(jwt.clientID)' holds the certificate of '\(jwt.keyFile)', that "
                + "'\(jwt.username)' is pre-authorized for it, and the login URL"
        case .clientCredentials(let credentials):
            "check that the connected app '\(credentials.clientID)' enables the client credentials flow with a "
                + "run-as user, the secret in \(credentials.secret), and the My Domain login URL"
        case .local(let settings):
            "restart the run; the local org in '\(settings.directory)' issues a new token on every start"
        }
    }
}
