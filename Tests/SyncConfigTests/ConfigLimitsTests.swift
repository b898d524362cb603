import Foundation
import SyncConfig
import SyncrunTestSupport
import Testing

/// Hostile inputs end in one positioned diagnostic (the corpus holds the deep and alias-bomb
/// files); the cases too big to commit are generated here. Valid but unusual inputs load.
struct ConfigLimitsTests {
    @Test func aFileOver16MiBIsRefusedBeforeItIsRead() throws {
        let directory = try TemporaryDirectory(prefix: "syncconfig-large")
        defer { try? FileManager.default.removeItem(at: directory.url) }
        let url = directory.url.appendingPathComponent("usersyncs.json")
        var text = #"{"syncs": [], "padding": ""#
        text += String(repeating: "x", count: 17 * 1024 * 1024) + "\"}\n"
        try Data(text.utf8).write(to: url)
        let loaded = try ConfigLoader().load(ConfigFiles.locate(in: directory.url))
        #expect(loaded.diagnostics.map(\.code) == [.fileTooLarge])
        #expect(loaded.diagnostics.map { [$0.line, $0.column] } == [[1, 1]])
        #expect(loaded.diagnostics.first?.message == "the file is 17.0 MiB; config files are limited to 16 MiB")
    }

    @Test func aJSONFileOfMoreThan100000ValuesIsRefused() throws {
        let values = Array(repeating: "0", count: 100_000).joined(separator: ",")
        let loaded = try ConfigFixture.load(["usersyncs.json": "{\"syncs\": [\(values)]}"])
        #expect(ConfigFixture.summary(loaded) == ["1:200008: error: : too-many-nodes"])
    }

    @Test func aYAMLFileWhoseAliasesExpandPast16MiBIsRefused() throws {
        let long = String(repeating: "x", count: 1024 * 1024)
        let aliases = Array(repeating: "*big", count: 17).joined(separator: ", ")
        let loaded = try ConfigFixture.load(["usersyncs.yaml": "big: &big \(long)\nsyncs: [\(aliases)]\n"])
        #expect(loaded.diagnostics.map(\.code) == [.fileTooLarge])
    }

    @Test func nestingUpTo512LevelsIsAccepted() throws {
        // The root object is level 1: 511 arrays inside it reach the limit exactly.
        let json =
            "{\"x\": " + String(repeating: "[", count: 511) + String(repeating: "]", count: 511) + ", \"syncs\": []}"
        let loaded = try ConfigFixture.load(["usersyncs.json": json])
        #expect(!loaded.diagnostics.contains { $0.code == .tooDeep })
        let deeper = "{\"x\": " + String(repeating: "[", count: 512) + String(repeating: "]", count: 512) + "}"
        let refused = try ConfigFixture.load(["usersyncs.json": deeper])
        #expect(ConfigFixture.summary(refused) == ["1:518: error: : too-deep"])
    }

    @Test(arguments: ["usersyncs.json", "usersyncs.yaml"])
    func aByteOrderMarkAndCRLFLineEndsLoad(name: String) throws {
        let lines =
            name.hasSuffix(".json")
            ? [
                "{\"syncs\": [{\"syncName\": \"down\", \"syncType\": \"syncDown\", \"soupName\": \"accounts\",",
                " \"target\": {\"type\": \"soql\", \"query\": \"SELECT Id, LastModifiedDate FROM Account\"},",
                " \"options\": {\"mergeMode\": \"OVERWRITE\"}}]}",
            ]
            : [
                "syncs:", "  - syncName: down", "    syncType: syncDown", "    soupName: accounts",
                "    target: {type: soql, query: 'SELECT Id, LastModifiedDate FROM Account'}",
                "    options: {mergeMode: OVERWRITE}",
            ]
        let loaded = try ConfigFixture.load([name: "\u{FEFF}" + lines.joined(separator: "\r\n") + "\r\n"])
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics.map(\.description))")
        let sync = try #require(loaded.userSyncs?.syncs.first)
        #expect(sync.name == "down" && sync.soupName == "accounts")
        #expect(sync.options.mergeMode == .overwrite)
    }

    @Test func crlfLineEndsKeepPositions() throws {
        let loaded = try ConfigFixture.load(["usersyncs.json": "{\r\n  \"syncs\": [],\r\n  \"x\": tru\r\n}\r\n"])
        #expect(ConfigFixture.summary(loaded) == ["3:8: error: : syntax"])
    }

    @Test func yamlAnchorsAliasesAndMergeKeysLoad() throws {
        let loaded = try ConfigFixture.load([
            "usersyncs.yaml": """
            defaults: &defaults
              syncType: syncDown
              soupName: accounts
              options: &options {mergeMode: LEAVE_IF_CHANGED}
            syncs:
              - <<: *defaults
                syncName: first
                target: {type: soql, query: "SELECT Id, LastModifiedDate FROM Account"}
              - <<: [*defaults]
                syncName: second
                soupName: contacts
                target: {type: soql, query: "SELECT Id, LastModifiedDate FROM Contact"}
                options: *options
            """
        ])
        #expect(loaded.diagnostics.allSatisfy { $0.severity == .warning }, "\(loaded.diagnostics.map(\.description))")
        let syncs = try #require(loaded.userSyncs?.syncs)
        #expect(syncs.map(\.name) == ["first", "second"])
        #expect(syncs.map(\.soupName) == ["accounts", "contacts"])
        #expect(syncs.allSatisfy { $0.options.mergeMode == .leaveIfChanged })
    }
}
