import Foundation
import LocalOrg
import OrgClient
import SoupStore
import SyncConfig
import SyncEngine
import Testing

/// The sosl, mru and refresh targets end to end against the local org.
struct OtherTargetTests {
    @Test func soslSyncSavesTheSearchResults() async throws {
        try await EngineHarness.with { harness in
            try harness.createAccounts(["Acme North", "Acme South", "Globex"])
            let definition = SyncDefinition(
                name: "search",
                type: .syncDown,
                soupName: "accounts",
                target: .down(
                    .sosl(
                        SOSLSyncDownTarget(
                            query: "FIND {Acme} IN NAME FIELDS RETURNING Account(Id, Name, LastModifiedDate)"
                        )
                    )
                )
            )
            let summary = try await harness.engine().syncDown(definition)
            #expect(summary.status == .done, "\(summary.error ?? "")")
            #expect(try harness.storedNames() == ["Acme North", "Acme South"])
            let state = try harness.engine().syncState(id: summary.syncID)
            #expect(state.totalSize == 2 && state.maxTimeStamp > 0)
        }
    }

    @Test func metadataSyncStoresTheDescribeUnderTheTypeAndKeepsItThroughGhostCleaning() async throws {
        try await EngineHarness.with { harness in
            try await harness.store.write { writer in
                _ = try writer.registerSoup(
                    SoupSpec(name: "sfdcMetadata", indexes: [IndexSpec(path: "Id", type: .string)])
                )
            }
            let definition = SyncDefinition(
                name: "accountMetadata",
                type: .syncDown,
                soupName: "sfdcMetadata",
                target: .down(.metadata(MetadataSyncDownTarget(sobjectType: "Account")))
            )
            let engine = harness.engine()

            let first = try await engine.syncDown(definition)
            #expect(first.status == .done, "\(first.error ?? "")")
            #expect(first.fetched == 1 && first.created == 1)
            #expect(try harness.storedCount(in: "sfdcMetadata") == 1)
            #expect(try harness.storedValue("name", ofID: "Account", in: "sfdcMetadata") == .text("Account"))
            #expect(try harness.storedValue("keyPrefix", ofID: "Account", in: "sfdcMetadata") == .text("001"))
            let log = try harness.requestLog()
            #expect(log.last?.path.hasSuffix("/sobjects/Account/describe") == true)
            #expect(try harness.engine().syncState(id: first.syncID).totalSize == 1)

            let second = try await engine.syncDown(definition)
            // Sent again exactly as stored: unchanged, not updated (issue 31 item 2).
            #expect(second.status == .done && second.updated == 0 && second.unchanged == 1 && second.created == 0)
            #expect(try harness.storedCount(in: "sfdcMetadata") == 1)

            let ghosts = try await engine.cleanGhosts(definition)
            #expect(ghosts.status == .done && ghosts.deletedGhosts == 0)
            #expect(try harness.storedCount(in: "sfdcMetadata") == 1)
        }
    }

    @Test func mruSyncSavesRecentlyViewedRecordsAndCleansServerDeletes() async throws {
        try await EngineHarness.with { harness in
            let ids = try harness.createAccounts(["Viewed 1", "Viewed 2", "Never viewed"])
            for id in ids.prefix(2) { _ = try await harness.org.retrieve("Account", id: id, fields: ["Name"]) }
            let definition = SyncDefinition(
                name: "recent",
                type: .syncDown,
                soupName: "accounts",
                target: .down(.mru(MRUSyncDownTarget(sobjectType: "Account", fieldlist: ["Name"])))
            )
            let engine = harness.engine()
            let summary = try await engine.syncDown(definition)
            #expect(summary.status == .done, "\(summary.error ?? "")")
            #expect(try harness.storedNames().contains("Viewed 1"))
            #expect(try harness.storedNames().contains("Viewed 2"))

            try harness.deleteAccount(ids[0])
            let cleaned = try await engine.cleanGhosts(definition)
            #expect(cleaned.status == .done)
            #expect(cleaned.deletedGhosts == 1)
            #expect(!(try harness.storedNames().contains("Viewed 1")))
        }
    }

    @Test func refreshSyncReReadsTheRecordsOfTheSoup() async throws {
        try await EngineHarness.with { harness in
            let ids = try harness.createAccounts(["Fresh 1", "Fresh 2", "Fresh 3"], industry: "Energy")
            try await harness.store.write { writer in
                for id in ids.prefix(2) {
                    _ = try writer.upsert(
                        #"{"Id": "\#(id)", "__local__": false}"#,
                        into: "accounts",
                        byExternalIDPath: "Id"
                    )
                }
                _ = try writer.upsert(#"{"Id": "local_1", "Name": "Made here", "__local__": true}"#, into: "accounts")
            }
            let definition = SyncDefinition(
                name: "refresh",
                type: .syncDown,
                soupName: "accounts",
                target: .down(
                    .refresh(
                        RefreshSyncDownTarget(
                            sobjectType: "Account",
                            fieldlist: ["Name", "Industry"],
                            soupName: "accounts",
                            countIdsPerSoql: 1
                        )
                    )
                )
            )
            let engine = harness.engine()
            let summary = try await engine.syncDown(definition)
            #expect(summary.status == .done, "\(summary.error ?? "")")
            #expect(summary.fetched == 2)
            #expect(try harness.storedNames() == ["Fresh 1", "Fresh 2", "Made here"])
            #expect(try harness.storedValue("Industry", ofID: ids[0]) == .text("Energy"))

            // Resync: only records changed since their local copy come back.
            harness.clock.advance(seconds: 10)
            try harness.updateAccount(ids[1], fields: ["Name": .string("Fresh 2 (changed)")])
            let again = try await engine.syncDown(definition)
            #expect(again.status == .done)
            #expect(try harness.storedNames() == ["Fresh 1", "Fresh 2 (changed)", "Made here"])
            #expect(again.fetched == 2)  // the changed one, and the other at its own local watermark
        }
    }
}
