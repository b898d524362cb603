import Logging
import OrgClient

/// Starts the embedded local org of a `local:DIR` source for ``OrgConnector``: the one way
/// `OrgAccess` reaches it, so that only the executable that supplies an implementation links the
/// local org's server (`SyncrunCLI`'s `LocalOrgServerLauncher`).
///
/// A connector without a launcher refuses `local:DIR` orgs with a message that says so.
public protocol LocalOrgLaunching: Sendable {
    /// Whether `directory` already holds a local org (a dry run creates none).
    func hasOrg(inDirectory directory: String) -> Bool

    /// Opens the org of `settings` (creating and seeding it when new), serves it on the loopback
    /// interface while `body` runs, then stops it.
    ///
    /// - Throws: ``OrgAccessError`` (unavailable, ``OrgAccessError/localOrg(_:_:)``) when the org
    ///   cannot be opened or served; what `body` throws.
    func withRunningOrg<T: Sendable>(
        _ settings: LocalOrgSettings,
        logger: Logger,
        _ body: (RunningLocalOrg) async throws -> T
    ) async throws -> T
}

/// A local org being served: where it listens, the tokens it issued for this run, who they
/// belong to, and what to tell the user once (a new org was seeded).
public struct RunningLocalOrg: Sendable {
    /// The instance URL, `http(s)://127.0.0.1:PORT`.
    public var baseURL: String
    /// The access token of this run (never printed).
    public var accessToken: String
    /// The refresh token that renews it (never printed).
    public var refreshToken: String
    /// The org and user the tokens belong to.
    public var identity: OrgUserIdentity
    /// Notes for the user (a new org was seeded, …).
    public var notes: [String]

    /// Creates the description of a running org.
    public init(
        baseURL: String,
        accessToken: String,
        refreshToken: String,
        identity: OrgUserIdentity,
        notes: [String] = []
    ) {
        self.baseURL = baseURL
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.identity = identity
        self.notes = notes
    }
}
