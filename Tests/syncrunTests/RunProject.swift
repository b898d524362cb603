import Foundation
import SyncrunTestSupport
import Testing

/// A copy of `examples/contacts` in a temporary directory, with its local org, for `syncrun run`
/// tests: the config, `.syncrun/store.db` and the org in `.syncrun/org`.
struct RunProject {
    let directory: URL

    var config: String { directory.path }
    var orgDirectory: String { directory.appendingPathComponent(".syncrun/org").path }
    var org: String { "local:" + orgDirectory }
    var seedPlan: String { directory.appendingPathComponent("data/plan.json").path }
    var storeFile: URL { directory.appendingPathComponent(".syncrun/store.db") }

    /// Runs `body` with a fresh copy of the example (no store, no org yet).
    static func with<T>(_ body: (RunProject) async throws -> T) async throws -> T {
        try await TemporaryDirectory.with { directory in
            let project = directory.appendingPathComponent("contacts")
            try FileManager.default.copyItem(
                at: RepositoryPaths.examples.appendingPathComponent("contacts"),
                to: project
            )
            try? FileManager.default.removeItem(at: project.appendingPathComponent(".syncrun"))
            return try await body(RunProject(directory: project))
        }
    }

    /// `syncrun run` on the project's org, seeding it first when new, with `--format json`.
    func run(_ extra: [String] = []) throws -> SyncrunProcess.Result {
        try SyncrunProcess.run(
            ["run", "--config", config, "--org", org, "--seed", seedPlan, "--format", "json"] + extra
        )
    }

    /// `syncrun` with `arguments` followed by `--config` (for store commands).
    @discardableResult
    func syncrun(_ arguments: [String], stdin: String? = nil) throws -> SyncrunProcess.Result {
        let result = try SyncrunProcess.run(arguments + ["--config", config], stdin: stdin)
        #expect(result.status == 0, "syncrun \(arguments.joined(separator: " ")): \(result.stderr)")
        return result
    }

    /// The records a SOQL query returns from the project's org.
    func orgRecords(_ soql: String) throws -> [[String: Any]] {
        let result = try SyncrunProcess.run(["org", "query", "--data", orgDirectory, soql])
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    }

    /// The rows of a Smart SQL query on the project's store.
    func storeRows(_ smartSQL: String) throws -> [[Any]] {
        let result = try syncrun(["store", "query", "--format", "json", smartSQL])
        if let array = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[Any]] { return array }
        return try result.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [Any])
        }
    }

    /// Replaces `old` by `new` in the project's usersyncs.json.
    func editSyncs(replacing old: String, with new: String) throws {
        let url = directory.appendingPathComponent("usersyncs.json")
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains(old))
        try text.replacingOccurrences(of: old, with: new).write(to: url, atomically: true, encoding: .utf8)
    }
}

/// The final summary object of a `syncrun run --format json`.
struct RunSummary {
    let status: String
    let steps: [[String: Any]]

    init(_ result: SyncrunProcess.Result) throws {
        let last = try #require(result.stdout.split(separator: "\n").last, "no output; stderr: \(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        #expect(object["event"] as? String == "summary")
        status = try #require(object["status"] as? String)
        steps = try #require(object["steps"] as? [[String: Any]])
    }

    /// The step with this id.
    func step(_ id: String) throws -> [String: Any] {
        try #require(steps.first { $0["step"] as? String == id }, "no step \(id) in \(steps)")
    }

    /// `key` of step `id` as an Int.
    func count(_ key: String, of id: String) throws -> Int? {
        try step(id)[key] as? Int
    }

    /// Each step's status, in plan order.
    var statuses: [String] { steps.map { "\($0["step"] as? String ?? "?")=\($0["status"] as? String ?? "?")" } }
}
