import Foundation

/// The HTTP proxies an org's requests go through, and the hosts that bypass them, as curl and the
/// Salesforce CLI read them from `HTTPS_PROXY`, `HTTP_PROXY`, `ALL_PROXY` and `NO_PROXY`.
///
/// ```swift
/// var configuration = RESTOrgClient.Configuration(endpoint: endpoint)
/// configuration.proxy = try ProxySettings.fromEnvironment(ProcessInfo.processInfo.environment)
/// // or one proxy for every scheme, as `--proxy` gives it:
/// configuration.proxy = try ProxySettings(url: "http://proxy.corp.example:3128")
/// ```
///
/// Requests go through an HTTP proxy in a `CONNECT` tunnel (for an `https` URL, TLS runs end to
/// end with the org, so the proxy sees only the host name and port). Proxy credentials travel in `Proxy-Authorization` (Basic) and are never part of
/// ``description`` or of any message.
public struct ProxySettings: Sendable, Hashable, CustomStringConvertible {
    /// One proxy server.
    public struct Server: Sendable, Hashable, CustomStringConvertible {
        /// How the client talks to the proxy.
        public enum Kind: String, Sendable, Hashable {
            /// An HTTP proxy (`http://`): `CONNECT` for `https` URLs.
            case http
            /// A SOCKS5 proxy (`socks5://`, `socks5h://`), without credentials.
            case socks5
        }

        /// How the client talks to the proxy.
        public var kind: Kind
        /// The proxy's host name or address.
        public var host: String
        /// The proxy's port (default 1080 for SOCKS, else 80).
        public var port: Int
        /// The user name for `Proxy-Authorization`, percent-decoded.
        public var username: String?
        /// The password for `Proxy-Authorization`, percent-decoded; never printed.
        public var password: String?

        /// Creates a server.
        public init(kind: Kind = .http, host: String, port: Int, username: String? = nil, password: String? = nil) {
            self.kind = kind
            self.host = host
            self.port = port
            self.username = username
            self.password = password
        }

        /// Reads `[http://|socks5://][USER[:PASSWORD]@]HOST[:PORT][/]` (no scheme means `http`,
        /// as curl takes it).
        ///
        /// - Throws: ``OrgClientError`` (``OrgClientError/Code/invalidConfiguration``) naming the
        ///   value without its credentials: an unknown or TLS scheme, no host, a bad port.
        public init(url text: String, source: String = "the proxy URL") throws {
            var rest = Substring(text.trimmingCharacters(in: .whitespaces))
            // Read as ASCII: a combining mark would join the character before it and hide a `://`
            // or a `:` from the search (found by the proxy-url fuzz target).
            guard rest.unicodeScalars.allSatisfy({ $0.isASCII && $0.value >= 0x20 && $0.value != 0x7F }) else {
                throw OrgClientError.invalidProxy(
                    source,
                    Self.redacted(text),
                    "a proxy URL is ASCII text: percent-encode the user name and password, give the host in its "
                        + "ASCII (punycode) form"
                )
            }
            var kind = Kind.http
            if let range = rest.range(of: "://") {
                let scheme = rest[..<range.lowerBound].lowercased()
                rest = rest[range.upperBound...]
                switch scheme {
                case "http": kind = .http
                case "socks5", "socks5h": kind = .socks5
                case "https":
                    throw OrgClientError.invalidProxy(
                        source,
                        Self.redacted(text),
                        "a proxy reached over TLS (https://) is not supported; give its http:// address"
                    )
                default:
                    throw OrgClientError.invalidProxy(
                        source,
                        Self.redacted(text),
                        "unknown proxy scheme '\(scheme)'; use http:// or socks5://"
                    )
                }
            }
            if let slash = rest.firstIndex(of: "/") {
                guard rest[slash...].allSatisfy({ $0 == "/" }) else {
                    throw OrgClientError.invalidProxy(source, Self.redacted(text), "a proxy URL takes no path")
                }
                rest = rest[..<slash]
            }
            var username: String?
            var password: String?
            if let at = rest.lastIndex(of: "@") {
                let credentials = rest[..<at]
                rest = rest[rest.index(after: at)...]
                if let colon = credentials.firstIndex(of: ":") {
                    username = Self.percentDecoded(credentials[..<colon])
                    password = Self.percentDecoded(credentials[credentials.index(after: colon)...])
                } else {
                    username = Self.percentDecoded(credentials)
                }
            }
            let bracketed = rest.hasPrefix("[")
            let (host, portText) = ProxySettings.splitHostAndPort(rest)
            var port = kind == .socks5 ? 1080 : 80
            if let portText {
                guard let value = Int(portText), (1...65535).contains(value) else {
                    throw OrgClientError.invalidProxy(source, Self.redacted(text), "the port is not a number 1-65535")
                }
                port = value
            }
            guard !host.isEmpty else {
                throw OrgClientError.invalidProxy(source, Self.redacted(text), "no proxy host")
            }
            // A name or IPv4 address (letters, digits, `-`, `.`, `_`), or an IPv6 address in brackets.
            let allowed: (Unicode.Scalar) -> Bool =
                bracketed
                ? { $0.properties.isASCIIHexDigit || $0 == ":" || $0 == "." }
                : {
                    ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                        || "-._".unicodeScalars.contains($0)
                }
            guard host.unicodeScalars.allSatisfy(allowed) else {
                throw OrgClientError.invalidProxy(
                    source,
                    Self.redacted(text),
                    "the proxy host is not a host name, an IPv4 address or an IPv6 address in brackets"
                )
            }
            if kind == .socks5, username != nil {
                throw OrgClientError.invalidProxy(
                    source,
                    Self.redacted(text),
                    "SOCKS proxies with a user name are not supported; use an HTTP proxy or one without login"
                )
            }
            self.init(kind: kind, host: String(host), port: port, username: username, password: password)
        }

        /// `http://HOST:PORT`, with `USER:***@` when it has credentials: never the password.
        public var description: String {
            let user = username.map { "\($0):***@" } ?? ""
            let shownHost = host.contains(":") ? "[\(host)]" : host
            return "\(kind == .http ? "http" : "socks5")://\(user)\(shownHost):\(port)"
        }

        /// The value for a child process's `HTTPS_PROXY` (credentials included, percent-encoded).
        var environmentValue: String {
            var user = ""
            if let username {
                user = Self.percentEncoded(username) + (password.map { ":" + Self.percentEncoded($0) } ?? "") + "@"
            }
            let shownHost = host.contains(":") ? "[\(host)]" : host
            return "\(kind == .http ? "http" : "socks5")://\(user)\(shownHost):\(port)"
        }

        /// `text` with any user information replaced, for messages.
        static func redacted(_ text: String) -> String {
            guard let at = text.lastIndex(of: "@") else { return text }
            let start = text.range(of: "://").map(\.upperBound) ?? text.startIndex
            guard start <= at else { return text }
            return String(text[..<start]) + "***" + String(text[at...])
        }

        private static func percentDecoded(_ text: Substring) -> String {
            var bytes: [UInt8] = []
            var index = text.utf8.startIndex
            let utf8 = text.utf8
            while index < utf8.endIndex {
                let byte = utf8[index]
                if byte == UInt8(ascii: "%"),
                    let high = utf8.index(index, offsetBy: 1, limitedBy: utf8.endIndex), high < utf8.endIndex,
                    let low = utf8.index(index, offsetBy: 2, limitedBy: utf8.endIndex), low < utf8.endIndex,
                    let value = UInt8(String(decoding: [utf8[high], utf8[low]], as: UTF8.self), radix: 16)
                {
                    bytes.append(value)
                    index = utf8.index(after: low)
                } else {
                    bytes.append(byte)
                    index = utf8.index(after: index)
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        private static func percentEncoded(_ text: String) -> String {
            var result = ""
            for byte in text.utf8 {
                let scalar = Unicode.Scalar(byte)
                if (byte < 0x80) && (scalar.properties.isAlphabetic || ("0"..."9").contains(Character(scalar)))
                    || "-._~".utf8.contains(byte)
                {
                    result.unicodeScalars.append(scalar)
                } else {
                    result += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
                }
            }
            return result
        }
    }

    /// The proxy for `http://` URLs; `nil` for none.
    public var http: Server?
    /// The proxy for `https://` URLs; `nil` for none.
    public var https: Server?
    /// The `NO_PROXY` entries: `*` (every host), a host or domain (`example.com` and `.example.com`
    /// both match the domain and its subdomains), an IP address, each optionally with `:PORT`.
    public var bypass: [String]

    /// Creates settings.
    public init(http: Server?, https: Server?, bypass: [String] = []) {
        self.http = http
        self.https = https
        self.bypass = bypass
    }

    /// One proxy for both schemes (`--proxy URL`).
    ///
    /// - Throws: ``OrgClientError`` when `url` is not a proxy URL.
    public init(url: String, bypass: [String] = [], source: String = "--proxy") throws {
        let server = try Server(url: url, source: source)
        self.init(http: server, https: server, bypass: bypass)
    }

    /// The settings `environment` gives, as curl reads them: `https_proxy` / `HTTPS_PROXY` for
    /// `https` URLs, `http_proxy` / `HTTP_PROXY` for `http` URLs, `all_proxy` / `ALL_PROXY` for
    /// either when its own is not set, and `no_proxy` / `NO_PROXY`; lower case first, empty values
    /// ignored. `nil` when no proxy is set.
    ///
    /// - Throws: ``OrgClientError`` naming the variable (never its credentials) when a value is
    ///   not a proxy URL.
    public static func fromEnvironment(_ environment: [String: String]) throws -> ProxySettings? {
        func value(_ name: String) -> (name: String, value: String)? {
            for key in [name.lowercased(), name.uppercased()] {
                if let value = environment[key], !value.trimmingCharacters(in: .whitespaces).isEmpty {
                    return (key, value)
                }
            }
            return nil
        }
        func server(_ name: String) throws -> Server? {
            guard let (key, text) = value(name) ?? value("ALL_PROXY") else { return nil }
            return try Server(url: text, source: key)
        }
        let http = try server("HTTP_PROXY")
        let https = try server("HTTPS_PROXY")
        guard http != nil || https != nil else { return nil }
        return ProxySettings(http: http, https: https, bypass: Self.bypassList(value("NO_PROXY")?.value ?? ""))
    }

    /// The settings of a command: `--proxy URL` when given (with the environment's `NO_PROXY`),
    /// else the environment's.
    ///
    /// - Throws: ``OrgClientError`` when the flag or a variable is not a proxy URL.
    public static func resolve(flag: String?, environment: [String: String]) throws -> ProxySettings? {
        guard let flag else { return try fromEnvironment(environment) }
        let noProxy = environment["no_proxy"].flatMap { $0.isEmpty ? nil : $0 } ?? environment["NO_PROXY"] ?? ""
        return try ProxySettings(url: flag, bypass: bypassList(noProxy))
    }

    /// The entries of a `NO_PROXY` value.
    public static func bypassList(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The proxy a request to `url` goes through; `nil` when it goes direct (no proxy for its
    /// scheme, or its host is in ``bypass``).
    public func server(for url: String) -> Server? {
        guard let (scheme, host, port) = Self.parts(of: url) else { return nil }
        let server = scheme == "https" ? https : scheme == "http" ? http : nil
        guard let server, !bypasses(host: host, port: port) else { return nil }
        return server
    }

    /// Whether `host` (and `port`) matches a ``bypass`` entry, as curl matches `NO_PROXY`.
    public func bypasses(host: String, port: Int) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        for entry in bypass {
            if entry == "*" { return true }
            var name = Substring(entry.lowercased())
            // A bare IPv6 address (several colons, no brackets) has no port to split off.
            if (name.hasPrefix("[") && name.contains("]")) || name.filter({ $0 == ":" }).count == 1 {
                let (entryHost, entryPort) = Self.splitHostAndPort(name)
                if let entryPort, Int(entryPort) != port { continue }
                name = entryHost
            }
            while name.hasPrefix(".") || name.hasPrefix("*.") { name = name.drop { $0 == "." || $0 == "*" } }
            if name.isEmpty { continue }
            if host == name || host.hasSuffix("." + name) { return true }
        }
        return false
    }

    /// The variables a child process (the Salesforce CLI) needs to use the same proxies.
    public var environmentVariables: [String: String] {
        var variables: [String: String] = [:]
        if let https {
            variables["HTTPS_PROXY"] = https.environmentValue
            variables["https_proxy"] = https.environmentValue
        }
        if let http {
            variables["HTTP_PROXY"] = http.environmentValue
            variables["http_proxy"] = http.environmentValue
        }
        if !bypass.isEmpty {
            variables["NO_PROXY"] = bypass.joined(separator: ",")
            variables["no_proxy"] = bypass.joined(separator: ",")
        }
        return variables
    }

    /// The proxies and bypass list, credentials hidden.
    public var description: String {
        var parts: [String] = []
        if let https { parts.append("https via \(https)") }
        if let http { parts.append("http via \(http)") }
        if !bypass.isEmpty { parts.append("direct for \(bypass.joined(separator: ","))") }
        return parts.joined(separator: "; ")
    }

    /// The scheme, host and port of an `http(s)://` URL.
    private static func parts(of url: String) -> (scheme: String, host: String, port: Int)? {
        guard let range = url.range(of: "://") else { return nil }
        let scheme = url[..<range.lowerBound].lowercased()
        var authority = url[range.upperBound...]
        if let end = authority.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
            authority = authority[..<end]
        }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let (host, portText) = splitHostAndPort(authority)
        let port = portText.flatMap { Int($0) } ?? (scheme == "https" ? 443 : 80)
        return (scheme, String(host), port)
    }

    /// `HOST[:PORT]` or `[IPV6][:PORT]` split into the host (without brackets) and the port's
    /// text, `nil` when there is no `:` after the host; the one reading of an authority that proxy
    /// URLs, request URLs and `NO_PROXY` entries share.
    static func splitHostAndPort(_ authority: Substring) -> (host: Substring, port: Substring?) {
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            let after = authority[authority.index(after: close)...]
            return (
                authority[authority.index(after: authority.startIndex)..<close],
                after.hasPrefix(":") ? after.dropFirst() : nil
            )
        }
        guard let colon = authority.lastIndex(of: ":") else { return (authority, nil) }
        return (authority[..<colon], authority[authority.index(after: colon)...])
    }
}
