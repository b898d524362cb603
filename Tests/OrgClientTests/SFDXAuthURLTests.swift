import OrgAccess
import Testing

/// Parsing SFDX auth URLs as sfdx-core does, without ever showing their secrets.
struct SFDXAuthURLTests {
    @Test func parsesTheFourParts() throws {
        let url = try SFDXAuthURL(parsing: "force://PlatformCLI::5Aep861.x_y-z==@acme.my.salesforce.com\n")
        #expect(url.clientID == "PlatformCLI")
        #expect(url.clientSecret == "")
        #expect(url.refreshToken == "5Aep861.x_y-z==")
        #expect(url.host == "acme.my.salesforce.com")
        #expect(url.loginURL == "https://acme.my.salesforce.com")
        #expect(
            url.description == "SFDXAuthURL(clientID: PlatformCLI, host: acme.my.salesforce.com, secrets: <redacted>)"
        )
        let withSecret = try SFDXAuthURL(parsing: "force://3MVG9:S3CR3T:rt@127.0.0.1:8443")
        #expect(withSecret.clientSecret == "S3CR3T")
        #expect(withSecret.host == "127.0.0.1:8443")
        #expect(!String(reflecting: withSecret).contains("S3CR3T"))
    }

    @Test(arguments: [
        ("https://acme.my.salesforce.com", "it does not start with 'force://'"),
        ("force://id:secret:rt", "it has no '@HOST' after the refresh token"),
        ("force://id:rt@host", "it needs CLIENT_ID:CLIENT_SECRET:REFRESH_TOKEN before '@'"),
        ("force://id:s:r!t@host", "its refresh token is empty or holds characters outside A-Z a-z 0-9 . _ -"),
        ("force://id:s:rt@", "its host after '@' is empty or not a host name"),
    ])
    func invalidURLsNameThePartNotItsValue(text: String, problem: String) {
        let error = #expect(throws: OrgAccessError.self) { try SFDXAuthURL(parsing: text) }
        #expect(error?.code == .unresolvable)
        #expect(
            error?.message
                == "the SFDX auth URL is not valid: \(problem); it must read "
                + "force://CLIENT_ID:CLIENT_SECRET:REFRESH_TOKEN@HOST (print one with "
                + "'sf org auth show-sfdx-auth-url -o ALIAS --json')"
        )
    }
}
