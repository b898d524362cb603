import Foundation
import LocalOrg
import SoupStore
import SyncConfig
import SyncEngine
import Testing

/// Ghost cleaning dry runs: server deletes, records another sync still claims, local changes.
struct GhostPreviewTests {
    @Test func previewCountsTheGhostsTheRunThenDeletes() async throws {
        try await EngineHarness.with(pageSize: 2) { harness in
            let energy = try harness.createAccounts(["E1", "E2", "E3", "E4"], industry: "Energy")
            let shared = try harness.createAccounts(["Shared E5"], industry: "Energy")
            let engine = harness.engine()
            let byIndustry = Definitions.soql("energy", query: "SELECT Name FROM Account WHERE Industry = 'Energy'")
            let byName = Definitions.soql("shared", query: "SELECT Name FROM Account WHERE Name LIKE 'Shared%'")
            _ = try await engine.syncDown(byIndustry)
            _ = try await engine.syncDown(byName)
            try harness.deleteAccount(energy[0])
            try harness.deleteAccount(energy[1])
            // Still returned by 'shared': kept.
            try harness.updateAccount(shared[0], fields: ["Industry": .string("Other")])
            // Changed locally: never a ghost.
            try harness.editLocally(energy[2], name: "E3 (edited here)")
            try harness.deleteAccount(energy[2])
            let baseline = try harness.dryRunBaseline()

            let preview = try await engine.preview(byIndustry, operation: .cleanGhosts)

            let requests = try harness.expectNothingWritten(since: baseline)
            #expect(requests.allSatisfy { $0.method == "GET" })
            #expect(preview.requests == requests.count)
            #expect(preview.fetched == 1)  // E4
            #expect(preview.local == SyncPreview.Changes(deleted: 2))
            #expect(preview.keptForOtherSyncs == 1)
            #expect(
                Set(preview.items.filter { $0.action == .delete }.compactMap(\.recordID)) == [energy[0], energy[1]]
            )
            #expect(preview.items.filter { $0.action == .skip }.map(\.recordID) == [shared[0]])
            #expect(preview.items.allSatisfy { $0.side == .local && $0.entryID != nil })

            let cleaned = try await engine.cleanGhosts(byIndustry)
            #expect(cleaned.deletedGhosts == preview.local.deleted)
            #expect(try harness.storedNames() == ["E3 (edited here)", "E4", "Shared E5"])
        }
    }

    @Test func neverRunSyncHasNoGhostsAndLeavesNoState() async throws {
        try await EngineHarness.with { harness in
            try harness.createAccounts(["A1"])
            let baseline = try harness.dryRunBaseline()
            let preview = try await harness.engine().preview(
                Definitions.soql("all", query: "SELECT Name FROM Account"),
                operation: .cleanGhosts
            )
            try harness.expectNothingWritten(since: baseline)
            #expect(preview.local == SyncPreview.Changes())
            #expect(preview.fetched == 1)
            #expect(try !harness.hasSoup(StoredSyncState.soupName))
        }
    }

    @Test func queriesWithLimitAreRefusedAsTheRunRefusesThem() async throws {
        try await EngineHarness.with { harness in
            let definition = Definitions.soql("top", query: "SELECT Name FROM Account LIMIT 10")
            let error = try await #require(throws: SyncEngineError.self) {
                try await harness.engine().preview(definition, operation: .cleanGhosts)
            }
            #expect(error.code == .ghostCleaningRefused)
            #expect(error.syncName == "top")
        }
    }
}
