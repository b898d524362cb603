import ArgumentParser
import Foundation
import LocalOrg
import Logging
import OrgClient

/// Which org to talk to: `--org http(s)://HOST[:PORT]` with `--access-token` or
/// `SF_ACCESS_TOKEN`, or `--org local:DIR`, the embedded local org stored in DIR, started in
/// this process on a loopback port and reached through the same HTTP client.
struct OrgOptions: ParsableArguments {
    @Option(
        name: .customLong("org"),
        help: ArgumentHelp("The org: http(s)://HOST[:PORT], or local:DIR for the embedded local org.", valueName: "org"))
    var org: String

    @Option(
        help: ArgumentHelp(
            "The access token for an http(s) org (default: $SF_ACCESS_TOKEN). Never printed.", valueName: "token"))
    var accessToken: String?

    @Option(help: ArgumentHelp("The REST API version.", valueName: "NN.N"))
    var apiVersion: String = OrgEndpoint.defaultAPIVersion

    @Option(help: ArgumentHelp("local:DIR only: force the query page size (tests).", valueName: "n"))
    var pageSize: Int?

    @Option(help: ArgumentHelp("local:DIR only: probability (0…1) of a random 500/503 answer.", valueName: "p"))
    var failRate: Double = 0

    @Option(help: ArgumentHelp("local:DIR only: seed of the --fail-rate draws.", valueName: "seed"))
    var failSeed: UInt64?

    @Option(help: ArgumentHelp("local:DIR only: append one JSON line per request to FILE.", valueName: "file"))
    var requestLog: String?

    @Option(
        help: ArgumentHelp(
            "local:DIR only: after N requests, drop every further connection without an answer.", valueName: "n"))
    var failAfter: Int?

    @Option(
        help: ArgumentHelp(
            "local:DIR only: a schema file (JSON or YAML) adding custom objects, fields and briefcases to the org; "
                + "stored with it (as 'syncrun org serve --schema').", valueName: "file"))
    var schema: String?

    @Option(
        name: .customLong("seed"),
        help: ArgumentHelp(
            "local:DIR only: when DIR holds no org yet, create it from this Salesforce CLI data plan or record file "
                + "first (repeatable; as 'syncrun org seed').", valueName: "file"))
    var seedFiles: [String] = []

    func validate() throws {
        if localDirectory == nil, !(org.hasPrefix("http://") || org.hasPrefix("https://")) {
            throw ValidationError("--org must be http(s)://HOST[:PORT] or local:DIR, not '\(org)'")
        }
        if let localDirectory, localDirectory.isEmpty { throw ValidationError("--org local:DIR needs a directory") }
        guard (0...1).contains(failRate) else { throw ValidationError("--fail-rate must be between 0 and 1") }
        if let pageSize, pageSize < 1 { throw ValidationError("--page-size must be at least 1") }
        if let failAfter, failAfter < 0 { throw ValidationError("--fail-after must not be negative") }
        if localDirectory == nil, pageSize != nil || failRate > 0 || requestLog != nil || failAfter != nil
            || !seedFiles.isEmpty || schema != nil
        {
            throw ValidationError(
                "--page-size, --fail-rate, --fail-after, --request-log, --schema and --seed only apply to "
                    + "--org local:DIR")
        }
    }

    /// The directory of a `local:DIR` org.
    var localDirectory: String? {
        org.hasPrefix("local:") ? String(org.dropFirst("local:".count)) : nil
    }

    /// Runs `body` with a client for the org; a local org runs for the duration of `body`.
    ///
    /// - Throws: ``CLIError`` (usage) for a missing token or an unusable URL; what `body` throws.
    func withOrgClient<T: Sendable>(logger: Logger, _ body: (RESTOrgClient) async throws -> T) async throws -> T {
        guard let directory = localDirectory else {
            let token = accessToken ?? ProcessInfo.processInfo.environment["SF_ACCESS_TOKEN"] ?? ""
            guard !token.isEmpty else {
                throw CLIError.usage("no access token for '\(org)': pass --access-token or set SF_ACCESS_TOKEN")
            }
            let endpoint = try endpoint(baseURL: org, token: token)
            return try await withRESTOrgClient(configuration: .init(endpoint: endpoint), logger: logger, body)
        }
        let server: LocalOrgServer
        do {
            let directoryURL = URL(fileURLWithPath: directory, isDirectory: true)
            let isNew = !FileManager.default.fileExists(
                atPath: directoryURL.appendingPathComponent(OrgDatabase.fileName).path)
            let orgSchema = try schema.map { try OrgSchema.standard.merging(contentsOf: URL(fileURLWithPath: $0)) }
            let database = try OrgDatabase(directory: directoryURL, schema: orgSchema)
            if isNew, !seedFiles.isEmpty {
                let report: OrgSeedReport
                do {
                    report = try OrgSeeder(database: database).seed(files: seedFiles.map { URL(fileURLWithPath: $0) })
                } catch {
                    // Leave no half-seeded org behind: the next run seeds it again.
                    for suffix in ["", "-wal", "-shm"] {
                        try? FileManager.default.removeItem(
                            at: directoryURL.appendingPathComponent(OrgDatabase.fileName + suffix))
                    }
                    throw error
                }
                StandardStreams.writeError("seeded a new local org in \(directory): \(report.total) record(s)\n")
            }
            let faults = FaultConfiguration(failureRate: failRate, seed: failSeed, failAfter: failAfter)
            server = try LocalOrgServer(
                configuration: LocalOrgConfiguration(
                    pageSize: pageSize, faults: faults, requestLogURL: requestLog.map { URL(fileURLWithPath: $0) }),
                database: database)
        } catch let error as OrgError {
            throw CLIError("cannot open the local org in '\(directory)': \(error.message)")
        } catch {
            throw CLIError("cannot open the local org in '\(directory)': \(error)")
        }
        return try await server.withRunningServer(logger: logger) { local in
            let endpoint = try endpoint(baseURL: local.baseURL.absoluteString, token: local.accessToken)
            return try await withRESTOrgClient(configuration: .init(endpoint: endpoint), logger: logger, body)
        }
    }

    private func endpoint(baseURL: String, token: String) throws -> OrgEndpoint {
        do {
            return try OrgEndpoint(baseURL: baseURL, accessToken: token, apiVersion: apiVersion)
        } catch let error as OrgClientError {
            throw CLIError.usage(error.message)
        }
    }
}
