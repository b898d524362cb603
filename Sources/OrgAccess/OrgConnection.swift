import Crypto
import Foundation
import JSONCore
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
    /// A SHA-256 of the instance URL and the first access token (hex), never the token itself: a
    /// store that recorded it after checking this token's org and user need not ask the org again
    /// (a token belongs to one user of one org). `nil` when the source gave no token.
    public let credentialDigest: String?

    /// The digest ``credentialDigest`` holds for `accessToken` at `instanceURL`.
    static func credentialDigest(instanceURL: String, accessToken: String) -> String? {
        guard !accessToken.isEmpty else { return nil }
        let text = "syncrun-credential-1\n\(instanceURL)\n\(accessToken)"
        return HexText.lowercase(SHA256.hash(data: Array(text.utf8)))
    }
}
