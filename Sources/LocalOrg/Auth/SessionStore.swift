import Crypto
import Foundation

/// The tokens the local org accepts: the configured (or generated) access token, tokens issued by
/// the OAuth endpoint, and the refresh token the refresh grant accepts.
///
/// Tokens are secrets: this type has no description and nothing here is logged.
struct SessionStore: Sendable {
    /// The access token printed at start-up.
    let primaryAccessToken: String
    /// The refresh token the `refresh_token` grant accepts.
    let refreshToken: String
    private let issued = ProtectedState(Set<String>())
    private let signingKey: Data = {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }()

    /// Creates the store, generating the tokens that are not configured.
    init(accessToken: String?, refreshToken: String?, orgID: String) {
        primaryAccessToken = accessToken ?? Self.makeToken(orgID: orgID)
        self.refreshToken = refreshToken ?? "5Aep" + Self.randomText(length: 83)
    }

    /// Whether an `Authorization` header value (`Bearer T` or `OAuth T`) carries a valid token.
    func isAuthorized(_ header: String?) -> Bool {
        guard let header else { return false }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2 else { return false }
        let scheme = parts[0].lowercased()
        guard scheme == "bearer" || scheme == "oauth" else { return false }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        if Self.constantTimeEquals(token, primaryAccessToken) { return true }
        return issued.withLock { $0.contains(token) }
    }

    /// Issues a new access token, valid until the server stops.
    func issueAccessToken(orgID: String) -> String {
        let token = Self.makeToken(orgID: orgID)
        issued.withLock { _ = $0.insert(token) }
        return token
    }

    /// The OAuth `signature` of a token response: base64 HMAC-SHA256 of `id` + `issued_at`.
    func signature(identityURL: String, issuedAt: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data((identityURL + issuedAt).utf8), using: SymmetricKey(data: signingKey))
        return Data(mac).base64EncodedString()
    }

    /// A token shaped like Salesforce's: the org ID, `!`, then random text.
    private static func makeToken(orgID: String) -> String {
        String(orgID.prefix(15)) + "!AQ" + randomText(length: 96)
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._")

    private static func randomText(length: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<length).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }

    private static func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8)
        let right = Array(rhs.utf8)
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }
}
