import Foundation
import Testing

@testable import OrgClient

struct OrgEndpointTests {
    @Test(arguments: [
        ("https://MyDomain.my.salesforce.com/", "https://mydomain.my.salesforce.com"),
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
        ("HTTPS://example.com:8443", "https://example.com:8443"),
    ])
    func normalisesTheBaseURL(input: String, expected: String) throws {
        let endpoint = try OrgEndpoint(baseURL: input, accessToken: "t0k3n")
        #expect(endpoint.baseURL == expected)
        #expect(endpoint.apiVersion == OrgEndpoint.defaultAPIVersion)
        #expect(endpoint.versionedBasePath == "/services/data/v62.0")
    }

    @Test(arguments: [
        "ftp://host", "host:8080", "https://host/services", "https://user:pw@host", "https://host?x=1", "",
    ])
    func rejectsOtherURLs(input: String) {
        let error = #expect(throws: OrgClientError.self) { try OrgEndpoint(baseURL: input, accessToken: "t") }
        #expect(error?.code == .invalidConfiguration)
        #expect(
            error?.message == "'\(input)' is not an org URL; use http(s)://HOST[:PORT] with no path, for example "
                + "'https://mydomain.my.salesforce.com'"
        )
    }

    @Test func acceptsVersionsWithOrWithoutV() throws {
        #expect(try OrgEndpoint(baseURL: "https://h", accessToken: "t", apiVersion: "v59.0").apiVersion == "59.0")
        let error = #expect(throws: OrgClientError.self) {
            try OrgEndpoint(baseURL: "https://h", accessToken: "t", apiVersion: "59")
        }
        #expect(error?.message == "'59' is not an API version; use the form NN.N, for example '62.0'")
    }

    @Test func rejectsAnEmptyToken() {
        let error = #expect(throws: OrgClientError.self) { try OrgEndpoint(baseURL: "https://h", accessToken: "") }
        #expect(
            error?.message
                == "the access token is empty or contains a line break; pass it with --access-token or SF_ACCESS_TOKEN"
        )
    }

    @Test func neverShowsTheToken() throws {
        let endpoint = try OrgEndpoint(baseURL: "https://h", accessToken: "SECRET-TOKEN")
        var dumped = ""
        dump(endpoint, to: &dumped)
        #expect(!"\(endpoint)".contains("SECRET"))
        #expect(!String(reflecting: endpoint).contains("SECRET"))
        #expect(!dumped.contains("SECRET"))
        #expect("\(endpoint)" == "OrgEndpoint(https://h, v62.0, accessToken: <redacted>)")
    }
}
