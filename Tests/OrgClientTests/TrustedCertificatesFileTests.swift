import Foundation
import Logging
import OrgClient
import SyncrunTestSupport
import Testing

/// `--ca-file` / `SSL_CERT_FILE` (`trustedCertificatesFile`): parsed only for an `https` org; for a
/// plain-HTTP org (the local org) it is checked, not parsed, so a missing file is still reported.
struct TrustedCertificatesFileTests {
    static let logger = Logger(label: "ca-file.tests", factory: { _ in SwiftLogNoOpLogHandler() })

    static func configuration(_ baseURL: String, caFile: String) throws -> RESTOrgClient.Configuration {
        var configuration = RESTOrgClient.Configuration(
            endpoint: try OrgEndpoint(baseURL: baseURL, accessToken: "00Dx!token")
        )
        configuration.trustedCertificatesFile = caFile
        return configuration
    }

    @Test func aMissingFileIsReportedForEveryScheme() async throws {
        for url in ["http://127.0.0.1:9", "https://127.0.0.1:9"] {
            let error = await #expect(throws: OrgClientError.self) {
                try await withRESTOrgClient(
                    configuration: try Self.configuration(url, caFile: "/nonexistent/ca.pem"),
                    logger: Self.logger
                ) { _ in }
            }
            #expect(error?.code == .invalidConfiguration)
            #expect(error?.message.contains("/nonexistent/ca.pem") == true, "\(error?.message ?? "")")
        }
    }

    @Test func aFileIsParsedOnlyForAnHTTPSOrg() async throws {
        try await TemporaryDirectory.with { directory in
            let notPEM = directory.appendingPathComponent("not.pem")
            try Data("this is not a certificate\n".utf8).write(to: notPEM)
            // Plain HTTP: readable is enough, nothing is parsed.
            try await withRESTOrgClient(
                configuration: try Self.configuration("http://127.0.0.1:9", caFile: notPEM.path),
                logger: Self.logger
            ) { _ in }
            // HTTPS: the file must hold certificates.
            let error = await #expect(throws: OrgClientError.self) {
                try await withRESTOrgClient(
                    configuration: try Self.configuration("https://127.0.0.1:9", caFile: notPEM.path),
                    logger: Self.logger
                ) { _ in }
            }
            #expect(error?.code == .invalidConfiguration)
        }
    }
}
