import ArgumentParser
import Foundation
import Logging
import OrgAccess
import OrgClient
import SoupStore
import SyncEngine
import SyncrunSession

/// Which org to talk to, and how to log in to it (every command that takes `--org`).
///
/// `--org ORG` is `local:DIR`, an `http(s)://` instance URL (with `--access-token` or
/// `SF_ACCESS_TOKEN`), the name of an org in the project file, or else an `sf` alias or
/// username. The JWT, auth-URL and client-credentials flags define an unnamed org instead. With
/// neither, the org is `SF_TARGET_ORG`, `SFDX_AUTH_URL`, the project file's `defaultOrg`, or sf's
/// `target-org`, in that order. Resolution lives in ``OrgResolver``; this type only parses flags.
struct OrgOptions: ParsableArguments {
    @Option(
        name: .customLong("org"),
        help: ArgumentHelp(
            "The org: local:DIR, http(s)://HOST[:PORT], an org of the project file, or an sf alias or username "
                + "(default: $SF_TARGET_ORG, $SFDX_AUTH_URL, the project's defaultOrg, sf's target-org).",
            valueName: "org"
        )
    )
    var org: String?

    @Option(
        help: ArgumentHelp(
            "The access token for an http(s) org (default: $SF_ACCESS_TOKEN). Never printed.",
            valueName: "token"
        )
    )
    var accessToken: String?

    @Option(help: ArgumentHelp("The REST API version (default: the one sf reports, else 62.0).", valueName: "NN.N"))
    var apiVersion: String?

    @Option(
        help: ArgumentHelp(
            "An org from an SFDX auth URL (force://…) read from FILE (or $SFDX_AUTH_URL when no org is given).",
            valueName: "file"
        )
    )
    var sfdxAuthURLFile: String?

    @Option(help: ArgumentHelp("A JWT bearer org: the PEM private key of the connected app.", valueName: "file"))
    var jwtKeyFile: String?

    @Option(help: ArgumentHelp("The connected app's consumer key (JWT, client credentials).", valueName: "id"))
    var clientID: String?

    @Option(help: ArgumentHelp("The user a JWT bearer org logs in as.", valueName: "username"))
    var username: String?

    @Option(help: ArgumentHelp("A client-credentials org: the consumer secret, read from FILE.", valueName: "file"))
    var clientSecretFile: String?

    @Option(
        help: ArgumentHelp(
            "The login URL (JWT: default https://login.salesforce.com; client credentials: the My Domain URL; "
                + "overrides an auth URL's host). http:// only for loopback hosts.",
            valueName: "url"
        )
    )
    var loginURL: String?

    @Option(
        help: ArgumentHelp(
            "A PEM file of extra certificate authorities to trust (default: $SSL_CERT_FILE).",
            valueName: "file"
        )
    )
    var caFile: String?

    @Option(
        help: ArgumentHelp(
            "An HTTP proxy for every connection to the org, http://[USER:PASSWORD@]HOST:PORT (default: "
                + "$HTTPS_PROXY / $HTTP_PROXY; hosts in $NO_PROXY go direct). Credentials are never printed.",
            valueName: "url"
        )
    )
    var proxy: String?

    @Option(help: ArgumentHelp("local:DIR only: force the query page size (tests).", valueName: "n"))
    var pageSize: Int?

    @Option(help: ArgumentHelp("local:DIR only: probability (0…1) of a random 500/503 answer.", valueName: "p"))
    var failRate: Double = 0

    @Option(help: ArgumentHelp("local:DIR only: seed of the --fail-rate draws.", valueName: "seed"))
    var failSeed: UInt64?

    @Option(help: ArgumentHelp("local:DIR only: append one JSON line per request to FILE.", valueName: "file"))
    var requestLog: String?

    @Option(
        help: ArgumentHelp(
            "local:DIR only: after N requests, drop every further connection without an answer.",
            valueName: "n"
        )
    )
    var failAfter: Int?

    @Option(
        help: ArgumentHelp(
            "local:DIR only: a schema file (JSON or YAML) adding custom objects, fields and briefcases to the org; "
                + "stored with it (as 'syncrun org serve --schema').",
            valueName: "file"
        )
    )
    var schema: String?

    @Option(
        name: .customLong("seed"),
        help: ArgumentHelp(
            "local:DIR only: when DIR holds no org yet, create it from this Salesforce CLI data plan or record file "
                + "first (repeatable; as 'syncrun org seed').",
            valueName: "file"
        )
    )
    var seedFiles: [String] = []

    func validate() throws {
        guard (0...1).contains(failRate) else { throw ValidationError("--fail-rate must be between 0 and 1") }
        if let pageSize, pageSize < 1 { throw ValidationError("--page-size must be at least 1") }
        if let failAfter, failAfter < 0 { throw ValidationError("--fail-after must not be negative") }
        let isLocal = org?.hasPrefix("local:") ?? false
        if !isLocal,
            pageSize != nil || failRate > 0 || requestLog != nil || failAfter != nil
                || !seedFiles.isEmpty || schema != nil
        {
            throw ValidationError(
                "--page-size, --fail-rate, --fail-after, --request-log, --schema and --seed only apply to "
                    + "--org local:DIR"
            )
        }
        let defining = definingFlags
        if let org, !defining.isEmpty {
            throw ValidationError(
                "\(defining.joined(separator: ", ")) define an org of their own; give either them or --org '\(org)', "
                    + "not both"
            )
        }
        if jwtKeyFile != nil, sfdxAuthURLFile != nil || clientSecretFile != nil {
            throw ValidationError("--jwt-key-file, --sfdx-auth-url-file and --client-secret-file exclude each other")
        }
        if sfdxAuthURLFile != nil, clientSecretFile != nil {
            throw ValidationError("--sfdx-auth-url-file and --client-secret-file exclude each other")
        }
        if jwtKeyFile != nil, clientID == nil || username == nil {
            throw ValidationError("--jwt-key-file needs --client-id and --username (and --login-url for a sandbox)")
        }
        if clientSecretFile != nil, clientID == nil || loginURL == nil {
            throw ValidationError("--client-secret-file needs --client-id and --login-url (the org's My Domain URL)")
        }
    }

    /// The flags given that define an unnamed org.
    private var definingFlags: [String] {
        var flags: [String] = []
        if sfdxAuthURLFile != nil { flags.append("--sfdx-auth-url-file") }
        if jwtKeyFile != nil { flags.append("--jwt-key-file") }
        if clientSecretFile != nil { flags.append("--client-secret-file") }
        return flags
    }

    /// The directory of a `local:DIR` org named on the command line.
    var localDirectory: String? {
        guard let org, org.hasPrefix("local:") else { return nil }
        return String(org.dropFirst("local:".count))
    }

    /// The org these flags name, resolved with the project file's orgs.
    ///
    /// - Throws: ``CLIError`` (usage) when the org cannot be resolved.
    func definition(project: ProjectContext?) async throws -> OrgDefinition {
        let environment = ProcessInfo.processInfo.environment
        let flags = OrgResolver.Flags(
            accessToken: accessToken,
            apiVersion: apiVersion,
            loginURL: loginURL,
            local: localDirectory.map {
                LocalOrgSettings(
                    directory: $0,
                    seedFiles: seedFiles,
                    schemaFile: schema,
                    pageSize: pageSize,
                    failRate: failRate,
                    failSeed: failSeed,
                    failAfter: failAfter,
                    requestLog: requestLog
                )
            }
        )
        if let sfdxAuthURLFile {
            return OrgDefinition(
                name: sfdxAuthURLFile,
                source: .sfdxAuthURL(.file(sfdxAuthURLFile), loginURL: loginURL),
                apiVersion: apiVersion
            )
        }
        if let jwtKeyFile, let clientID, let username {
            let credentials = JWTBearerCredentials(
                keyFile: jwtKeyFile,
                clientID: clientID,
                username: username,
                loginURL: loginURL
            )
            return OrgDefinition(name: username, source: .jwtBearer(credentials), apiVersion: apiVersion)
        }
        if let clientSecretFile, let clientID, let loginURL {
            let credentials = ClientCredentials(clientID: clientID, secret: .file(clientSecretFile), loginURL: loginURL)
            return OrgDefinition(name: loginURL, source: .clientCredentials(credentials), apiVersion: apiVersion)
        }
        let resolver = project?.resolver(environment: environment) ?? OrgResolver(environment: environment)
        return try await OrgAccessErrors.converting(hint: Self.projectOrgHint(for: org, project: project)) {
            if let org { return try resolver.resolve(org, flags: flags) }
            return try await resolver.resolveDefault(flags: flags)
        }
    }

    /// `--proxy` (else the environment's proxy variables), checked: a value that is not a proxy
    /// URL is a usage error, named without its credentials.
    static func proxySettings(flag: String?, environment: [String: String]) throws -> ProxySettings? {
        do {
            return try ProxySettings.resolve(flag: flag, environment: environment)
        } catch let error as OrgClientError {
            throw CLIError.usage(error.message)
        }
    }

    /// The connector of these flags: `--ca-file` (else `SSL_CERT_FILE`), and the embedded local
    /// org for `local:DIR` orgs.
    func connector(logger: Logger, launcher: LocalOrgServerLauncher = LocalOrgServerLauncher()) throws -> OrgConnector {
        let environment = ProcessInfo.processInfo.environment
        return OrgConnector(
            environment: environment,
            trustedCertificatesFile: caFile ?? environment["SSL_CERT_FILE"].flatMap { $0.isEmpty ? nil : $0 },
            localOrgLauncher: launcher,
            proxy: try Self.proxySettings(flag: proxy, environment: environment),
            logger: logger
        )
    }

    /// Connects to the org and runs `body`; a local org runs for the duration of `body`.
    ///
    /// - Throws: ``CLIError``: usage (2) when the org cannot be resolved, failure (1) when it
    ///   refuses the login; what `body` throws.
    func withConnection<T: Sendable>(
        project: ProjectContext?,
        logger: Logger,
        _ body: (OrgConnection) async throws -> T
    ) async throws -> T {
        let definition = try await definition(project: project)
        return try await OrgAccessErrors.converting(hint: Self.projectOrgHint(for: org, project: project)) {
            try await connector(logger: logger).withConnection(to: definition) { connection in
                for note in connection.notes { StandardStreams.writeError(note + "\n") }
                return try await body(connection)
            }
        }
    }

    /// Runs `body` with the org opened for describes only (`org check`, `schema pull`, `org diff`):
    /// no identity call, no store.
    func withDescriber<T: Sendable>(
        project: ProjectContext?,
        logger: Logger,
        _ body: (OrgDescriber) async throws -> T
    ) async throws -> T {
        let definition = try await definition(project: project)
        return try await OrgAccessErrors.converting(hint: Self.projectOrgHint(for: org, project: project)) {
            try await OrgDescriber.with(
                definition,
                connector: try connector(logger: logger),
                notify: StandardStreams.notify
            ) {
                try await body($0)
            }
        }
    }
}

extension OrgOptions {
    /// `; did you mean 'dev'? (an org of the project file)` when `org` names no org of the project
    /// file but is close to one (it was then taken for an sf alias, which failed); else empty.
    static func projectOrgHint(for org: String?, project: ProjectContext?) -> String {
        guard let org, let project, !org.hasPrefix("local:"), !org.hasPrefix("http://"), !org.hasPrefix("https://")
        else { return "" }
        let names = project.project.orgs.map(\.name)
        guard !names.contains(org) else { return "" }
        let clause = NameSuggestion.clause(for: org, among: names)
        return clause.isEmpty ? "" : clause + " (an org of the project file)"
    }
}

/// Org access errors as CLI errors, with the status ``ExitStatus/of(_:)`` gives them: an
/// unresolvable org is a usage error (2), a refusal or an unavailable org a failure (1).
/// `hint` (``OrgOptions/projectOrgHint(for:project:)``) is added to an org access error's message.
enum OrgAccessErrors {
    static func converting<T>(hint: String = "", _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as OrgAccessError {
            throw CLIError(error.message + hint, classifying: error)
        } catch let error as OrgClientError {
            // A login server that cannot be reached, a TLS certificate that is not trusted, …
            throw CLIError(error.message, classifying: error)
        }
    }
}

/// The errors a session's libraries throw as CLI errors, with the status ``ExitStatus/of(_:)``
/// gives them: a refusal (another org's store, the same org twice, an unresolvable org, a
/// definition problem) is a usage error (2), the rest failures (1).
enum SessionErrors {
    static func converting<T>(hint: String = "", _ body: () async throws -> T) async throws -> T {
        do {
            return try await OrgAccessErrors.converting(hint: hint, body)
        } catch let error as SyncSessionError {
            throw CLIError(error.message, classifying: error)
        } catch let error as SoupStoreError {
            throw CLIError(error.message, classifying: error)
        } catch let error as SyncEngineError {
            throw CLIError(error.message, classifying: error)
        }
    }
}
