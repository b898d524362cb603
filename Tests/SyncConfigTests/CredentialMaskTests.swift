import Foundation
import SyncConfig
import SyncrunTestSupport
import Testing

/// Credentials never reach a message (issue 27 item 3): the mask finds each kind, keeps lines and
/// columns, and the loader masks files before any lexer sees them; a file that is no config at
/// all is named without its content.
struct CredentialMaskTests {
    static let refreshToken = "5Aep861KnownRefreshTokenZZ"
    static let authURL = "force://PlatformCLI:clientsecret77:\(refreshToken)@acme.my.salesforce.com"
    static let sessionID = "00D5g000004ABCD!AQ0AQKnownSessionTokenBodyXYZ.abc"
    static let jwt = "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJrbm93bi1qd3QtaXNzdWVyIn0.c2lnbmF0dXJlLWtub3du"
    static let pem = """
        -----BEGIN RSA PRIVATE KEY-----
        MIIEowIBAAKCAQEAknownPEMbodyLineOne0123456789abcdefABCDEF
        knownPEMbodyLineTwo/+==
        -----END RSA PRIVATE KEY-----
        """

    @Test func eachKindIsMaskedCharacterForCharacter() {
        let text = """
            url: \(Self.authURL)
            token: \(Self.sessionID)
            header: Authorization: Bearer knownBearerToken123
            jwt: \(Self.jwt)
            site: https://admin:Hunter2Known@example.com/path
            key: |
            \(Self.pem)
            """
        let (masked, findings) = CredentialMask.scan(text)
        for secret in [
            Self.refreshToken, "clientsecret77", "AQ0AQKnown", "knownBearerToken123", "eyJhbGci", "Hunter2Known",
            "knownPEMbody", "LineTwo",
        ] {
            #expect(!masked.contains(secret), "\(secret)")
        }
        // What is not secret stays: the auth URL's host, the PEM markers, the URL's host and path.
        #expect(masked.contains("force://"))
        #expect(masked.contains("@acme.my.salesforce.com"))
        #expect(masked.contains("-----BEGIN RSA PRIVATE KEY-----\n"))
        #expect(masked.contains("https://") && masked.contains("@example.com/path"))
        // Lines and columns are those of the original.
        #expect(masked.unicodeScalars.count == text.unicodeScalars.count)
        #expect(masked.split(separator: "\n").map(\.count) == text.split(separator: "\n").map(\.count))
        #expect(
            findings.map(\.kind) == [.sfdxAuthURL, .sessionID, .bearerToken, .jwt, .urlUserInfo, .pemBlock]
        )
        #expect(findings.map { [$0.line, $0.column] } == [[1, 14], [2, 8], [3, 31], [4, 6], [5, 15], [8, 1]])
        // Text without credentials comes back unchanged.
        let plain = "SELECT Id, Name FROM Account WHERE Website = 'https://example.com' -- 00D is a prefix"
        #expect(CredentialMask.scan(plain).masked == plain)
        #expect(CredentialMask.scan(plain).findings.isEmpty)
    }

    @Test(arguments: [
        ("usersyncs.yaml", "authURL"), ("usersyncs.json", "authURL"), ("usersyncs.yaml", "pem"),
        ("userstore.yaml", "pem"), ("usersyncs.yaml", "sessionID"), ("usersyncs.yaml", "binary"),
    ])
    func aFileThatIsNotAConfigIsNamedWithoutItsContent(name: String, content: String) throws {
        let text: String =
            switch content {
            case "authURL": Self.authURL + "\n"
            case "pem": Self.pem + "\n"
            case "sessionID": Self.sessionID + "\n"
            default: "syncs:\u{0}" + Self.refreshToken
            }
        let loaded = try ConfigFixture.load([name: text])
        #expect(loaded.diagnostics.map(\.code) == [.notAConfig], "\(loaded.diagnostics)")
        let message = try #require(loaded.diagnostics.first).description
        #expect(message.hasPrefix("\(name):1:1: error: this file is not a config: it holds "), "\(message)")
        for secret in [Self.refreshToken, "clientsecret77", "AQ0AQKnown", "knownPEMbody", "PlatformCLI"] {
            #expect(!message.contains(secret))
        }
    }

    @Test func credentialsInsideAConfigAreMaskedErrorsAtTheirValue() throws {
        let loaded = try ConfigFixture.load([
            "usersyncs.yaml": """
            # the auth URL, kept here by mistake: \(Self.authURL)
            syncs:
              - syncName: accountsDown
                syncType: syncDown
                soupName: accounts
                target: {type: soql, query: "SELECT Id FROM Account WHERE Name = '\(Self.sessionID)'"}
                \(Self.jwt): 1
            """
        ])
        let lines = loaded.diagnostics.filter { $0.code == .inlineSecret }.map(\.description)
        #expect(
            lines.map { $0.components(separatedBy: ": error: ").first ?? "" } == [
                "usersyncs.yaml:1:47", "usersyncs.yaml:6:33", "usersyncs.yaml:7:5",
            ],
            "\(lines)"
        )
        let everything = loaded.diagnostics.map(\.description).joined(separator: "\n")
        for secret in [Self.refreshToken, "clientsecret77", "AQ0AQKnown", "eyJhbGci", "PlatformCLI"] {
            #expect(!everything.contains(secret), "\(secret): \(everything)")
        }
        #expect(loaded.hasErrors)
    }

    @Test func aJSONEscapeCannotHideACredentialFromTheMask() throws {
        // `\/` and `\u0040` only become `//` and `@` once decoded: the decoded value is masked too.
        let loaded = try ConfigFixture.load([
            "usersyncs.json": #"{"syncs": [{"syncName": "a", "syncType": "syncDown", "soupName": "accounts", "#
                + #""target": {"type": "soql", "query": "SELECT Id, LastModifiedDate FROM Account"}, "#
                + #""dependsOn": ["force:\/\/PlatformCLI::"# + Self.refreshToken + #"\u0040acme.my.salesforce.com"]}]}"#
        ])
        let everything = loaded.diagnostics.map(\.description).joined(separator: "\n")
        #expect(!everything.contains(Self.refreshToken), "\(everything)")
        #expect(
            loaded.diagnostics.contains { $0.code == .inlineSecret && $0.path == "syncs[0].dependsOn[0]" },
            "\(everything)"
        )
    }

    @Test(arguments: ["usersyncs.json", "userstore.json", "usersyncs.yaml", "globalsyncs.yml"])
    func aDirectoryNamedLikeAConfigIsAnError(name: String) throws {
        let directory = try TemporaryDirectory(prefix: "syncconfig-directory")
        defer { try? FileManager.default.removeItem(at: directory.url) }
        try FileManager.default.createDirectory(
            at: directory.url.appendingPathComponent(name),
            withIntermediateDirectories: false
        )
        try Data(#"{"soups": []}"#.utf8).write(to: directory.url.appendingPathComponent("globalstore.json"))
        let files = ConfigFiles.locate(in: directory.url)
        let loaded = try ConfigLoader().load(files)
        #expect(loaded.hasErrors)
        let diagnostic = try #require(loaded.diagnostics.first { $0.code == .notAConfig })
        #expect(diagnostic.file.hasSuffix("/" + name))
        #expect(diagnostic.message.hasPrefix("'\(name)' is a directory, not a config file"))
    }
}
