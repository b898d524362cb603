import OrgClient

/// A connected org: the REST client (which renews its token from the source on a 401) and what
/// the login told about the org.
public struct OrgConnection: Sendable {
    /// The org as resolved.
    public let definition: OrgDefinition
    /// The client; its token renews itself, once per expiry, from ``definition``'s source.
    public let client: RESTOrgClient
    /// The instance URL every data call goes to.
    public let instanceURL: String
    /// The REST API version in use.
    public let apiVersion: String
    /// The username, when the source tells it (sf, JWT).
    public let username: String?
    /// The org and user of the first token, when the source tells them (OAuth grants' `id`).
    public let identity: OrgUserIdentity?
    /// Things the user should be told once (a new local org was seeded, …).
    public let notes: [String]
}
