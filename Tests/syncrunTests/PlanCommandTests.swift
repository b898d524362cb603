import Foundation
import SyncrunTestSupport
import Testing

/// `syncrun plan` end to end: the built executable's output, determinism and exit status.
struct PlanCommandTests {
    private var contacts: String { RepositoryPaths.examples.appendingPathComponent("contacts").path }
    private var contactsYAML: String { RepositoryPaths.examples.appendingPathComponent("contacts-yaml").path }

    private func snapshot(_ name: String) throws -> String {
        let url = RepositoryPaths.root.appendingPathComponent("Tests/SyncPlanTests/Snapshots/\(name)")
        return String(decoding: try Data(contentsOf: url), as: UTF8.self)
    }

    @Test(arguments: [
        ("json", "contacts.plan.json"), ("text", "contacts.plan.txt"),
        ("mermaid", "contacts.plan.mmd"), ("dot", "contacts.plan.dot"),
    ])
    func printsTheCommittedPlan(format: String, snapshotName: String) throws {
        let run = try SyncrunProcess.run(["plan", "--config", contacts, "--format", format])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == (try snapshot(snapshotName)))
    }

    @Test func jsonPlanIsByteIdenticalAcrossRunsAndFormats() throws {
        let first = try SyncrunProcess.run(["plan", "--config", contacts, "--format", "json"])
        let second = try SyncrunProcess.run(["plan", "--config", contacts, "--format", "json"])
        let yaml = try SyncrunProcess.run(["plan", "--config", contactsYAML, "--format", "json"])
        #expect(first.status == 0 && second.status == 0 && yaml.status == 0)
        #expect(first.stdout == second.stdout)
        #expect(first.stdout == yaml.stdout)
    }

    @Test func onlyPullsInDependencies() throws {
        let run = try SyncrunProcess.run(["plan", "--config", contacts, "--format", "json", "--only", "contactsDown"])
        #expect(run.status == 0, "\(run.stderr)")
        let plan = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        )
        let steps = try #require(plan["steps"] as? [[String: Any]])
        let ids = steps.compactMap { $0["id"] as? String }
        #expect(ids.contains("syncDown:contactsDown"))
        #expect(ids.contains("syncUp:contactsUp"))
        #expect(ids.contains("syncDown:accountsDown"))
        #expect(ids.last == "syncDown:contactsDown")
    }

    @Test func unknownOnlyNameIsAUsageError() throws {
        let run = try SyncrunProcess.run(["plan", "--config", contacts, "--only", "contactDown"])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("'contactDown'"))
        #expect(run.stderr.contains("contactsDown"))
    }

    @Test func cycleExitsOneAndNamesEverySync() async throws {
        try await TemporaryDirectory.with { directory in
            let syncs = """
                {"syncs": [
                  {"syncName": "a", "syncType": "syncDown", "soupName": "s1", "dependsOn": ["b"],
                   "target": {"type": "soql", "query": "SELECT Id, LastModifiedDate FROM Account"},
                   "options": {"mergeMode": "OVERWRITE"}},
                  {"syncName": "b", "syncType": "syncDown", "soupName": "s2", "dependsOn": ["a"],
                   "target": {"type": "soql", "query": "SELECT Id, LastModifiedDate FROM Contact"},
                   "options": {"mergeMode": "OVERWRITE"}}
                ]}
                """
            try Data(syncs.utf8).write(to: directory.appendingPathComponent("usersyncs.json"))
            let run = try SyncrunProcess.run(["plan", "--format", "json"], in: directory)
            #expect(run.status == 1)
            #expect(run.stdout.isEmpty)
            #expect(run.stderr.contains("'a'"))
            #expect(run.stderr.contains("'b'"))
            #expect(run.stderr.contains("cycle"))
        }
    }

    @Test func missingConfigDirectoryIsAUsageError() throws {
        let run = try SyncrunProcess.run(["plan", "--config", "/nonexistent/syncrun-config"])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("error: "))
    }
}
