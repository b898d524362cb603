import ArgumentParser
import Dispatch
import Foundation
import LocalOrg
import Logging

/// `syncrun org serve`: serves the org stored in a data directory until SIGINT or SIGTERM.
struct OrgServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a local org (SQLite in DIR) over the Salesforce REST API.",
        discussion: """
            Prints the org's URL and token on start: as one JSON line with --format json or when standard \
            output is not a terminal ({"url", "port", "pubsubPort", "accessToken", "refreshToken", "dataDirectory"}, plus \
            "warning" with --allow-remote), otherwise as text, and nothing else afterwards (requests go to \
            --log). Runs until interrupted (SIGINT or SIGTERM), then stops gracefully. Data persists in DIR \
            across restarts.

            Anyone who can reach the port and present the access token, the refresh token or (with \
            --client-secret-file) the client secret gets full read, write and delete access to the org's \
            data. The client-credentials grant is off unless --client-secret-file is given; empty or blank \
            tokens and secrets are refused. The server binds to 127.0.0.1; --host with any other address \
            needs --allow-remote. Connections that do not finish their request headers in 30 s, or stay \
            idle for 120 s, are closed; past 256 open connections new ones get 503.
            """
    )

    @Option(name: .long, help: ArgumentHelp("The data directory (created if missing).", valueName: "dir"))
    var data: String

    @Option(name: .long, help: "The address to bind (loopback only unless --allow-remote).")
    var host = "127.0.0.1"

    @Flag(
        name: .long,
        help: """
            Allow --host to be a non-loopback address. RISK: every machine that can reach the port can \
            try the tokens, over plain HTTP unless --tls-cert is given (tokens then cross the network in \
            clear), and whoever holds one can read, change and delete all of the org's data.
            """
    )
    var allowRemote = false

    @Option(name: .long, help: "The port; 0 picks a free one.")
    var port = 8443

    @Option(
        name: .long,
        help: "The Pub/Sub API's port (gRPC, change events; TLS with --tls-cert); 0 picks a free one."
    )
    var pubsubPort = 0

    @Option(
        name: .long,
        help: ArgumentHelp("The access token clients must send (generated when omitted).", valueName: "token")
    )
    var token: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The refresh token the OAuth refresh grant accepts (generated when omitted).",
            valueName: "token"
        )
    )
    var refreshToken: String?

    @OptionGroup var newOrg: NewOrgOptions

    @Option(
        name: .long,
        help: ArgumentHelp("Force the query page size (tests; the real minimum is 200).", valueName: "n")
    )
    var pageSize: Int?

    @Option(name: .long, help: ArgumentHelp("Probability (0…1) of answering a random 500 or 503.", valueName: "p"))
    var failRate: Double = 0

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Probability (0…1) of dropping a connection unanswered, before or after serving the request.",
            valueName: "p"
        )
    )
    var dropRate: Double = 0

    @Option(
        name: .long,
        help: ArgumentHelp("Seed of the --fail-rate and --drop-rate draws, for reproducible runs.", valueName: "seed")
    )
    var failSeed: UInt64?

    @Option(name: .long, help: ArgumentHelp("Milliseconds added before every response.", valueName: "ms"))
    var latency: Int = 0

    @Option(
        name: .long,
        help: ArgumentHelp("Serve N requests, then drop every later connection unanswered.", valueName: "n")
    )
    var failAfter: Int?

    @Option(
        name: .long,
        help: ArgumentHelp("The API request allocation; once used, 403 REQUEST_LIMIT_EXCEEDED.", valueName: "n")
    )
    var requestLimit: Int = 100_000

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Append one JSON line per request (method, path, status, duration, arrival time).",
            valueName: "file"
        )
    )
    var log: String?

    @Option(name: .long, help: ArgumentHelp("PEM certificate that verifies JWT bearer assertions.", valueName: "file"))
    var jwtCert: String?

    @Option(
        name: .long,
        help: ArgumentHelp("Require this client ID (JWT 'iss', refresh 'client_id').", valueName: "id")
    )
    var clientID: String?

    @Option(
        name: .long,
        help: ArgumentHelp("Require this client secret in the client-credentials grant.", valueName: "file")
    )
    var clientSecretFile: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Access tokens stop working SECONDS after they are issued (401 INVALID_SESSION_ID).",
            valueName: "seconds"
        )
    )
    var tokenTTL: Int?

    @Option(name: .long, help: ArgumentHelp("The schema file's user the tokens act as.", valueName: "username"))
    var asUser: String?

    @Option(
        name: .long,
        help: ArgumentHelp("PEM certificate (chain) to serve HTTPS with; needs --tls-key.", valueName: "file")
    )
    var tlsCert: String?

    @Option(name: .long, help: ArgumentHelp("PEM private key of --tls-cert.", valueName: "file"))
    var tlsKey: String?

    @Option(name: .long, help: "Start-up output: text or json (json when stdout is not a terminal).")
    var format: OutputFormat?

    func validate() throws {
        guard (0...65_535).contains(port) else {
            throw ValidationError("--port must be between 0 and 65535, not \(port)")
        }
        guard (0...65_535).contains(pubsubPort) else {
            throw ValidationError("--pubsub-port must be between 0 and 65535, not \(pubsubPort)")
        }
        guard (0...1).contains(failRate) else {
            throw ValidationError("--fail-rate must be between 0 and 1, not \(failRate)")
        }
        guard (0...1).contains(dropRate) else {
            throw ValidationError("--drop-rate must be between 0 and 1, not \(dropRate)")
        }
        guard latency >= 0 else { throw ValidationError("--latency must not be negative") }
        if let pageSize, pageSize < 1 { throw ValidationError("--page-size must be at least 1") }
        if let failAfter, failAfter < 0 { throw ValidationError("--fail-after must not be negative") }
        guard requestLimit >= 0 else { throw ValidationError("--request-limit must not be negative") }
        if let tokenTTL, tokenTTL < 1 { throw ValidationError("--token-ttl must be at least 1 second") }
        guard (tlsCert == nil) == (tlsKey == nil) else {
            throw ValidationError("--tls-cert and --tls-key go together; give both or neither")
        }
        for (value, option) in [(token, "--token"), (refreshToken, "--refresh-token"), (clientID, "--client-id")] {
            if let value, value.allSatisfy(\.isWhitespace) {
                throw ValidationError(
                    "\(option) is empty or blank, which would make an empty credential valid; give a real value or leave the option out"
                )
            }
        }
        if !allowRemote, !Self.isLoopback(host) {
            throw ValidationError(
                """
                --host \(host) is not a loopback address: anyone who can reach it could use the org's tokens \
                to read, change and delete its data. Bind to 127.0.0.1 (the default), or add --allow-remote \
                to accept that risk.
                """
            )
        }
    }

    /// Whether `host` names the local machine only: `localhost`, `127.0.0.0/8` or `::1`.
    static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if name == "localhost" { return true }
        var ipv4 = in_addr()
        if inet_pton(AF_INET, name, &ipv4) == 1 {
            return UInt32(bigEndian: ipv4.s_addr) >> 24 == 127
        }
        var ipv6 = in6_addr()
        if inet_pton(AF_INET6, name, &ipv6) == 1 {
            let bytes = withUnsafeBytes(of: ipv6) { Array($0) }
            if bytes == [UInt8](repeating: 0, count: 15) + [1] { return true }  // ::1
            // ::ffff:127.x.x.x, an IPv4-mapped loopback address
            return bytes.prefix(10).allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
        }
        return false
    }

    mutating func run() async throws {
        let configuration = try makeConfiguration()
        let directory = URL(fileURLWithPath: data, isDirectory: true)
        let server = try LibraryErrors.converting(OrgError.self) {
            try LocalOrgServer(configuration: configuration, database: try newOrg.openDatabase(in: directory))
        }
        let signals = ShutdownSignals()
        let useJSON = format == .json || (format == nil && !StandardStreams.isOutputTerminal)
        do {
            // No logger: after the start-up line nothing is written to stdout or stderr (a reader
            // may have stopped reading); each request goes to --log.
            try await server.withRunningServer { endpoint in
                announce(endpoint, directory: directory, json: useJSON)
                await signals.wait()
            }
        } catch let error as OrgError {
            throw CLIError(error.message)
        } catch {
            throw CLIError("the local org stopped: \(error)")
        }
    }

    /// The start-up warning of a server reachable from other machines, if any.
    private var remoteWarning: String? {
        guard !Self.isLoopback(host) else { return nil }
        let transport = tlsCert == nil ? "over plain HTTP (tokens cross the network in clear)" : "over HTTPS"
        return "serving on \(host), reachable from other machines \(transport): anyone holding a token "
            + "can read, change and delete this org's data"
    }

    private func makeConfiguration() throws -> LocalOrgConfiguration {
        var configuration = LocalOrgConfiguration(
            host: host,
            port: port,
            accessToken: token,
            refreshToken: refreshToken,
            clientID: clientID,
            pageSize: pageSize,
            apiRequestLimit: requestLimit,
            faults: FaultConfiguration(
                failureRate: failRate,
                seed: failSeed,
                latency: .milliseconds(latency),
                failAfter: failAfter,
                dropRate: dropRate
            ),
            requestLogURL: log.map { URL(fileURLWithPath: $0) }
        )
        configuration.tokenTTL = tokenTTL.map { .seconds($0) }
        configuration.actingUser = asUser
        if let clientSecretFile {
            let secret = try readText(clientSecretFile, option: "--client-secret-file")
                .trimmingCharacters(in: .whitespacesAndNewlines)
            guard !secret.isEmpty else {
                throw CLIError.usage(
                    "--client-secret-file: '\(clientSecretFile)' is empty; put the client secret in it, or leave "
                        + "the option out to keep the client-credentials grant off"
                )
            }
            configuration.clientSecret = secret
        }
        if let jwtCert {
            configuration.jwtBearer = JWTBearerSettings(
                certificatePEM: try readText(jwtCert, option: "--jwt-cert"),
                clientID: clientID
            )
        }
        configuration.pubsubPort = pubsubPort
        if let tlsCert, let tlsKey {
            configuration.tls = TLSSettings(
                certificateChainPEM: try readText(tlsCert, option: "--tls-cert"),
                privateKeyPEM: try readText(tlsKey, option: "--tls-key")
            )
        }
        return configuration
    }

    private func readText(_ path: String, option: String) throws -> String {
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw CLIError.usage("\(option): cannot read '\(path)': \(error.localizedDescription)")
        }
    }

    private func announce(_ endpoint: LocalOrgEndpoint, directory: URL, json: Bool) {
        if json {
            let line = StartLine(
                url: endpoint.baseURL.absoluteString,
                port: endpoint.port,
                pubsubPort: endpoint.pubsubPort,
                accessToken: endpoint.accessToken,
                refreshToken: endpoint.refreshToken,
                dataDirectory: directory.path,
                warning: remoteWarning
            )
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            if var data = try? encoder.encode(line) {
                data.append(0x0A)
                StandardStreams.write(data)
            }
        } else {
            StandardStreams.write(
                """
                Local org serving \(directory.path)
                  URL:           \(endpoint.baseURL.absoluteString)
                  access token:  \(endpoint.accessToken)
                  refresh token: \(endpoint.refreshToken)
                \(remoteWarning.map { "warning: \($0)\n" } ?? "")Press Ctrl-C to stop.

                """
            )
        }
    }

    /// The JSON start-up line.
    private struct StartLine: Encodable {
        var url: String
        var port: Int
        var pubsubPort: Int?
        var accessToken: String
        var refreshToken: String
        var dataDirectory: String
        var warning: String?
    }
}

/// Waits for SIGINT or SIGTERM, so `org serve` can stop gracefully instead of being killed.
///
/// `@unchecked Sendable` is sound: `sources` and `stream` are set once in `init` and never mutated;
/// the dispatch sources are only cancelled in `deinit`, and `AsyncStream` is itself thread-safe.
private final class ShutdownSignals: @unchecked Sendable {
    private let sources: [any DispatchSourceSignal]
    private let stream: AsyncStream<Int32>

    /// Starts catching SIGINT and SIGTERM (their default action, terminating, is disabled).
    init() {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        self.stream = stream
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
    }

    /// Returns when the first signal arrives.
    func wait() async {
        for await _ in stream { return }
    }

    deinit {
        sources.forEach { $0.cancel() }
    }
}
