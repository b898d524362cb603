import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing

/// A plan file whose `files` name a plan — itself, or one naming it back — recursed until the stack
/// ran out (found by the `seed` fuzz target, issue 20 item 1); it is now an error naming the file.
struct OrgSeedPlanCycleTests {
    @Test func aPlanNamingAPlanIsAnErrorNotACrash() async throws {
        try await TemporaryDirectory.with { directory in
            let plan = #"[{"sobject": "Account", "files": ["Account.json"]}]"#
            let itself = directory.appendingPathComponent("Account.json")
            try Data(plan.utf8).write(to: itself)
            let other = directory.appendingPathComponent("other.json")
            try Data(#"[{"sobject": "Contact", "files": ["back.json"]}]"#.utf8).write(to: other)
            try Data(#"[{"sobject": "Account", "files": ["other.json"]}]"#.utf8)
                .write(to: directory.appendingPathComponent("back.json"))
            let org = try OrgFixtures.makeOrg(in: directory.appendingPathComponent("org"))
            for file in [itself, other] {
                let error = #expect(throws: OrgError.self) { try OrgSeeder(database: org).seed(files: [file]) }
                #expect(error?.message.contains("a plan lists record files") == true, "\(String(describing: error))")
            }
            #expect(try org.query("SELECT COUNT() FROM Account", apiVersion: "59.0").totalSize == 0)
        }
    }
}
