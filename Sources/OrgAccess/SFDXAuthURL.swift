import Foundation

/// A parsed SFDX auth URL, `force://CLIENT_ID:CLIENT_SECRET:REFRESH_TOKEN@HOST[:PORT]`, as
/// `sf org auth show-sfdx-auth-url` prints it and `sf org login sfdx-url` reads it.
///
/// Parsed as sfdx-core's `parseSfdxAuthUrl` does (each part `[A-Za-z0-9._-]` with up to two
/// trailing `=`; the secret may be empty); the login URL is `https://HOST`. The description never
/// shows the secret or the refresh token.
public struct SFDXAuthURL: Sendable, Hashable {
    /// The connected app's consumer key (`PlatformCLI` for sf's own app).
    public var clientID: String
    /// The consumer secret; empty for sf's app.
    public var clientSecret: String
    /// The refresh token.
    public var refreshToken: String
    /// `HOST[:PORT]`.
    public var host: String

    /// Parses an auth URL.
    ///
    /// - Throws: ``OrgAccessError`` (unresolvable) naming the part that is wrong, never its value.
    public init(parsing text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix("force://") else {
            throw OrgAccessError.invalidAuthURL("it does not start with 'force://'")
        }
        let rest = trimmed.dropFirst("force://".count)
        guard let at = rest.lastIndex(of: "@") else {
            throw OrgAccessError.invalidAuthURL("it has no '@HOST' after the refresh token")
        }
        let credentials = rest[..<at].split(separator: ":", omittingEmptySubsequences: false)
        guard credentials.count == 3 else {
            throw OrgAccessError.invalidAuthURL("it needs CLIENT_ID:CLIENT_SECRET:REFRESH_TOKEN before '@'")
        }
        let host = String(rest[rest.index(after: at)...])
        guard !credentials[0].isEmpty, Self.isToken(credentials[0]) else {
            throw OrgAccessError.invalidAuthURL("its client ID is empty or holds characters outside A-Z a-z 0-9 . _ -")
        }
        guard Self.isToken(credentials[1]) else {
            throw OrgAccessError.invalidAuthURL("its client secret holds characters outside A-Z a-z 0-9 . _ -")
        }
        guard !credentials[2].isEmpty, Self.isToken(credentials[2]) else {
            throw OrgAccessError.invalidAuthURL(
                "its refresh token is empty or holds characters outside A-Z a-z 0-9 . _ -"
            )
        }
        guard !host.isEmpty, host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ":._-".contains($0)) })
        else {
            throw OrgAccessError.invalidAuthURL("its host after '@' is empty or not a host name")
        }
        clientID = String(credentials[0])
        clientSecret = String(credentials[1])
        refreshToken = String(credentials[2])
        self.host = host
    }

    /// `https://HOST`, where the refresh grant goes unless a login URL overrides it.
    public var loginURL: String { "https://\(host)" }

    private static func isToken(_ part: Substring) -> Bool {
        let body = part.reversed().drop { $0 == "=" }
        guard part.count - body.count <= 2 else { return false }
        return body.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
    }
}

extension SFDXAuthURL: CustomStringConvertible, CustomReflectable {
    /// The client ID and host only.
    public var description: String { "SFDXAuthURL(clientID: \(clientID), host: \(host), secrets: <redacted>)" }

    /// A mirror without the secrets.
    public var customMirror: Mirror { Mirror(self, children: ["clientID": clientID, "host": host]) }
}
