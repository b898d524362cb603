import Foundation

/// Where an org is and how to authenticate to it: an instance URL, an access token and the REST
/// API version.
///
/// ```swift
/// let endpoint = try OrgEndpoint(
///     baseURL: "https://mydomain.my.salesforce.com",
///     accessToken: environment["SF_ACCESS_TOKEN"] ?? "",
///     apiVersion: "62.0"
/// )
/// ```
///
/// The token never appears in ``description``, `dump` output or logs.
public struct OrgEndpoint: Sendable, Hashable {
    /// The REST API version used when none is given: a recent one.
    public static let defaultAPIVersion = "62.0"

    /// The instance URL, normalised to `scheme://host[:port]` with no trailing slash.
    public let baseURL: String
    /// The bearer token sent in `Authorization` on every data call.
    public let accessToken: String
    /// The API version without the `v`, e.g. `62.0`.
    public let apiVersion: String

    /// Checks and creates an endpoint.
    ///
    /// - Parameters:
    ///   - baseURL: `http(s)://HOST[:PORT]`, optionally with a trailing slash.
    ///   - accessToken: The access token (`SF_ACCESS_TOKEN`); must not be empty.
    ///   - apiVersion: `NN.N` or `vNN.N`. Default: ``defaultAPIVersion``.
    /// - Throws: ``OrgClientError`` with code ``OrgClientError/Code/invalidConfiguration``.
    public init(baseURL: String, accessToken: String, apiVersion: String = OrgEndpoint.defaultAPIVersion) throws {
        self.baseURL = try Self.normalizedBaseURL(baseURL)
        guard !accessToken.isEmpty, !accessToken.contains(where: { $0.isNewline }) else {
            throw OrgClientError.invalidAccessToken()
        }
        self.accessToken = accessToken
        self.apiVersion = try Self.normalizedVersion(apiVersion)
    }

    /// The same endpoint with another token, after a refresh.
    public func withAccessToken(_ token: String) throws -> OrgEndpoint {
        try OrgEndpoint(baseURL: baseURL, accessToken: token, apiVersion: apiVersion)
    }

    /// `/services/data/vNN.N`, the root of every data call.
    public var versionedBasePath: String { "/services/data/v\(apiVersion)" }

    static func normalizedBaseURL(_ text: String) throws -> String {
        guard let components = URLComponents(string: text.trimmingCharacters(in: .whitespaces)),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty,
            components.path.isEmpty || components.path == "/",
            components.query == nil, components.fragment == nil,
            components.user == nil, components.password == nil
        else {
            throw OrgClientError.invalidBaseURL(text)
        }
        let hostPart = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let portPart = components.port.map { ":\($0)" } ?? ""
        return "\(scheme)://\(hostPart.lowercased())\(portPart)"
    }

    static func normalizedVersion(_ text: String) throws -> String {
        let version = text.hasPrefix("v") ? String(text.dropFirst()) : text
        let parts = version.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2,
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
        else {
            throw OrgClientError.invalidAPIVersion(text)
        }
        return version
    }
}

extension OrgEndpoint: CustomStringConvertible, CustomReflectable {
    /// The URL and version; the token is shown as `<redacted>`.
    public var description: String { "OrgEndpoint(\(baseURL), v\(apiVersion), accessToken: <redacted>)" }

    /// A mirror without the token, so `dump` and debuggers do not print it.
    public var customMirror: Mirror {
        Mirror(self, children: ["baseURL": baseURL, "apiVersion": apiVersion, "accessToken": "<redacted>"])
    }
}
