/// How the local org checks the assertions of the OAuth 2.0 JWT bearer grant.
///
/// Keys:
/// - `certificatePEM` (`String`, required): the PEM certificate whose RSA public key must have
///   signed the assertion (what `--jwt-cert FILE` reads), as uploaded to a connected app.
/// - `audiences` (`[String]`, default login and test hosts): accepted `aud` values; the server's own
///   base URL is always accepted as well.
/// - `clientID` (`String?`, default `nil`): the required `iss` (consumer key); `nil` accepts any.
/// - `username` (`String?`, default `nil`): the required `sub`; `nil` accepts any.
/// - `clockSkew` (`Duration`, default 0 s): leeway when checking `exp`.
public struct JWTBearerSettings: Sendable, Equatable {
    /// The PEM text of the certificate that verifies assertion signatures.
    public var certificatePEM: String
    /// The accepted audiences besides the server's own base URL.
    public var audiences: [String]
    /// The required issuer (client ID), or `nil` for any.
    public var clientID: String?
    /// The required subject (username), or `nil` for any.
    public var username: String?
    /// Leeway when checking expiry.
    public var clockSkew: Duration

    /// The production and sandbox login hosts, the audiences Salesforce documents.
    public static let defaultAudiences = ["https://login.salesforce.com", "https://test.salesforce.com"]

    /// Creates settings from a PEM certificate.
    public init(
        certificatePEM: String,
        audiences: [String] = JWTBearerSettings.defaultAudiences,
        clientID: String? = nil,
        username: String? = nil,
        clockSkew: Duration = .zero
    ) {
        self.certificatePEM = certificatePEM
        self.audiences = audiences
        self.clientID = clientID
        self.username = username
        self.clockSkew = clockSkew
    }
}
