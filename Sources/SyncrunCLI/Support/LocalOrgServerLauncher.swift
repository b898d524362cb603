import Foundation
import LocalOrg
import Logging
import OrgAccess
import OrgClient

/// The embedded local org (`LocalOrg`) behind `OrgAccess`'s ``LocalOrgLaunching``: opens,
/// creates and seeds the org of a `local:DIR` source and serves it on the loopback interface.
/// The command tree hands it to every ``OrgConnector`` it makes; an embedder of the libraries
/// that wants `local:DIR` orgs hands it to its own.
public struct LocalOrgServerLauncher: LocalOrgLaunching {
    /// Where the running org's Pub/Sub API port is recorded (`syncrun watch` subscribes to it).
    let ports: LocalOrgPorts?

    /// Creates the launcher.
    public init() { ports = nil }

    /// Creates a launcher that records the Pub/Sub port of the org it runs in `ports`.
    init(ports: LocalOrgPorts) { self.ports = ports }

    public func hasOrg(inDirectory directory: String) -> Bool {
        FileManager.default.fileExists(
            atPath: URL(fileURLWithPath: directory).appendingPathComponent(OrgDatabase.fileName).path
        )
    }

    public func withRunningOrg<T: Sendable>(
        _ settings: LocalOrgSettings,
        logger: Logger,
        _ body: (RunningLocalOrg) async throws -> T
    ) async throws -> T {
        let (server, notes, identity) = try makeServer(settings)
        return try await server.withRunningServer(logger: logger) { endpoint in
            ports?.record(pubsubPort: endpoint.pubsubPort)
            return try await body(
                RunningLocalOrg(
                    baseURL: endpoint.baseURL.absoluteString,
                    accessToken: endpoint.accessToken,
                    refreshToken: endpoint.refreshToken,
                    identity: identity,
                    notes: notes
                )
            )
        }
    }

    /// The server, not yet running, what to tell the user (a new org was seeded), and the org and
    /// user its tokens belong to.
    ///
    /// - Throws: ``OrgAccessError`` (unavailable) when the org cannot be opened, its schema or
    ///   seed files are unusable, or its request log cannot be written.
    private func makeServer(_ settings: LocalOrgSettings) throws -> (LocalOrgServer, [String], OrgUserIdentity) {
        let directory = settings.directory
        var notes: [String] = []
        do {
            let directoryURL = URL(fileURLWithPath: directory, isDirectory: true)
            let isNew = !FileManager.default.fileExists(
                atPath: directoryURL.appendingPathComponent(OrgDatabase.fileName).path
            )
            let orgSchema = try settings.schemaFile.map {
                try OrgSchema.standard.merging(contentsOf: URL(fileURLWithPath: $0))
            }
            let database = try OrgDatabase(directory: directoryURL, schema: orgSchema)
            if isNew, !settings.seedFiles.isEmpty {
                let report: OrgSeedReport
                do {
                    report = try OrgSeeder(database: database).seed(
                        files: settings.seedFiles.map { URL(fileURLWithPath: $0) }
                    )
                } catch {
                    // Leave no half-seeded org behind: the next run seeds it again.
                    for suffix in ["", "-wal", "-shm"] {
                        try? FileManager.default.removeItem(
                            at: directoryURL.appendingPathComponent(OrgDatabase.fileName + suffix)
                        )
                    }
                    throw error
                }
                notes.append("seeded a new local org in \(directory): \(Count.of(report.total, "record"))")
            }
            let faults = FaultConfiguration(
                failureRate: settings.failRate,
                seed: settings.failSeed,
                failAfter: settings.failAfter
            )
            let server = try LocalOrgServer(
                configuration: LocalOrgConfiguration(
                    pageSize: settings.pageSize,
                    faults: faults,
                    requestLogURL: settings.requestLog.map { URL(fileURLWithPath: $0) }
                ),
                database: database
            )
            return (server, notes, OrgUserIdentity(organizationID: database.organizationID, userID: database.userID))
        } catch let error as OrgError {
            throw OrgAccessError.localOrg(directory, error.message)
        } catch {
            throw OrgAccessError.localOrg(directory, "\(error)")
        }
    }
}

/// The Pub/Sub API port of the local org a ``LocalOrgServerLauncher`` runs in process (its change
/// events, served on a free loopback port beside the REST API).
final class LocalOrgPorts: Sendable {
    private let lock = NSLock()
    private nonisolated(unsafe) var port: Int?

    func record(pubsubPort: Int?) { lock.withLock { port = pubsubPort } }

    /// The port, once the org runs.
    var pubsubPort: Int? { lock.withLock { port } }
}
