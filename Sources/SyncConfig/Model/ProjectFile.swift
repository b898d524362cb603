import Foundation

/// The project file, `syncrun.yaml` (or `.yml`, or `syncrun.json`) in the config directory: which
/// org and store a project uses by default, and its named orgs.
///
/// Keys (all optional):
/// - `defaultOrg` (`String`): the org used when no `--org` is given (after `SF_TARGET_ORG` and
///   `SFDX_AUTH_URL`); the name of an org of `orgs`, or any ORG (`local:DIR`, an sf alias).
/// - `store` (`String`): the store file; default `.syncrun/store.db` under the config directory.
/// - `orgs` (`{name: org}`): named orgs, each one of the forms of ``ProjectOrg``, with an optional
///   `pubsubUrl` (the org's Pub/Sub API endpoint for `syncrun watch`, as `--pubsub-url` takes it).
///
/// Secrets are named by file or environment variable, never written inline: a literal token,
/// auth URL or client secret is an `inline-secret` error. Relative paths are resolved against the
/// file's folder.
public struct ProjectFile: Sendable, Hashable {
    /// The file read.
    public var url: URL
    /// The default org, if set.
    public var defaultOrg: String?
    /// The store file (absolute), if set.
    public var store: String?
    /// The named orgs, in file order.
    public var orgs: [(name: String, org: ProjectOrg)]
    /// The `pubsubUrl` of the named orgs that set one, by org name.
    public var pubsubURLs: [String: String]

    /// Creates a project file.
    public init(
        url: URL,
        defaultOrg: String? = nil,
        store: String? = nil,
        orgs: [(name: String, org: ProjectOrg)] = [],
        pubsubURLs: [String: String] = [:]
    ) {
        self.url = url
        self.defaultOrg = defaultOrg
        self.store = store
        self.orgs = orgs
        self.pubsubURLs = pubsubURLs
    }

    /// The org called `name`.
    public func org(named name: String) -> ProjectOrg? {
        orgs.first { $0.name == name }?.org
    }

    /// The names the project file may have, in the order they are looked for.
    public static let fileNames = ["syncrun.yaml", "syncrun.yml", "syncrun.json"]

    /// The project file in `directory`, if there is one.
    public static func locate(in directory: URL) -> URL? {
        fileNames.map { directory.appendingPathComponent($0) }
            .first { FileManager.default.fileExists(atPath: $0.path) }
    }

    public static func == (lhs: ProjectFile, rhs: ProjectFile) -> Bool {
        lhs.url == rhs.url && lhs.defaultOrg == rhs.defaultOrg && lhs.store == rhs.store
            && lhs.orgs.map(\.name) == rhs.orgs.map(\.name) && lhs.orgs.map(\.org) == rhs.orgs.map(\.org)
            && lhs.pubsubURLs == rhs.pubsubURLs
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(url)
        hasher.combine(defaultOrg)
        hasher.combine(store)
        hasher.combine(orgs.map(\.name))
    }
}

/// One named org of the project file. Paths are absolute (resolved against the file's folder).
public enum ProjectOrg: Sendable, Hashable {
    /// `{local: {dir, seed: [files], schema}}`: the embedded local org stored in `dir`.
    case local(directory: String, seed: [String], schema: String?)
    /// `{url, accessTokenEnv}`: an instance URL and the environment variable holding its token.
    case url(String, accessTokenEnv: String)
    /// `{sfAlias}`: an org logged in with the Salesforce CLI.
    case sfAlias(String)
    /// `{authUrlFile}`: an SFDX auth URL in a file.
    case authURLFile(String)
    /// `{authUrlEnv}`: an SFDX auth URL in an environment variable.
    case authURLEnv(String)
    /// `{jwt: {keyFile, clientId, username, loginUrl}}`: the JWT bearer flow.
    case jwt(keyFile: String, clientID: String, username: String, loginURL: String?)
    /// `{clientCredentials: {clientId, secretFile, loginUrl}}`: the client-credentials flow.
    case clientCredentials(clientID: String, secretFile: String, loginURL: String)
}

/// What loading a project file produced: the file, when usable, and every diagnostic.
public struct LoadedProjectFile: Sendable, Hashable {
    /// The project, or `nil` when the file has errors.
    public var project: ProjectFile?
    /// Every problem, in file order.
    public var diagnostics: [Diagnostic]

    /// Whether any diagnostic is an error.
    public var hasErrors: Bool { diagnostics.contains { $0.isError } }
}
