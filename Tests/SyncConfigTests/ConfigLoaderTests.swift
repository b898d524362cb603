import Foundation
import SyncConfig
import SyncrunTestSupport
import Testing

/// Finding config files by name and loading them by scope.
struct ConfigLoaderTests {
    @Test func locateFindsEveryScopeAndPrefersJSON() async throws {
        try await TemporaryDirectory.with { directory in
            for name in ["userstore.yml", "usersyncs.json", "globalstore.json", "globalsyncs.yaml", "other.json"] {
                try Data(#"{"soups": [], "syncs": []}"#.utf8).write(to: directory.appendingPathComponent(name))
            }
            let files = ConfigFiles.locate(in: directory)
            #expect(files.userStore?.lastPathComponent == "userstore.yml")
            #expect(files.userSyncs?.lastPathComponent == "usersyncs.json")
            #expect(files.globalStore?.lastPathComponent == "globalstore.json")
            #expect(files.globalSyncs?.lastPathComponent == "globalsyncs.yaml")
            #expect(files.diagnostics.isEmpty)
            #expect(ConfigFiles.locate(in: directory.appendingPathComponent("missing")).isEmpty)
        }
    }

    @Test func globalSyncsAreCheckedAgainstTheGlobalStore() throws {
        let loaded = try ConfigFixture.load([
            "userstore.json": #"{"soups": [{"soupName": "user", "indexes": [{"path": "Id", "type": "string"}]}]}"#,
            "globalstore.json": #"{"soups": [{"soupName": "global", "indexes": [{"path": "Id", "type": "string"}]}]}"#,
            "globalsyncs.json": """
            {"syncs": [{"syncName": "g", "syncType": "syncUp", "soupName": "user", "target": {},
                        "options": {"mergeMode": "OVERWRITE"}}]}
            """,
        ])
        #expect(
            loaded.diagnostics.map(\.description) == [
                "globalsyncs.json:1:64: error: syncs[0].soupName: soup 'user' is not declared in 'globalstore.json'; add it to 'soups' there"
            ]
        )
        #expect(
            loaded.files.map { URL(fileURLWithPath: $0).lastPathComponent } == [
                "userstore.json", "globalstore.json", "globalsyncs.json",
            ]
        )
        #expect(loaded.userSyncs == nil)
        #expect(loaded.globalStore?.soups.map(\.name) == ["global"])
    }

    @Test func unreadableFilesThrow() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/usersyncs.json")
        #expect {
            try ConfigLoader().load(storeConfig: nil, syncsConfig: missing)
        } throws: { error in
            guard let error = error as? SyncConfigError else { return false }
            return error.code == .unreadableFile
                && error.message
                    == "cannot read the config file '/nonexistent/usersyncs.json'; check that it exists and is readable"
        }
    }

    @Test func badContentNeverThrows() throws {
        let loaded = try ConfigFixture.load(["userstore.json": "\u{0}\u{1}not json", "usersyncs.yaml": "- [unclosed"])
        // A NUL byte makes the file binary data, not a config (issue 27).
        #expect(loaded.diagnostics.map(\.code) == [.notAConfig, .syntax])
        #expect(loaded.userStore == nil)
        #expect(loaded.userSyncs == nil)
    }
}
