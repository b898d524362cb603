import AsyncHTTPClient
import Crypto
import Foundation
import LocalOrg
import NIOSSL
import SyncrunTestSupport
import Testing
import X509

/// The local org over HTTPS, as simple-salesforce needs it.
struct TLSServerTests {
    @Test func servesHTTPSWithTheGivenCertificate() async throws {
        let key = P256.Signing.PrivateKey()
        let tls = TLSSettings(
            certificateChainPEM: try SelfSignedCertificate.pem(
                commonName: "127.0.0.1",
                key: Certificate.PrivateKey(key),
                signatureAlgorithm: .ecdsaWithSHA256
            ),
            privateKeyPEM: key.pemRepresentation
        )

        var clientTLS = TLSConfiguration.makeClientConfiguration()
        clientTLS.certificateVerification = .none
        let httpClient = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: HTTPClient.Configuration(tlsConfiguration: clientTLS)
        )
        let status = try await LocalOrgFixture.with(configuration: LocalOrgConfiguration(tls: tls)) { org in
            #expect(org.baseURL.absoluteString.hasPrefix("https://127.0.0.1:"))
            var client = org.client
            client.client = httpClient
            let result = await captureResult { try await client.send(.GET, "limits").status }
            // Closing the client's connections first lets the server stop without waiting for them.
            try await httpClient.shutdown()
            return try result.get()
        }
        #expect(status == 200)
    }

    @Test func unreadableTLSMaterialIsAConfigurationError() throws {
        #expect(throws: OrgError.self) {
            try TemporaryDirectory.withSync { directory in
                _ = try LocalOrgServer(
                    configuration: LocalOrgConfiguration(
                        tls: TLSSettings(certificateChainPEM: "x", privateKeyPEM: "y")
                    ),
                    database: try OrgDatabase(directory: directory)
                )
            }
        }
    }
}
