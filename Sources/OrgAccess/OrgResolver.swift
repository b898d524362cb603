import Foundation
import SyncConfig

/// Resolves the ORG grammar into an ``OrgDefinition``, the same way for every command and for
/// both sides of a two-org command.
///
/// `ORG` is, in this order:
/// 1. `local:DIR`: the embedded local org stored in DIR;
/// 2. `http://…` or `https://…`: an instance URL, with `--access-token` or `SF_ACCESS_TOKEN`;
/// 3. the name of an org declared in the project file (`syncrun.yaml` / `syncrun.json`);
/// 4. anything else: an `sf` alias or username.
///
/// With no ORG, ``resolveDefault(flags:)`` tries `SF_TARGET_ORG`, then `SFDX_AUTH_URL`, then
/// the project file's `defaultOrg`, then `sf config get target-org`.
public struct OrgResolver: Sendable {
    /// The process environment.
    public var environment: [String: String]
    /// The orgs the project file declares, by name.
    public var projectOrgs: [String: TokenSource]
    /// The project file's `defaultOrg`.
    public var defaultOrg: String?
    /// The project file's path, for messages.
    public var projectFile: String?

    /// Creates a resolver.
    public init(
        environment: [String: String],
        projectOrgs: [String: TokenSource] = [:],
        defaultOrg: String? = nil,
        projectFile: String? = nil
    ) {
        self.environment = environment
        self.projectOrgs = projectOrgs
        self.defaultOrg = defaultOrg
        self.projectFile = projectFile
    }

    /// Command-line settings that complete an ORG: a token for a URL, the local org's test knobs,
    /// the API version.
    public struct Flags: Sendable {
        /// `--access-token`.
        public var accessToken: String?
        /// `--api-version`; `nil` for the source's own or the default.
        public var apiVersion: String?
        /// `--login-url`, overriding an auth URL's host.
        public var loginURL: String?
        /// Applied to a `local:DIR` org named on the command line (`--seed`, `--page-size`, …).
        public var local: LocalOrgSettings?

        /// Creates flags.
        public init(
            accessToken: String? = nil,
            apiVersion: String? = nil,
            loginURL: String? = nil,
            local: LocalOrgSettings? = nil
        ) {
            self.accessToken = accessToken
            self.apiVersion = apiVersion
            self.loginURL = loginURL
            self.local = local
        }
    }

    /// Resolves an ORG argument.
    ///
    /// - Throws: ``OrgAccessError`` (unresolvable) when a URL has no token or `local:` no
    ///   directory.
    public func resolve(_ org: String, flags: Flags = Flags()) throws -> OrgDefinition {
        // An ORG is a name, never a credential: one that holds a token, an auth URL or a URL's
        // user-info is refused before it can become an org name printed in messages and reports.
        for (what, value) in [("--org", org), ("--login-url", flags.loginURL ?? "")] {
            let scan = CredentialMask.scan(value)
            if let finding = scan.findings.first {
                throw OrgAccessError.credentialInOrg(scan.masked, kind: finding.kind, option: what)
            }
        }
        if org.hasPrefix("local:") {
            let directory = String(org.dropFirst("local:".count))
            guard !directory.isEmpty else { throw OrgAccessError.emptyLocalDirectory() }
            var settings = flags.local ?? LocalOrgSettings(directory: directory)
            settings.directory = directory
            return OrgDefinition(name: org, source: .local(settings), apiVersion: flags.apiVersion)
        }
        if org.hasPrefix("http://") || org.hasPrefix("https://") {
            let token: SecretSource
            if let given = flags.accessToken, !given.isEmpty {
                token = .value(given)
            } else if environment["SF_ACCESS_TOKEN"].map({ !$0.isEmpty }) ?? false {
                token = .environment("SF_ACCESS_TOKEN")
            } else {
                throw OrgAccessError.missingAccessToken(org)
            }
            return OrgDefinition(
                name: org,
                source: .accessToken(instanceURL: org, token: token),
                apiVersion: flags.apiVersion
            )
        }
        if let source = projectOrgs[org] {
            return OrgDefinition(name: org, source: source, apiVersion: flags.apiVersion)
        }
        guard !org.isEmpty else { throw OrgAccessError.emptyOrg() }
        return OrgDefinition(name: org, source: .salesforceCLI(alias: org), apiVersion: flags.apiVersion)
    }

    /// The org when no ORG is given: `SF_TARGET_ORG`, `SFDX_AUTH_URL`, the project file's
    /// `defaultOrg`, then `sf config get target-org --json`.
    ///
    /// - Throws: ``OrgAccessError`` (unresolvable) naming the four when none is set.
    public func resolveDefault(flags: Flags = Flags()) async throws -> OrgDefinition {
        if let target = environment["SF_TARGET_ORG"], !target.isEmpty {
            return try resolve(target, flags: flags)
        }
        if let authURL = environment["SFDX_AUTH_URL"], !authURL.isEmpty {
            return OrgDefinition(
                name: "$SFDX_AUTH_URL",
                source: .sfdxAuthURL(.environment("SFDX_AUTH_URL"), loginURL: flags.loginURL),
                apiVersion: flags.apiVersion
            )
        }
        if let defaultOrg, !defaultOrg.isEmpty {
            return try resolve(defaultOrg, flags: flags)
        }
        if let target = await SalesforceCLI(environment: environment).targetOrg() {
            return try resolve(target, flags: flags)
        }
        throw OrgAccessError.noOrg(projectFile: projectFile)
    }
}
