import Foundation
import SyncConfig
import Testing

/// The `api` and `bulkThreshold` target keys (issue 17).
struct BulkKeysTests {
    private static func syncs(_ target: String, type: String = "syncDown") -> String {
        """
        {"syncs": [{"syncName": "s", "syncType": "\(type)", "soupName": "accounts",
          "target": \(target), "options": {"mergeMode": "OVERWRITE"}}]}
        """
    }

    @Test func soqlTargetsReadApiAndBulkThreshold() throws {
        let loaded = try ConfigFixture.load([
            "usersyncs.json": Self.syncs(
                #"{"type": "soql", "query": "SELECT Id, LastModifiedDate FROM Account", "api": "bulk", "bulkThreshold": 500}"#
            )
        ])
        #expect(loaded.diagnostics.isEmpty)
        guard case .down(.soql(let target)) = try #require(loaded.allSyncs.first).target else {
            Issue.record("not a soql target")
            return
        }
        #expect(target.api == .bulk && target.bulkThreshold == 500)
        #expect(target.apiRule == "Bulk API 2.0")
        let normalized = try #require(loaded.allSyncs.first).normalizedTargetJSON.jsonText()
        #expect(normalized.contains(#""api":"bulk""#) && normalized.contains(#""bulkThreshold":500"#))
    }

    @Test func defaultsAreAutoAndTenThousandAndAreNotPersisted() throws {
        let loaded = try ConfigFixture.load([
            "usersyncs.json": Self.syncs(#"{"type": "soql", "query": "SELECT Id, LastModifiedDate FROM Account"}"#)
        ])
        let sync = try #require(loaded.allSyncs.first)
        guard case .down(.soql(let target)) = sync.target else {
            Issue.record("not a soql target")
            return
        }
        #expect(target.api == .auto && target.bulkThreshold == 10_000)
        #expect(target.apiRule == "REST below 10000 records, Bulk API 2.0 at or above")
        #expect(!sync.normalizedTargetJSON.jsonText().contains("api"))
    }

    @Test func bulkOnAQueryBulkCannotRunIsAPositionedWarning() throws {
        let loaded = try ConfigFixture.load([
            "usersyncs.json": Self.syncs(
                #"{"type": "soql", "query": "SELECT Id, LastModifiedDate, (SELECT Id FROM Contacts) FROM Account", "api": "bulk"}"#
            )
        ])
        #expect(ConfigFixture.summary(loaded) == ["2:117: warning: syncs[0].target.api: bulk-not-possible"])
        #expect(loaded.diagnostics.first?.message.contains("a parent-to-child sub-query") == true)
        guard case .down(.soql(let target)) = try #require(loaded.allSyncs.first).target else { return }
        #expect(target.apiRule == "REST (Bulk API 2.0 cannot run a query with a parent-to-child sub-query)")
    }

    @Test func anUnknownApiIsAnErrorWithASuggestionAndABadThresholdIsClamped() throws {
        let loaded = try ConfigFixture.load([
            "usersyncs.json": Self.syncs(
                #"{"type": "soql", "query": "SELECT Id FROM Account", "api": "Bulk", "bulkThreshold": 0}"#
            )
        ])
        let codes = loaded.diagnostics.map(\.code)
        #expect(codes.contains(.unknownAPI) && codes.contains(.valueClamped))
        let message = try #require(loaded.diagnostics.first { $0.code == .unknownAPI }?.message)
        #expect(message.contains("did you mean 'bulk'?"))
    }

    @Test func syncUpTargetsReadTheKeysToo() throws {
        let loaded = try ConfigFixture.load([
            "usersyncs.json": Self.syncs(#"{"type": "collection", "api": "rest", "bulkThreshold": 20}"#, type: "syncUp")
        ])
        #expect(loaded.diagnostics.isEmpty)
        guard case .up(let target) = try #require(loaded.allSyncs.first).target else { return }
        #expect(target.api == .rest && target.bulkThreshold == 20)
    }
}
