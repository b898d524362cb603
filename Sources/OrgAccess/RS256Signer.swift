import Crypto
import Foundation
import _CryptoExtras

/// Signs JWT bearer assertions with RS256 (RSASSA-PKCS1-v1_5 over SHA-256) using an RSA private
/// key read from a PEM file (PKCS#1 `RSA PRIVATE KEY` or PKCS#8 `PRIVATE KEY`).
struct RS256Signer: Sendable {
    private let key: _RSA.Signing.PrivateKey

    /// Reads the key.
    ///
    /// - Throws: ``OrgAccessError`` (unresolvable) when the file cannot be read or holds no RSA key.
    init(keyFile: String) throws {
        let pem: String
        do {
            pem = try String(contentsOfFile: keyFile, encoding: .utf8)
        } catch {
            throw OrgAccessError.unreadableSecretFile(keyFile, purpose: "the JWT key", underlying: error)
        }
        do {
            key = try _RSA.Signing.PrivateKey(pemRepresentation: pem)
        } catch {
            throw OrgAccessError.invalidJWTKey(keyFile)
        }
    }

    /// The signature of `bytes`.
    func sign(_ bytes: [UInt8]) throws -> [UInt8] {
        let signature = try key.signature(for: SHA256.hash(data: bytes), padding: .insecurePKCS1v1_5)
        return Array(signature.rawRepresentation)
    }
}
