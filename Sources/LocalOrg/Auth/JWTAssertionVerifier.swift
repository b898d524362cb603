import Crypto
import Foundation
import X509
import _CryptoExtras

/// Verifies the signed JWT of the OAuth 2.0 JWT bearer grant (RS256), as Salesforce does (§9.2).
///
/// Checks, in order: the token's shape, `alg` = `RS256`, the PKCS#1 v1.5 SHA-256 signature against
/// the configured certificate's public key, `exp` in the future, `aud`, `iss` and `sub`.
struct JWTAssertionVerifier: Sendable {
    /// Why an assertion was rejected; `description` is the OAuth `error_description`.
    struct Rejection: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    /// The claims the verifier reads.
    struct Claims: Decodable {
        var iss: String?
        var sub: String?
        var aud: Audience?
        var exp: Double?
    }

    /// `aud` may be a string or an array of strings.
    enum Audience: Decodable {
        case one(String)
        case many([String])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(String.self) {
                self = .one(value)
            } else {
                self = .many(try container.decode([String].self))
            }
        }

        var values: [String] {
            switch self {
            case .one(let value): [value]
            case .many(let values): values
            }
        }
    }

    private struct Header: Decodable {
        var alg: String?
    }

    private let settings: JWTBearerSettings
    private let publicKey: _RSA.Signing.PublicKey

    /// Reads the certificate's RSA public key.
    ///
    /// - Throws: `OrgError` when the PEM is not a certificate or its key is not RSA.
    init(settings: JWTBearerSettings) throws {
        self.settings = settings
        let certificate: Certificate
        do {
            certificate = try Certificate(pemEncoded: settings.certificatePEM)
        } catch {
            throw OrgError.configuration("the JWT certificate is not a PEM X.509 certificate: \(error)")
        }
        guard let key = _RSA.Signing.PublicKey(certificate.publicKey) else {
            throw OrgError.configuration(
                "the JWT certificate's public key is not an RSA key; RS256 assertions need one"
            )
        }
        publicKey = key
    }

    /// Verifies `assertion` and returns its claims.
    ///
    /// - Parameters:
    ///   - assertion: the compact JWT (`header.payload.signature`).
    ///   - now: the current time.
    ///   - ownAudience: the server's base URL, always accepted as `aud`.
    /// - Throws: `Rejection` with the OAuth error description.
    func verify(_ assertion: String, now: Date, ownAudience: String) throws(Rejection) -> Claims {
        let parts = assertion.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
            let headerData = Base64URL.decode(parts[0]),
            let payloadData = Base64URL.decode(parts[1]),
            let signature = Base64URL.decode(parts[2]),
            let header = try? JSONDecoder().decode(Header.self, from: headerData),
            let claims = try? JSONDecoder().decode(Claims.self, from: payloadData)
        else {
            throw Rejection(description: "invalid assertion")
        }
        guard header.alg == "RS256" else {
            throw Rejection(description: "invalid assertion: the algorithm must be RS256")
        }
        let signedBytes = Data(parts[0].utf8) + Data(".".utf8) + Data(parts[1].utf8)
        let isValid = publicKey.isValidSignature(
            _RSA.Signing.RSASignature(rawRepresentation: signature),
            for: SHA256.hash(data: signedBytes),
            padding: .insecurePKCS1v1_5
        )
        guard isValid else {
            throw Rejection(description: "invalid assertion: the signature does not match the configured certificate")
        }
        guard let exp = claims.exp else {
            throw Rejection(description: "invalid assertion: the 'exp' claim is missing")
        }
        let skew = Double(settings.clockSkew.components.seconds)
        guard exp + skew > now.timeIntervalSince1970 else {
            throw Rejection(description: "expired assertion")
        }
        let accepted = Set((settings.audiences + [ownAudience]).map(Self.normalizedAudience))
        guard let audience = claims.aud,
            audience.values.contains(where: { accepted.contains(Self.normalizedAudience($0)) })
        else {
            throw Rejection(description: "audience is invalid")
        }
        guard let issuer = claims.iss, !issuer.isEmpty, settings.clientID.map({ $0 == issuer }) ?? true else {
            throw Rejection(description: "invalid client identifier in 'iss'")
        }
        guard let subject = claims.sub, !subject.isEmpty, settings.username.map({ $0 == subject }) ?? true else {
            throw Rejection(description: "user hasn't approved this consumer")
        }
        return claims
    }

    private static func normalizedAudience(_ value: String) -> String {
        value.hasSuffix("/") ? String(value.dropLast()).lowercased() : value.lowercased()
    }
}
