import Foundation
import LocalOrg

/// A local org running on a free loopback port for the length of one test.
///
/// ```swift
/// try await LocalOrgFixture.with { org in
///     var request = HTTPClientRequest(url: org.url("/services/data/v59.0/query?q=SELECT+Id+FROM+Account"))
///     request.headers.add(name: "Authorization", value: "Bearer \(org.accessToken)")
///     …
/// }
/// ```
public struct LocalOrgFixture: Sendable {
    /// Where the org answers and its tokens.
    public let endpoint: LocalOrgEndpoint
    /// The org's database, for seeding and checking records directly.
    public let database: OrgDatabase
    /// The temporary data directory (removed when the scope ends).
    public let dataDirectory: URL

    /// A fixture for a server the test started itself over `database` (a restarted org, say).
    public init(endpoint: LocalOrgEndpoint, database: OrgDatabase, dataDirectory: URL) {
        self.endpoint = endpoint
        self.database = database
        self.dataDirectory = dataDirectory
    }

    /// The instance URL, e.g. `http://127.0.0.1:54321`.
    public var baseURL: URL { endpoint.baseURL }
    /// The bearer token.
    public var accessToken: String { endpoint.accessToken }

    /// The absolute URL of a host-relative path such as `/services/data/v59.0/limits`.
    public func url(_ path: String) -> String {
        endpoint.baseURL.absoluteString + path
    }

    /// Starts a local org in a fresh temporary directory, runs `body`, then stops the server and
    /// removes the directory.
    ///
    /// - Parameters:
    ///   - configuration: server settings (port 0 by default: a free port).
    ///   - schema: the org's schema; `nil` for the standard objects.
    ///   - databaseConfiguration: the database's clock, time zone and locator lifetime.
    ///   - body: the test, given the running org.
    public static func with<Result: Sendable>(
        configuration: LocalOrgConfiguration = LocalOrgConfiguration(),
        schema: OrgSchema? = nil,
        databaseConfiguration: OrgDatabase.Configuration = OrgDatabase.Configuration(),
        _ body: (LocalOrgFixture) async throws -> Result
    ) async throws -> Result {
        try await TemporaryDirectory.with(prefix: "syncrun-local-org") { directory in
            let database = try OrgDatabase(directory: directory, schema: schema, configuration: databaseConfiguration)
            let server = try LocalOrgServer(configuration: configuration, database: database)
            return try await server.withRunningServer { endpoint in
                try await body(LocalOrgFixture(endpoint: endpoint, database: database, dataDirectory: directory))
            }
        }
    }
}
