import OrgClient

/// ``PubSubCredentials`` from the org's REST client: its current access token (the one every
/// command resolved for the org, renewed the same way after a refusal), its instance URL and the
/// org's id.
public struct RESTOrgCredentials: PubSubCredentials {
    let client: RESTOrgClient
    let organizationID: String

    /// Creates the credentials of `client`'s org, whose id is `organizationID`.
    public init(client: RESTOrgClient, organizationID: String) {
        self.client = client
        self.organizationID = organizationID
    }

    public func current() async throws -> PubSubAuthentication {
        PubSubAuthentication(
            accessToken: client.currentAccessToken,
            instanceURL: client.configuration.endpoint.baseURL,
            tenantID: organizationID
        )
    }

    public func renew(after refused: PubSubAuthentication) async throws {
        _ = try await client.renewAccessToken(replacing: refused.accessToken)
    }
}
