import Foundation
import X509

/// A self-signed certificate valid for the hour around now, for the tests that need one (TLS,
/// JWT bearer grants).
enum SelfSignedCertificate {
    static func pem(
        commonName: String,
        key: Certificate.PrivateKey,
        signatureAlgorithm: Certificate.SignatureAlgorithm
    ) throws -> String {
        let name = try DistinguishedName { CommonName(commonName) }
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: key.publicKey,
            notValidBefore: Date().addingTimeInterval(-3600),
            notValidAfter: Date().addingTimeInterval(3600),
            issuer: name,
            subject: name,
            signatureAlgorithm: signatureAlgorithm,
            extensions: Certificate.Extensions(),
            issuerPrivateKey: key
        )
        return try certificate.serializeAsPEM().pemString
    }
}
