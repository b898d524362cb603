import Foundation
import LocalOrg
import SoupStore
import SyncConfig
import SyncEngine
import SyncLedger
import Testing

/// Sync down dry runs: counts against what the real run then does, watermark, merge modes, and
/// nothing written anywhere.
struct SyncDownPreviewTests {
    @Test func firstRunPreviewWritesNothingAndMatchesTheRun() async throws {
        try await EngineHarness.with(pageSize: 2) { harness in
            let ids = try harness.createAccounts(["A1", "A2", "A3", "A4", "A5"], secondsApart: 1)
            let engine = harness.engine()
            let definition = Definitions.soql("all", query: "SELECT Name FROM Account")
            let baseline = try harness.dryRunBaseline()

            let preview = try await engine.preview(definition, operation: .syncDown)

            let requests = try harness.expectNothingWritten(since: baseline)
            #expect(requests.allSatisfy { $0.method == "GET" })
            #expect(preview.requests == requests.count)
            #expect(preview.requests == 3)  // 5 records, pages of 2
            #expect(try !harness.hasSoup(StoredSyncState.soupName))  // no state for a sync that never ran
            #expect(preview.syncID == nil)
            #expect(!preview.isIncremental)
            #expect(preview.maxTimeStamp == -1)
            #expect(preview.local == SyncPreview.Changes(created: 5))
            #expect(preview.org == SyncPreview.Changes())
            #expect(preview.fetched == 5)
            #expect(preview.pages == 3)
            #expect(preview.items.map(\.recordID) == ids)
            #expect(preview.items.allSatisfy { $0.side == .local && $0.action == .create && $0.entryID == nil })
            #expect(!preview.itemsTruncated)

            let summary = try await engine.syncDown(definition)
            #expect(summary.fetched == preview.fetched)
            #expect(summary.saved == preview.local.created + preview.local.updated)
            #expect(summary.pages == preview.pages)
            #expect(try harness.storedCount() == 5)
        }
    }

    @Test func incrementalPreviewStartsFromTheWatermarkAndMatchesTheResync() async throws {
        try await EngineHarness.with(pageSize: 2) { harness in
            let ids = try harness.createAccounts(["A1", "A2", "A3", "A4"], secondsApart: 1)
            let engine = harness.engine()
            let definition = Definitions.soql("all", query: "SELECT Name FROM Account")
            let first = try await engine.syncDown(definition)
            harness.clock.advance(seconds: 10)
            try harness.updateAccount(ids[0], fields: ["Name": .string("A1 renamed")])
            try harness.updateAccount(ids[2], fields: ["Name": .string("A3 renamed")])
            let created = try harness.createAccounts(["B1"])
            let storedBefore = try harness.storedCount()
            let baseline = try harness.dryRunBaseline()

            let preview = try await engine.preview(definition, operation: .syncDown)

            let requests = try harness.expectNothingWritten(since: baseline)
            #expect(requests.allSatisfy { $0.method == "GET" })
            // The resync query (later pages follow its locator).
            let query = requests.first?.path.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
            #expect(query?.contains("LastModifiedDate >= ") == true)
            #expect(preview.isIncremental)
            #expect(preview.maxTimeStamp == first.maxTimeStamp)
            #expect(preview.syncID == first.syncID)
            #expect(preview.local.created == 1)
            #expect(
                preview.items.contains(
                    SyncPreview.Item(side: .local, action: .create, recordID: created[0], entryID: nil)
                )
            )
            let updatedIDs = preview.items.filter { $0.action == .update }.compactMap(\.recordID)
            #expect(Set(updatedIDs).isSuperset(of: [ids[0], ids[2]]))
            #expect(preview.items.filter { $0.action == .update }.allSatisfy { $0.entryID != nil })

            let resync = try await engine.syncDown(definition)
            #expect(resync.fetched == preview.fetched)
            #expect(resync.saved == preview.local.created + preview.local.updated)
            #expect(try harness.storedCount() - storedBefore == preview.local.created)

            // `full` ignores the watermark, as the run does.
            let full = try await engine.preview(definition, operation: .syncDown, full: true)
            #expect(!full.isIncremental)
            // Everything was just synced: the five records come again exactly as stored.
            #expect(full.local == SyncPreview.Changes())
            #expect(full.fetched == 5)
        }
    }

    @Test func leaveIfChangedSkipsAreCounted() async throws {
        try await EngineHarness.with { harness in
            let ids = try harness.createAccounts(["A1", "A2", "A3"])
            let engine = harness.engine()
            let definition = Definitions.soql("all", query: "SELECT Name FROM Account", mergeMode: .leaveIfChanged)
            _ = try await engine.syncDown(definition)
            try harness.editLocally(ids[1], name: "A2 (edited here)")
            let baseline = try harness.dryRunBaseline()

            let preview = try await engine.preview(definition, operation: .syncDown, full: true)

            try harness.expectNothingWritten(since: baseline)
            #expect(preview.skippedLocallyChanged == 1)
            // The two clean records come exactly as stored: nothing to write.
            #expect(preview.local == SyncPreview.Changes())
            #expect(preview.fetched == 3)
            let skipped = try #require(preview.items.first { $0.action == .skip })
            #expect(skipped.recordID == ids[1])
            #expect(skipped.side == .local)
            #expect(skipped.entryID != nil)

            let summary = try await engine.syncDown(definition, full: true)
            #expect(summary.skippedLocallyChanged == preview.skippedLocallyChanged)
            #expect(summary.saved == preview.local.updated)
            #expect(summary.unchanged == 2)
            #expect(try harness.storedNames() == ["A1", "A2 (edited here)", "A3"])
        }
    }

    @Test func soupNotRegisteredYetCountsEverythingAsCreated() async throws {
        try await EngineHarness.with { harness in
            try harness.createAccounts(["A1", "A2"])
            let definition = Definitions.soql("later", query: "SELECT Name FROM Account", soup: "prospects")
            let baseline = try harness.dryRunBaseline()

            let preview = try await harness.engine().preview(definition, operation: .syncDown)

            try harness.expectNothingWritten(since: baseline)
            #expect(preview.local == SyncPreview.Changes(created: 2))
            #expect(try !harness.hasSoup("prospects"))
        }
    }

    @Test func itemsAreCappedAndTheTruncationNoted() async throws {
        try await EngineHarness.with(pageSize: 200) { harness in
            let names = (1...(SyncPreview.itemLimit + 7)).map { "Account \($0)" }
            try harness.createAccounts(names)
            let preview = try await harness.engine().preview(
                Definitions.soql("all", query: "SELECT Name FROM Account"),
                operation: .syncDown
            )
            #expect(preview.local.created == names.count)
            #expect(preview.items.count == SyncPreview.itemLimit)
            #expect(preview.itemsTruncated)
        }
    }

    @Test func changedDefinitionIsRefusedUnlessReplaced() async throws {
        try await EngineHarness.with { harness in
            try harness.createAccounts(["A1"])
            let engine = harness.engine()
            _ = try await engine.syncDown(Definitions.soql("all", query: "SELECT Name FROM Account"))
            let changed = Definitions.soql("all", query: "SELECT Name, Industry FROM Account")
            let baseline = try harness.dryRunBaseline()

            let error = try await #require(throws: SyncEngineError.self) {
                try await engine.preview(changed, operation: .syncDown)
            }
            #expect(error.code == .definitionChanged)
            #expect(error.syncName == "all")

            let replaced = try await engine.preview(changed, operation: .syncDown, replace: true)
            #expect(!replaced.isIncremental)
            #expect(replaced.local == SyncPreview.Changes(updated: 1))
            try harness.expectNothingWritten(since: baseline)
        }
    }

    @Test func targetsTheRunRefusesAreErrors() async throws {
        try await EngineHarness.with { harness in
            let engine = harness.engine()
            // The children's soup is not registered: the run refuses the target, so does the preview.
            let tree = Definitions.accountsWithContacts("tree")
            let error = try await #require(throws: SyncEngineError.self) {
                try await engine.preview(tree, operation: .syncDown)
            }
            let runError = try await #require(throws: SyncEngineError.self) {
                try await engine.syncDown(tree)
            }
            #expect(error.code == .invalidTarget)
            #expect(error.message == runError.message)
            #expect(error.message.contains("children soup 'contacts' does not exist"))

            let up = UpDefinitions.accounts()
            let wrong = try await #require(throws: SyncEngineError.self) {
                try await engine.preview(up, operation: .syncDown)
            }
            #expect(wrong.code == .wrongType)
            #expect(wrong.syncName == "up")

            let stop = StopSignal()
            stop.requestStop()
            let stopped = try await #require(throws: SyncEngineError.self) {
                try await engine.preview(
                    Definitions.soql("all", query: "SELECT Name FROM Account"),
                    operation: .syncDown,
                    stop: stop
                )
            }
            #expect(stopped.code == .stopped)
        }
    }

    @Test func syncHeldByALiveRunIsRefusedAsTheRunWouldBe() async throws {
        try await EngineHarness.with { harness in
            try harness.createAccounts(["A1"])
            let engine = harness.engine()
            let definition = Definitions.soql("all", query: "SELECT Name FROM Account")
            let state = try engine.prepare(definition)
            let configuration = engine.configuration
            try await harness.store.write { writer in
                try writer.acquireSyncLock(
                    SyncLock(
                        syncID: state.id,
                        processID: configuration.processID,
                        hostName: configuration.hostName,
                        token: "other run",
                        operation: "syncDown",
                        claimedAt: 0
                    )
                )
            }
            let error = try await #require(throws: SyncEngineError.self) {
                try await engine.preview(definition, operation: .syncDown)
            }
            #expect(error.code == .alreadyRunning)
            #expect(error.syncName == "all")
        }
    }
}
