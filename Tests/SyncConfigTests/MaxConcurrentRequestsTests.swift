import JSONCore
import SyncConfig
import Testing

/// `options.maxConcurrentRequests`: decoded, defaulted, clamped, suggested when misspelt, persisted.
struct MaxConcurrentRequestsTests {
    private func syncs(_ options: String) throws -> (LoadedConfig, [SyncDefinition]) {
        let loaded = try ConfigFixture.load([
            "usersyncs.json": """
            {"syncs": [{"syncName": "up", "syncType": "syncUp", "soupName": "a", "target": {},
              "options": \(options)}]}
            """
        ])
        return (loaded, loaded.userSyncs?.syncs ?? [])
    }

    @Test func absentIsFour() throws {
        let (loaded, syncs) = try syncs(#"{"mergeMode": "OVERWRITE"}"#)
        #expect(loaded.diagnostics.isEmpty)
        #expect(syncs.first?.options.maxConcurrentRequests == 4)
        // The default is not persisted: stores written before the key existed see no change.
        #expect(syncs.first?.normalizedOptionsJSON.objectValue?["maxConcurrentRequests"] == nil)
    }

    @Test func aValueIsDecodedAndPersisted() throws {
        let (loaded, syncs) = try syncs(#"{"mergeMode": "OVERWRITE", "maxConcurrentRequests": 8}"#)
        #expect(loaded.diagnostics.isEmpty)
        #expect(syncs.first?.options.maxConcurrentRequests == 8)
        #expect(syncs.first?.normalizedOptionsJSON.objectValue?["maxConcurrentRequests"] == .integer(8))
        #expect(syncs.first?.options.extraKeys.isEmpty == true)
    }

    @Test(arguments: [(0, 1), (-3, 1), (100, 25)])
    func outOfRangeValuesAreClampedWithAWarning(value: Int, used: Int) throws {
        let (loaded, syncs) = try syncs(#"{"mergeMode": "OVERWRITE", "maxConcurrentRequests": \#(value)}"#)
        #expect(syncs.first?.options.maxConcurrentRequests == used)
        #expect(loaded.diagnostics.map(\.code) == [.valueClamped])
        #expect(loaded.diagnostics.first?.path == "syncs[0].options.maxConcurrentRequests")
        #expect(loaded.diagnostics.first?.message.contains("using \(used)") == true)
    }

    @Test func aStringIsAnError() throws {
        let (loaded, syncs) = try syncs(#"{"mergeMode": "OVERWRITE", "maxConcurrentRequests": "4"}"#)
        #expect(syncs.isEmpty)
        #expect(loaded.hasErrors)
        #expect(loaded.diagnostics.first?.path == "syncs[0].options.maxConcurrentRequests")
    }

    @Test func aMisspeltKeyIsSuggested() throws {
        let (loaded, syncs) = try syncs(#"{"mergeMode": "OVERWRITE", "maxConcurentRequests": 2}"#)
        #expect(syncs.first?.options.maxConcurrentRequests == 4)
        let unknown = try #require(loaded.diagnostics.first { $0.code == .unknownKey })
        #expect(unknown.message.contains("did you mean 'maxConcurrentRequests'?"))
    }
}
