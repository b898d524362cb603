import SyncConfig

extension OrgResolver {
    /// A resolver that knows the project file's orgs and `defaultOrg`.
    public init(environment: [String: String], project: ProjectFile) {
        var orgs: [String: TokenSource] = [:]
        for (name, org) in project.orgs { orgs[name] = TokenSource(org) }
        self.init(
            environment: environment,
            projectOrgs: orgs,
            defaultOrg: project.defaultOrg,
            projectFile: project.url.path
        )
    }
}

extension TokenSource {
    /// The token source of a project-file org.
    public init(_ org: ProjectOrg) {
        switch org {
        case .local(let directory, let seed, let schema):
            self = .local(LocalOrgSettings(directory: directory, seedFiles: seed, schemaFile: schema))
        case .url(let url, let env):
            self = .accessToken(instanceURL: url, token: .environment(env))
        case .sfAlias(let alias):
            self = .salesforceCLI(alias: alias)
        case .authURLFile(let path):
            self = .sfdxAuthURL(.file(path), loginURL: nil)
        case .authURLEnv(let name):
            self = .sfdxAuthURL(.environment(name), loginURL: nil)
        case .jwt(let keyFile, let clientID, let username, let loginURL):
            self = .jwtBearer(
                JWTBearerCredentials(keyFile: keyFile, clientID: clientID, username: username, loginURL: loginURL)
            )
        case .clientCredentials(let clientID, let secretFile, let loginURL):
            self = .clientCredentials(
                ClientCredentials(clientID: clientID, secret: .file(secretFile), loginURL: loginURL)
            )
        }
    }
}
