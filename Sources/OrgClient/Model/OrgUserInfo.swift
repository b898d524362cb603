/// Who a token belongs to, from OpenID Connect's `GET /services/oauth2/userinfo`.
public struct OrgUserInfo: Sendable, Hashable {
    /// The org id (`organization_id`, `00D…`).
    public var organizationID: String
    /// The user id (`user_id`, `005…`).
    public var userID: String
    /// The username (`preferred_username`), when sent.
    public var username: String?

    /// Creates user info.
    public init(organizationID: String, userID: String, username: String? = nil) {
        self.organizationID = organizationID
        self.userID = userID
        self.username = username
    }
}
