import Foundation

/// Where a running local org answers, and the credentials to talk to it.
public struct LocalOrgEndpoint: Sendable, Equatable {
    /// The instance URL, e.g. `http://127.0.0.1:54321` (no trailing slash); `https` with TLS.
    public var baseURL: URL
    /// The bound port (the chosen one when the configuration asked for port 0).
    public var port: Int
    /// The access token data requests must carry as `Authorization: Bearer …`.
    public var accessToken: String
    /// The refresh token the `/services/oauth2/token` refresh grant accepts.
    public var refreshToken: String
    /// The port of the Pub/Sub API (gRPC over HTTP/2, same host, TLS when the REST server has it),
    /// or `nil` when it is not served.
    public var pubsubPort: Int?

    /// Creates an endpoint.
    public init(baseURL: URL, port: Int, accessToken: String, refreshToken: String, pubsubPort: Int? = nil) {
        self.baseURL = baseURL
        self.port = port
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.pubsubPort = pubsubPort
    }

    /// The versioned data base path for `version`, e.g. `…/services/data/v59.0`.
    public func dataURL(version: String = "59.0") -> URL {
        baseURL.appendingPathComponent("services/data/v\(version)")
    }
}
