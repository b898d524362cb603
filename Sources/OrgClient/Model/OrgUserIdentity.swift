/// The org and user a session belongs to, read from the `identity` URL
/// (`https://host/id/{orgId}/{userId}`) that `GET /services/data/vXX.X/` returns.
public struct OrgUserIdentity: Sendable, Hashable {
    /// The org id (`00D…`).
    public var organizationID: String
    /// The user id (`005…`).
    public var userID: String

    /// Creates an identity.
    public init(organizationID: String, userID: String) {
        self.organizationID = organizationID
        self.userID = userID
    }

    /// Parses an identity URL; `nil` unless its path ends with `/id/{orgId}/{userId}`.
    public init?(identityURL: String) {
        let path = identityURL.split(separator: "?", maxSplits: 1).first.map(String.init) ?? identityURL
        let parts = path.split(separator: "/").map(String.init)
        guard parts.count >= 3, parts[parts.count - 3] == "id", !parts[parts.count - 2].isEmpty,
            !parts[parts.count - 1].isEmpty
        else { return nil }
        organizationID = parts[parts.count - 2]
        userID = parts[parts.count - 1]
    }
}
