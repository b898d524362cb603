import Crypto
import Foundation
import NIOConcurrencyHelpers

/// The tokens the local org accepts: the configured (or generated) access token, tokens issued by
/// the OAuth endpoint, and the refresh token the refresh grant accepts.
///
/// With a time to live, each access token (the start-up one included) stops working that long
/// after it was issued, as a real org's session times out: requests carrying it get 401
/// `INVALID_SESSION_ID` and the client must get a new one from a grant.
///
/// Tokens are secrets: this type has no description and nothing here is logged.
struct SessionStore: Sendable {
    /// The access token printed at start-up.
    let primaryAccessToken: String
    /// The refresh token the `refresh_token` grant accepts.
    let refreshToken: String
    /// How long an access token works, or `nil` for as long as the server runs.
    let timeToLive: Duration?
    /// The restricted user (``OrgUser``) the start-up token, and the tokens the refresh and
    /// client-credentials grants issue, act as; `nil` for the org's all-powerful user.
    let primaryUsername: String?
    private let now: @Sendable () -> Date
    private let primaryIssuedAt: Date
    private let issued = NIOLockedValueBox([String: Session]())
    private let signingKey: Data = {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }()

    /// Creates the store, generating the tokens that are not configured.
    init(
        accessToken: String?,
        refreshToken: String?,
        orgID: String,
        timeToLive: Duration? = nil,
        primaryUsername: String? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.primaryUsername = primaryUsername
        primaryAccessToken = accessToken ?? Self.makeToken(orgID: orgID)
        self.refreshToken = refreshToken ?? "5Aep" + Self.randomText(length: 83)
        self.timeToLive = timeToLive
        self.now = now
        primaryIssuedAt = now()
    }

    /// A live token's session: when it was issued and whom it acts as.
    struct Session: Sendable {
        var issuedAt: Date
        /// The restricted user the token acts as; `nil` for the org's all-powerful user.
        var username: String?
    }

    /// Whether an `Authorization` header value (`Bearer T` or `OAuth T`) carries a valid token.
    func isAuthorized(_ header: String?) -> Bool { session(header) != nil }

    /// The session of the valid token an `Authorization` header value (`Bearer T` or `OAuth T`)
    /// carries, or `nil`.
    func session(_ header: String?) -> Session? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2 else { return nil }
        let scheme = parts[0].lowercased()
        guard scheme == "bearer" || scheme == "oauth" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        if Self.constantTimeEquals(token, primaryAccessToken) {
            return isLive(issuedAt: primaryIssuedAt)
                ? Session(issuedAt: primaryIssuedAt, username: primaryUsername) : nil
        }
        guard let session = issued.withLockedValue({ $0[token] }), isLive(issuedAt: session.issuedAt) else {
            return nil
        }
        return session
    }

    /// Issues a new access token acting as `username` (`nil`: the org's all-powerful user), valid
    /// for the time to live (or until the server stops).
    func issueAccessToken(orgID: String, username: String?) -> String {
        let token = Self.makeToken(orgID: orgID)
        let session = Session(issuedAt: now(), username: username)
        issued.withLockedValue { $0[token] = session }
        return token
    }

    private func isLive(issuedAt: Date) -> Bool {
        guard let timeToLive else { return true }
        let seconds = Double(timeToLive.components.seconds) + Double(timeToLive.components.attoseconds) / 1e18
        return now().timeIntervalSince(issuedAt) < seconds
    }

    /// The OAuth `signature` of a token response: base64 HMAC-SHA256 of `id` + `issued_at`.
    func signature(identityURL: String, issuedAt: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(
            for: Data((identityURL + issuedAt).utf8),
            using: SymmetricKey(data: signingKey)
        )
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

    /// Whether `presented` is the refresh token; an empty or blank token never is.
    func isRefreshToken(_ presented: String?) -> Bool {
        guard let presented, !Self.isBlank(presented) else { return false }
        return Self.constantTimeEquals(presented, refreshToken)
    }

    /// Whether `text` is empty or only white space: never a usable token or secret.
    static func isBlank(_ text: String) -> Bool {
        text.allSatisfy(\.isWhitespace)
    }

    /// Compares two secrets in time that depends only on their lengths.
    static func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8)
        let right = Array(rhs.utf8)
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }
}
