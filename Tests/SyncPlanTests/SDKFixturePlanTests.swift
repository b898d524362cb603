import Foundation
import SyncConfig
import SyncPlan
import SyncrunTestSupport
import Testing

/// Every syncs config shipped with the Mobile SDK (in `Tests/Fixtures/sdk-configs`) plans,
/// and the plan honours the soup rule.
struct SDKFixturePlanTests {
    /// The SDK's syncs files (`…usersyncs.json`, `…globalsyncs.json`).
    static var syncsFiles: [URL] {
        let files =
            (try? FileManager.default.contentsOfDirectory(
                at: RepositoryPaths.sdkFixtures,
                includingPropertiesForKeys: nil
            )) ?? []
        return files.filter { $0.lastPathComponent.hasSuffix("syncs.json") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test func fixturesArePresent() {
        #expect(Self.syncsFiles.count >= 3, "no SDK syncs configs in \(RepositoryPaths.sdkFixtures.path)")
    }

    @Test(arguments: syncsFiles)
    func fixturePlans(file: URL) throws {
        let loaded = try ConfigLoader().load(ConfigFiles(userSyncs: file))
        let errors = loaded.diagnostics.filter(\.isError).map(\.description)
        #expect(errors.isEmpty, "\(file.lastPathComponent): \(errors)")
        let syncs = try #require(loaded.userSyncs)
        #expect(!syncs.syncs.isEmpty)

        let plan = try SyncPlan(planning: syncs)
        let cleanSteps = syncs.syncs.filter { $0.type == .syncDown && $0.options.cleanGhosts }.count
        #expect(plan.steps.count == syncs.syncs.count + cleanSteps)
        #expect(Set(plan.syncNames) == Set(syncs.syncs.map(\.name)))
        #expect(try SyncPlan(planning: syncs).rendered(as: .json) == plan.rendered(as: .json))

        // Every sync up touching a soup comes before every sync down touching it.
        for (downIndex, down) in plan.steps.enumerated() where down.kind == .syncDown {
            for (upIndex, up) in plan.steps.enumerated() where up.kind == .syncUp {
                if !Set(up.soups).isDisjoint(with: down.soups) {
                    #expect(upIndex < downIndex, "\(up.id) must run before \(down.id)")
                }
            }
        }
    }

    @Test func androidTestSyncsOrderSyncUpsFirst() throws {
        let file = RepositoryPaths.sdkFixtures.appendingPathComponent("android-test-MobileSyncTest-usersyncs.json")
        let syncs = try #require(try ConfigLoader().load(ConfigFiles(userSyncs: file)).userSyncs)
        let plan = try SyncPlan(planning: syncs)
        // All syncs write 'accounts' (the parent_children and briefcase ones 'contacts' too), so
        // the four sync ups come first, in config order, then the sync downs in config order.
        #expect(
            plan.syncNames == [
                "singleRecordSyncUp", "batchSyncUp", "collectionSyncUp", "parentChildrenSyncUp", "soqlSyncDown",
                "soqlSyncDownWithBatchSize", "soslSyncDown", "mruSyncDown", "refreshSyncDown", "layoutSyncDown",
                "metadataSyncDown", "parentChildrenSyncDown", "briefcaseSyncDown",
            ]
        )
    }
}
