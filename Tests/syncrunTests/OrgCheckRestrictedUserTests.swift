import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing

/// `syncrun org check` against a local org token acting as a restricted user (issue 30 item 3):
/// what the integration user cannot see or write is reported before a run, from the describes.
@Suite struct OrgCheckRestrictedUserTests {
    /// Org A's shape with an integration user that cannot see `Rating__c` or `Widget__c` and may
    /// only read `Total__c` and `Code__c`.
    static let profile = """
        {"profiles": [{"name": "Integration", "objects": [
           {"name": "Account", "read": true, "create": true, "edit": true,
            "fields": {"Rating__c": "none", "Total__c": "read", "Code__c": "read"}},
           {"name": "Contact", "read": true, "create": true, "edit": true}]}],
         "users": [{"username": "integration@example.com", "profile": "Integration"}]}
        """

    @Test func reportsWhatTheIntegrationUserCannotDo() async throws {
        try await TemporaryDirectory.with(prefix: "org-check-restricted") { directory in
            try OrgCheckCommandTests.usersyncs.write(
                to: directory.appendingPathComponent("usersyncs.json"),
                atomically: true,
                encoding: .utf8
            )
            let schema = try OrgSchema.standard
                .merging(json: Data(OrgCheckCommandTests.schemaA.utf8), source: "a.json")
                .merging(json: Data(Self.profile.utf8), source: "profile.json")
            var configuration = LocalOrgConfiguration()
            configuration.actingUser = "integration@example.com"

            // The org's own user: org A holds every rule but the org-specific id (a warning).
            try await LocalOrgFixture.with(schema: schema) { org in
                let result = try await SyncrunProcess.runOffThePool(
                    ["org", "check", "--org", org.baseURL.absoluteString, "--access-token", org.accessToken],
                    in: directory
                )
                #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            }

            try await LocalOrgFixture.with(configuration: configuration, schema: schema) { org in
                let result = try await SyncrunProcess.runOffThePool(
                    ["org", "check", "--org", org.baseURL.absoluteString, "--access-token", org.accessToken],
                    in: directory
                )
                #expect(result.status == 1, "\(result.stderr)")
                let lines = result.stdout.split(separator: "\n").map(String.init)
                func has(_ fragment: String, code: String) -> Bool {
                    lines.contains { $0.contains(fragment) && $0.hasSuffix("[\(code)]") }
                }
                #expect(has("field 'Rating__c' does not exist on 'Account'", code: "unknown-field"), "\(lines)")
                #expect(has("sObject 'Widget__c' does not exist", code: "unknown-object"), "\(lines)")
                #expect(has("'Account.Total__c' is not createable", code: "field-not-createable"), "\(lines)")
                #expect(has("'Account.Code__c' is not updateable", code: "field-not-updateable"), "\(lines)")
                #expect(lines.last == "4 errors, 1 warning", "\(lines)")
            }
        }
    }
}
