extension LocalOrgServer {
    /// Serves the Pub/Sub API beside the REST API while `body` runs, with its bound port (`nil`
    /// when ``LocalOrgConfiguration/pubsubPort`` is `nil`).
    func withPubSub<Result: Sendable>(_ body: (Int?) async throws -> Result) async throws -> Result {
        guard let port = configuration.pubsubPort,
            #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
        else { return try await body(nil) }
        let database = api.database
        let service = PubSubService(
            feed: database.changeEvents,
            organizationID: database.organizationID,
            keepaliveInterval: configuration.pubsubKeepalive,
            clock: ContinuousClock()
        )
        return try await PubSubServer.withRunning(
            host: configuration.host,
            port: port,
            tls: configuration.tls,
            service: service,
            authenticator: PubSubAuthenticator(sessions: api.sessions, organizationID: database.organizationID)
        ) { bound in
            try await body(bound)
        }
    }
}
