import Foundation
import SyncConfig
import SyncrunTestSupport
import Testing

/// The real SDK configs in `Tests/Fixtures/sdk-configs` load with no errors.
struct SDKFixtureTests {
    static var fixtureNames: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: RepositoryPaths.sdkFixtures.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }

    @Test func fixturesArePresent() {
        #expect(Self.fixtureNames.count >= 6)
    }

    @Test(arguments: fixtureNames)
    func fixtureLoadsWithoutErrors(_ name: String) throws {
        let url = RepositoryPaths.sdkFixtures.appendingPathComponent(name)
        let isStore = name.hasSuffix("store.json")
        let loaded = try ConfigLoader().load(
            storeConfig: isStore ? url : nil,
            syncsConfig: isStore ? nil : url
        )
        #expect(!loaded.hasErrors, "\(loaded.diagnostics.map(\.description))")
        if isStore {
            #expect(loaded.userStore?.soups.isEmpty == false)
        } else {
            #expect(loaded.userSyncs?.syncs.isEmpty == false)
        }
    }

    @Test func explorerPairValidatesTogether() throws {
        let loaded = try ConfigLoader().load(
            storeConfig: RepositoryPaths.sdkFixtures.appendingPathComponent("explorer-userstore.json"),
            syncsConfig: RepositoryPaths.sdkFixtures.appendingPathComponent("explorer-usersyncs.json")
        )
        #expect(!loaded.hasErrors)
        // The explorer's query selects neither Id nor LastModifiedDate: two warnings, no more.
        #expect(loaded.diagnostics.map(\.code) == [.soqlMissingIDField, .soqlMissingModificationDateField])
        #expect(loaded.diagnostics.allSatisfy { $0.line == 7 && $0.column == 42 })
        #expect(loaded.userSyncs?.syncs.map(\.name) == ["syncDownContacts", "syncUpContacts"])
        #expect(loaded.userStore?.soups.first?.indexes.count == 7)
    }

    @Test func mobileSyncTestCoversEveryTargetKind() throws {
        let url = RepositoryPaths.sdkFixtures.appendingPathComponent("android-test-MobileSyncTest-usersyncs.json")
        let loaded = try ConfigLoader().load(storeConfig: nil, syncsConfig: url)
        let syncs = try #require(loaded.userSyncs?.syncs)
        var downKinds: [SyncDownTargetKind] = []
        var upKinds: [SyncUpTargetKind] = []
        for sync in syncs {
            switch sync.target {
            case .down(let target): downKinds.append(target.kind)
            case .up(let target): upKinds.append(target.kind)
            }
        }
        #expect(downKinds == [.soql, .soql, .sosl, .mru, .refresh, .layout, .metadata, .parentChildren, .briefcase])
        #expect(upKinds == [.single, .batch, .collection, .parentChildren])
        // Every sync loads without a diagnostic, the layout sync included (syncrun runs it).
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
    }

    static var exampleDirectories: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: RepositoryPaths.examples.path)) ?? []
        return names.filter { name in
            !ConfigFiles.locate(in: RepositoryPaths.examples.appendingPathComponent(name)).isEmpty
        }.sorted()
    }

    @Test(arguments: exampleDirectories)
    func exampleValidatesWithoutDiagnostics(_ name: String) throws {
        let files = ConfigFiles.locate(in: RepositoryPaths.examples.appendingPathComponent(name))
        // examples/custom-targets names plug-ins that its own executable registers.
        let registry =
            name == "custom-targets"
            ? TargetImplRegistry(
                customSyncDownImplNames: [
                    "OwnedContactsSyncDownTarget", "com.example.sync.OwnedContactsSyncDownTarget",
                ],
                customSyncUpImplNames: ["CheckedContactSyncUpTarget", "com.example.sync.CheckedContactSyncUpTarget"]
            ) : TargetImplRegistry()
        let loaded = try ConfigLoader(registry: registry).load(files)
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics.map(\.description))")
        #expect(!loaded.allSyncs.isEmpty)
        if name == "custom-targets" {
            // Without the plug-ins (the stock syncrun), each class name is reported where it stands.
            let stock = try ConfigLoader().load(files)
            #expect(stock.diagnostics.map(\.code) == Array(repeating: .unregisteredCustomTarget, count: 4))
        }
    }
}
