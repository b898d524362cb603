import Foundation
import OrgClient

/// Where the Pub/Sub API is and how to talk to it: TLS (`api.pubsub.salesforce.com:7443`, the
/// published endpoint, by default), or plaintext to a loopback address (a local org,
/// `http://127.0.0.1:PORT`).
public struct PubSubEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// The host name or address.
    public var host: String
    /// The port.
    public var port: Int
    /// Whether the connection is TLS.
    public var usesTLS: Bool
    /// A PEM file of certificate authorities to trust instead of the system's (a local org's
    /// `--tls-cert`), for TLS.
    public var trustedCertificatesFile: String?

    /// Salesforce's global endpoint (Pub/Sub API Developer Guide, "Pub/Sub API Endpoint").
    public static let salesforce = PubSubEndpoint(host: "api.pubsub.salesforce.com", port: 7443, usesTLS: true)

    /// Creates an endpoint.
    public init(host: String, port: Int, usesTLS: Bool, trustedCertificatesFile: String? = nil) {
        self.host = host
        self.port = port
        self.usesTLS = usesTLS
        self.trustedCertificatesFile = trustedCertificatesFile
    }

    /// Reads `--pubsub-url`: `http://HOST:PORT` (plaintext, loopback only: a token must not cross
    /// a network in the clear), `https://HOST[:PORT]` or `HOST[:PORT]` (TLS; port 7443 by default).
    ///
    /// - Throws: ``LiveSyncError`` (``LiveSyncError/Code/invalidConfiguration``) saying what is wrong
    ///   with the value.
    public init(url text: String) throws {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        var usesTLS = true
        if let range = rest.range(of: "://") {
            switch rest[..<range.lowerBound].lowercased() {
            case "http": usesTLS = false
            case "https": usesTLS = true
            default:
                throw LiveSyncError(
                    .invalidConfiguration,
                    "--pubsub-url '\(text)' has an unknown scheme; use https://HOST[:PORT] (TLS) or, for a local org, "
                        + "http://127.0.0.1:PORT"
                )
            }
            rest = rest[range.upperBound...]
        }
        while rest.hasSuffix("/") { rest = rest.dropLast() }
        var host = rest
        var port = usesTLS ? 7443 : 80
        if let colon = rest.lastIndex(of: ":"), !rest.hasSuffix("]") {
            guard let number = Int(rest[rest.index(after: colon)...]), (1...65535).contains(number) else {
                throw LiveSyncError(.invalidConfiguration, "--pubsub-url '\(text)' has no valid port (1-65535)")
            }
            port = number
            host = rest[..<colon]
        }
        host = host.drop { $0 == "[" }
        if host.hasSuffix("]") { host = host.dropLast() }
        guard !host.isEmpty, !host.contains("/"), !host.contains("@") else {
            throw LiveSyncError(.invalidConfiguration, "--pubsub-url '\(text)' has no host; give HOST[:PORT]")
        }
        if !usesTLS, !Self.isLoopback(String(host)) {
            throw LiveSyncError(
                .invalidConfiguration,
                "--pubsub-url '\(text)' is plaintext to a host that is not loopback, which would send the access "
                    + "token in the clear; use https://\(host):\(port)"
            )
        }
        self.init(host: String(host), port: port, usesTLS: usesTLS)
    }

    /// The endpoint of a local org's Pub/Sub port (`pubsubPort`), on the loopback address of its
    /// instance URL; TLS when the instance URL is `https` (`--tls-cert`).
    public static func localOrg(instanceURL: String, port: Int, trustedCertificatesFile: String? = nil)
        -> PubSubEndpoint
    {
        let components = URLComponents(string: instanceURL)
        return PubSubEndpoint(
            host: components?.host ?? "127.0.0.1",
            port: port,
            usesTLS: components?.scheme == "https",
            trustedCertificatesFile: trustedCertificatesFile
        )
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// Refuses a proxy the gRPC transport cannot use: grpc-swift-nio-transport connects directly
    /// (it has no HTTP `CONNECT` or SOCKS support), so a proxy set for this endpoint's URL would be
    /// bypassed silently; the user must exempt the host (`NO_PROXY`) to go direct knowingly.
    ///
    /// - Throws: ``LiveSyncError`` (``LiveSyncError/Code/invalidConfiguration``).
    public func checkReachable(through proxy: ProxySettings?) throws {
        guard let proxy, !Self.isLoopback(host) else { return }
        let url = (usesTLS ? "https://" : "http://") + host + ":" + String(port)
        guard proxy.server(for: url) != nil else { return }
        throw LiveSyncError(
            .invalidConfiguration,
            "the Pub/Sub API at \(host):\(port) would have to go through the configured proxy, and syncrun's gRPC "
                + "transport cannot use proxies (no HTTP CONNECT or SOCKS); allow a direct connection to it and add "
                + "'\(host)' to NO_PROXY, or use 'syncrun resync' on a timer instead"
        )
    }

    public var description: String { (usesTLS ? "https://" : "http://") + host + ":" + String(port) }
}
