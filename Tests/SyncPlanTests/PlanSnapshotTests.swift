import Foundation
import SyncConfig
import SyncPlan
import SyncrunTestSupport
import Testing

/// The plan of `examples/contacts` in every format, pinned by files in `Snapshots/`.
///
/// Re-record after an intended change with `SYNCRUN_RECORD_SNAPSHOTS=1 swift test --filter
/// PlanSnapshotTests`, then review the diff.
struct PlanSnapshotTests {
    private static let snapshots = RepositoryPaths.root.appendingPathComponent("Tests/SyncPlanTests/Snapshots")
    private static let isRecording = ProcessInfo.processInfo.environment["SYNCRUN_RECORD_SNAPSHOTS"] == "1"

    /// The file extension of each format's snapshot.
    private static func fileExtension(_ format: PlanFormat) -> String {
        switch format {
        case .text: "txt"
        case .json: "json"
        case .mermaid: "mmd"
        case .dot: "dot"
        }
    }

    /// Loads the syncs of an example directory, failing on any config error.
    static func loadSyncs(example: String) throws -> SyncsConfig {
        let directory = RepositoryPaths.examples.appendingPathComponent(example)
        let loaded = try ConfigLoader().load(ConfigFiles.locate(in: directory))
        let errors = loaded.diagnostics.filter(\.isError).map(\.description)
        #expect(errors.isEmpty, "config errors in examples/\(example): \(errors)")
        return try #require(loaded.userSyncs)
    }

    @Test(arguments: PlanFormat.allCases)
    func contactsExampleMatchesSnapshot(format: PlanFormat) throws {
        let plan = try SyncPlan(planning: Self.loadSyncs(example: "contacts"))
        let rendered = plan.rendered(as: format)
        let file = Self.snapshots.appendingPathComponent("contacts.plan.\(Self.fileExtension(format))")
        if Self.isRecording {
            try FileManager.default.createDirectory(at: Self.snapshots, withIntermediateDirectories: true)
            try Data(rendered.utf8).write(to: file)
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(rendered == expected, "\(file.lastPathComponent) differs; re-record with SYNCRUN_RECORD_SNAPSHOTS=1")
    }

    @Test func yamlExamplePlansLikeTheJSONOne() throws {
        let fromJSON = try SyncPlan(planning: Self.loadSyncs(example: "contacts"))
        let fromYAML = try SyncPlan(planning: Self.loadSyncs(example: "contacts-yaml"))
        #expect(fromYAML.rendered(as: .json) == fromJSON.rendered(as: .json))
    }

    @Test func contactsExampleOrder() throws {
        let plan = try SyncPlan(planning: Self.loadSyncs(example: "contacts"))
        #expect(
            plan.ids == [
                "syncUp:accountsUp", "syncDown:accountsDown", "cleanGhosts:accountsDown", "syncUp:contactsUp",
                "syncDown:contactsDown",
            ]
        )
        #expect(try plan.only(["contactsUp"]).ids == ["syncUp:accountsUp", "syncUp:contactsUp"])
    }
}
