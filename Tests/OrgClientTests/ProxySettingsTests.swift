import Testing

@testable import OrgClient

/// `ProxySettings`: proxy URLs read as curl reads them, `NO_PROXY` matching, and credentials that
/// never reach a description or a message.
struct ProxySettingsTests {
    @Test func readsProxyURLsAsCurlDoes() throws {
        let plain = try ProxySettings.Server(url: "proxy.corp.example:3128")
        #expect(plain == .init(host: "proxy.corp.example", port: 3128))
        let withUser = try ProxySettings.Server(url: "http://al%40ice:p%3Ass@10.0.0.1/")
        #expect(withUser == .init(host: "10.0.0.1", port: 80, username: "al@ice", password: "p:ss"))
        let ipv6 = try ProxySettings.Server(url: "http://[::1]:8080")
        #expect(ipv6.host == "::1" && ipv6.port == 8080)
        let socks = try ProxySettings.Server(url: "socks5h://127.0.0.1")
        #expect(socks.kind == .socks5 && socks.port == 1080)
    }

    @Test func refusesWhatItCannotUseWithoutEchoingTheCredentials() {
        for text in [
            "https://bob:hunter2secret@proxy:3128", "ftp://bob:hunter2secret@proxy", "http://bob:hunter2secret@proxy:0",
            "http://bob:hunter2secret@proxy:x", "http://bob:hunter2secret@", "socks5://bob:hunter2secret@proxy",
            "http://bob:hunter2secret@proxy:3128/path",
        ] {
            #expect(throws: OrgClientError.self, "\(text)") {
                _ = try ProxySettings.Server(url: text)
            }
            do {
                _ = try ProxySettings.Server(url: text, source: "HTTPS_PROXY")
            } catch let error as OrgClientError {
                #expect(error.code == .invalidConfiguration)
                #expect(!error.message.contains("hunter2secret"), "\(error.message)")
                #expect(error.message.hasPrefix("HTTPS_PROXY '"))
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }

    @Test func descriptionsHideThePassword() throws {
        let settings = try ProxySettings(url: "http://bob:hunter2secret@proxy:3128", bypass: [".corp"])
        #expect(
            settings.description
                == "https via http://bob:***@proxy:3128; http via http://bob:***@proxy:3128; direct for .corp"
        )
        #expect(!String(describing: settings.https).contains("hunter2secret"))
        // A child process gets the credentials, percent-encoded.
        let child = try ProxySettings(url: "http://b%40b:p%3Aw@proxy:3128").environmentVariables
        #expect(child["HTTPS_PROXY"] == "http://b%40b:p%3Aw@proxy:3128")
        #expect(child["HTTP_PROXY"] == child["HTTPS_PROXY"])
    }

    @Test func theEnvironmentIsReadLowerCaseFirstWithAllProxyAsFallback() throws {
        #expect(try ProxySettings.fromEnvironment([:]) == nil)
        #expect(try ProxySettings.fromEnvironment(["HTTPS_PROXY": " "]) == nil)
        let both = try #require(
            try ProxySettings.fromEnvironment([
                "https_proxy": "http://lower:1", "HTTPS_PROXY": "http://upper:2", "ALL_PROXY": "http://all:3",
                "NO_PROXY": "localhost, .internal.example ,",
            ])
        )
        #expect(both.https?.host == "lower" && both.http?.host == "all")
        #expect(both.bypass == ["localhost", ".internal.example"])
        // --proxy wins over the variables, and keeps NO_PROXY.
        let flag = try #require(
            try ProxySettings.resolve(
                flag: "http://flag:9",
                environment: ["HTTPS_PROXY": "http://env:1", "no_proxy": "a"]
            )
        )
        #expect(flag.https?.host == "flag" && flag.http?.host == "flag" && flag.bypass == ["a"])
        #expect(throws: OrgClientError.self) {
            _ = try ProxySettings.fromEnvironment(["HTTP_PROXY": "https://x:1"])
        }
    }

    @Test func noProxyMatchesHostsDomainsAddressesAndPorts() throws {
        let settings = try ProxySettings(
            url: "http://proxy:3128",
            bypass: ["localhost", ".corp.example", "my.salesforce.com", "10.1.2.3", "127.0.0.1:8443", "[::1]"]
        )
        func goesDirect(_ url: String) -> Bool { settings.server(for: url) == nil }
        #expect(goesDirect("https://localhost:8443/services"))
        #expect(goesDirect("https://LOCALHOST"))
        #expect(goesDirect("https://a.corp.example/x"))
        #expect(goesDirect("https://corp.example"))
        #expect(goesDirect("https://acme.my.salesforce.com/services/data"))
        #expect(goesDirect("http://10.1.2.3:80/"))
        #expect(goesDirect("https://127.0.0.1:8443/services"))
        #expect(goesDirect("https://[::1]:443/"))
        #expect(!goesDirect("https://127.0.0.1:8444/services"))
        #expect(!goesDirect("https://notcorp.example"))
        #expect(!goesDirect("https://login.salesforce.com"))
        #expect(!goesDirect("https://10.1.2.30"))
        #expect(try ProxySettings(url: "http://p:1", bypass: ["*"]).server(for: "https://anything") == nil)
        // A scheme with no proxy goes direct.
        let httpsOnly = ProxySettings(http: nil, https: try .init(url: "http://p:1"))
        #expect(httpsOnly.server(for: "http://org.example") == nil)
        #expect(httpsOnly.server(for: "https://org.example")?.host == "p")
    }
}
