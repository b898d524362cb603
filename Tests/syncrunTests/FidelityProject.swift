import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing

/// A throw-away project for the MobileSync fidelity tests (issue 19): a config directory with the
/// given `userstore.json` and `usersyncs.json`, an optional org schema file and data-tree seed,
/// the store in `.syncrun/store.db` and the local org in `org/`.
struct FidelityProject {
    let directory: URL
    let hasSchema: Bool
    let hasSeed: Bool

    var config: String { directory.path }
    var orgDirectory: URL { directory.appendingPathComponent("org") }
    var org: String { "local:" + orgDirectory.path }
    var schemaFile: String { directory.appendingPathComponent("schema.json").path }
    var seedPlan: String { directory.appendingPathComponent("data/plan.json").path }

    /// The soups `accounts` and `contacts`, indexed as the parent_children targets need.
    static let accountsAndContactsStore = """
        {"soups": [
          {"soupName": "accounts", "indexes": [{"path": "Id", "type": "string"}, {"path": "Name", "type": "string"},
            {"path": "__local__", "type": "string"}, {"path": "__sync_id__", "type": "integer"}]},
          {"soupName": "contacts", "indexes": [{"path": "Id", "type": "string"}, {"path": "AccountId", "type": "string"},
            {"path": "LastName", "type": "string"},
            {"path": "__local__", "type": "string"}, {"path": "__sync_id__", "type": "integer"}]}
        ]}
        """

    /// Runs `body` with a new project; `data` maps data-tree file names to their text (seeded in
    /// that order through `data/plan.json`, references saved and resolved).
    static func with<T>(
        store: String = accountsAndContactsStore,
        syncs: String,
        schema: String? = nil,
        data: [(file: String, object: String, text: String)] = [],
        _ body: (FidelityProject) async throws -> T
    ) async throws -> T {
        try await TemporaryDirectory.with(prefix: "syncrun-fidelity") { directory in
            try store.write(to: directory.appendingPathComponent("userstore.json"), atomically: true, encoding: .utf8)
            try syncs.write(to: directory.appendingPathComponent("usersyncs.json"), atomically: true, encoding: .utf8)
            if let schema {
                try schema.write(to: directory.appendingPathComponent("schema.json"), atomically: true, encoding: .utf8)
            }
            if !data.isEmpty {
                let dataDirectory = directory.appendingPathComponent("data")
                try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
                var plan: [[String: Any]] = []
                for entry in data {
                    try entry.text.write(
                        to: dataDirectory.appendingPathComponent(entry.file),
                        atomically: true,
                        encoding: .utf8
                    )
                    plan.append([
                        "sobject": entry.object, "saveRefs": true, "resolveRefs": true, "files": [entry.file],
                    ])
                }
                try JSONSerialization.data(withJSONObject: plan).write(
                    to: dataDirectory.appendingPathComponent("plan.json")
                )
            }
            let project = FidelityProject(directory: directory, hasSchema: schema != nil, hasSeed: !data.isEmpty)
            return try await body(project)
        }
    }

    /// The org options of every command that talks to the org.
    var orgArguments: [String] {
        ["--org", org] + (hasSchema ? ["--schema", schemaFile] : []) + (hasSeed ? ["--seed", seedPlan] : [])
    }

    /// `syncrun run` on the project, `--format json`.
    func run(_ extra: [String] = []) throws -> SyncrunProcess.Result {
        try SyncrunProcess.run(["run", "--config", config] + orgArguments + ["--format", "json"] + extra)
    }

    /// `syncrun run`, expecting every step to end `DONE`; returns its summary.
    @discardableResult
    func runDone(_ extra: [String] = []) throws -> RunSummary {
        let result = try run(extra)
        #expect(result.status == 0, "syncrun run: \(result.stderr)\n\(result.stdout)")
        let summary = try RunSummary(result)
        #expect(summary.status == "DONE", "\(summary.statuses)")
        return summary
    }

    /// `syncrun` with `arguments` followed by `--config`.
    func syncrun(_ arguments: [String], stdin: String? = nil) throws -> SyncrunProcess.Result {
        try SyncrunProcess.run(arguments + ["--config", config], stdin: stdin)
    }

    /// The stored state of every sync, by name (`syncrun status --format json`).
    func states() throws -> [String: [String: Any]] {
        let result = try syncrun(["status", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        var states: [String: [String: Any]] = [:]
        for state in array {
            if let name = state["name"] as? String { states[name] = state }
        }
        return states
    }

    /// The stored watermark of sync `name`.
    func maxTimeStamp(_ name: String) throws -> Int64? {
        (try states()[name]?["maxTimeStamp"] as? NSNumber)?.int64Value
    }

    /// The records a SOQL query returns from the project's org.
    func orgRecords(_ soql: String) throws -> [[String: Any]] {
        let result = try SyncrunProcess.run(["org", "query", "--data", orgDirectory.path, soql])
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    }

    /// The stored records of `soup` (`syncrun store export`), each as its document.
    func storeRecords(_ soup: String) throws -> [[String: Any]] {
        let result = try syncrun(["store", "export", soup])
        #expect(result.status == 0, "\(result.stderr)")
        let text = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        if let array = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] { return array }
        return try text.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// Works on the org's database directly (the org is not running: `syncrun` is not).
    func withOrg<T>(_ body: (OrgDatabase) throws -> T) throws -> T {
        try body(try OrgDatabase(directory: orgDirectory))
    }
}
