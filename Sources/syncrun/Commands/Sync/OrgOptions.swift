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

    func validate() throws {
        if localDirectory == nil, !(org.hasPrefix("http://") || org.hasPrefix("https://")) {
            throw ValidationError("--org must be http(s)://HOST[:PORT] or local:DIR, not '\(org)'")
        }
        if let localDirectory, localDirectory.isEmpty { throw ValidationError("--org local:DIR needs a directory") }
        guard (0...1).contains(failRate) else { throw ValidationError("--fail-rate must be between 0 and 1") }
        if let pageSize, pageSize < 1 { throw ValidationError("--page-size must be at least 1") }
        if localDirectory == nil, pageSize != nil || failRate > 0 || requestLog != nil {
            throw ValidationError("--page-size, --fail-rate and --request-log only apply to --org local:DIR")
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
            let database = try OrgDatabase(directory: URL(fileURLWithPath: directory, isDirectory: true))
            let faults = FaultConfiguration(failureRate: failRate, seed: failSeed)
            server = try LocalOrgServer(
                configuration: LocalOrgConfiguration(
                    pageSize: pageSize, faults: faults, requestLogURL: requestLog.map { URL(fileURLWithPath: $0) }),
                database: database)
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
