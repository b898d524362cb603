import Foundation
import SyncConfig
import SyncrunTestSupport
import Testing

/// The project file: its six org forms, relative paths, and inline secrets as positioned errors.
struct ProjectFileTests {
    private func load(_ text: String, name: String = "syncrun.yaml") throws -> (LoadedProjectFile, URL) {
        let directory = try TemporaryDirectory(prefix: "syncrun-project")
        defer { try? FileManager.default.removeItem(at: directory.url) }
        let url = directory.url.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return (try ConfigLoader().loadProjectFile(url), directory.url)
    }

    @Test func readsTheSixFormsWithPathsRelativeToTheFile() throws {
        let (loaded, folder) = try load(
            """
            defaultOrg: dev
            store: state/store.db
            orgs:
              local: {local: {dir: .syncrun/org, seed: [data/plan.json], schema: org/schema.yaml}}
              prod: {url: https://acme.my.salesforce.com, accessTokenEnv: PROD_TOKEN}
              dev: {sfAlias: my-dev-org}
              ci: {authUrlFile: secrets/auth-url}
              ci2: {authUrlEnv: SFDX_AUTH_URL}
              jwt: {jwt: {keyFile: /keys/server.key, clientId: 3MVG9, username: ci@acme.com}}
              svc: {clientCredentials: {clientId: 3MVG9, secretFile: cc.txt, loginUrl: https://acme.my.salesforce.com}}
            """
        )
        #expect(loaded.diagnostics == [])
        let project = try #require(loaded.project)
        let base = folder.standardizedFileURL.path
        #expect(project.defaultOrg == "dev")
        #expect(project.store == base + "/state/store.db")
        #expect(project.orgs.map(\.name) == ["local", "prod", "dev", "ci", "ci2", "jwt", "svc"])
        #expect(
            project.org(named: "local")
                == .local(
                    directory: base + "/.syncrun/org",
                    seed: [base + "/data/plan.json"],
                    schema: base + "/org/schema.yaml"
                )
        )
        #expect(project.org(named: "prod") == .url("https://acme.my.salesforce.com", accessTokenEnv: "PROD_TOKEN"))
        #expect(project.org(named: "dev") == .sfAlias("my-dev-org"))
        #expect(project.org(named: "ci") == .authURLFile(base + "/secrets/auth-url"))
        #expect(project.org(named: "ci2") == .authURLEnv("SFDX_AUTH_URL"))
        #expect(
            project.org(named: "jwt")
                == .jwt(keyFile: "/keys/server.key", clientID: "3MVG9", username: "ci@acme.com", loginURL: nil)
        )
        #expect(
            project.org(named: "svc")
                == .clientCredentials(
                    clientID: "3MVG9",
                    secretFile: base + "/cc.txt",
                    loginURL: "https://acme.my.salesforce.com"
                )
        )
    }

    @Test func anOrgMayNameItsPubSubEndpoint() throws {
        let (loaded, _) = try load(
            """
            orgs:
              prod: {url: https://acme.my.salesforce.com, accessTokenEnv: PROD_TOKEN, pubsubUrl: pubsub.acme.example:7443}
              dev: {sfAlias: my-dev-org}
              local: {local: {dir: .syncrun/org}, pubsubUrl: "http://127.0.0.1:7011"}
            """
        )
        #expect(loaded.diagnostics == [])
        let project = try #require(loaded.project)
        #expect(project.pubsubURLs == ["prod": "pubsub.acme.example:7443", "local": "http://127.0.0.1:7011"])
        #expect(project.org(named: "prod") == .url("https://acme.my.salesforce.com", accessTokenEnv: "PROD_TOKEN"))
    }

    @Test func inlineSecretsAreErrorsAtTheirPosition() throws {
        let (loaded, _) = try load(
            """
            {
              "orgs": {
                "prod": {"url": "https://acme.my.salesforce.com", "accessToken": "x"},
                "ci": {"authUrlEnv": "force://PlatformCLI::5Aep861@acme.my.salesforce.com"},
                "svc": {"clientCredentials": {"clientId": "a", "clientSecret": "b", "loginUrl": "https://a.b"}}
              }
            }
            """,
            name: "syncrun.json"
        )
        #expect(loaded.project == nil)
        let errors = loaded.diagnostics.map { "\($0.line):\($0.column) \($0.path) \($0.code.rawValue)" }
        #expect(
            errors == [
                "3:55 orgs.prod.accessToken inline-secret", "4:26 orgs.ci.authUrlEnv inline-secret",
                "5:52 orgs.svc.clientCredentials.clientSecret inline-secret",
            ]
        )
        #expect(loaded.diagnostics.allSatisfy { !$0.message.contains("5Aep861") })
    }

    @Test func anOrgHasExactlyOneForm() throws {
        let (loaded, _) = try load(
            """
            orgs:
              none: {}
              both: {sfAlias: a, authUrlEnv: B}
            """
        )
        #expect(
            loaded.diagnostics.map(\.description).map { $0.components(separatedBy: "syncrun.yaml:").last ?? "" } == [
                "2:9: error: orgs.none: an org needs one of 'local', 'url' (with 'accessTokenEnv'), 'sfAlias', "
                    + "'authUrlFile', 'authUrlEnv', 'jwt' or 'clientCredentials'",
                "3:22: error: orgs.both.authUrlEnv: an org has one form; 'sfAlias' and 'authUrlEnv' exclude each other",
            ]
        )
    }
}
