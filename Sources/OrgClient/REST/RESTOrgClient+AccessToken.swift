extension RESTOrgClient {
    /// The access token requests carry now (the last renewed one): for another API of the same
    /// org that authenticates with it, such as the Pub/Sub API's `accesstoken` metadata. Never
    /// print or log it.
    public var currentAccessToken: String {
        state.withLockedValue { $0.accessToken }
    }

    /// Renews the access token after another API of the org refused `used` (the Pub/Sub API's
    /// `UNAUTHENTICATED`), through ``Configuration/accessTokenRefresher``, shared with the REST
    /// requests' own renewals (one refresh however many ask).
    ///
    /// - Returns: The token to retry with.
    /// - Throws: ``OrgClientError`` (``OrgClientError/Code/authentication``) when the client has no
    ///   refresher; what the refresher throws.
    public func renewAccessToken(replacing used: String) async throws -> String {
        guard let refresher = configuration.accessTokenRefresher else {
            throw OrgClientError(
                code: .authentication,
                message: "the org refused the access token and this org's token cannot be renewed; "
                    + "log in again (for example 'sf org login web') and rerun the command"
            )
        }
        return try await renewAccessToken(replacing: used, with: refresher)
    }
}
