import Foundation
import LocalOrg
import OrgClient
import SoupStore
import SyncConfig
import SyncEngine
import Testing

/// Sync up dry runs: every kind of dirty record, the conflict check, and the counts of the real
/// run that follows.
struct SyncUpPreviewTests {
    /// Local changes of every kind on four synced-down accounts; returns the ids by role.
    private func makeLocalChanges(_ harness: EngineHarness) async throws -> (
        updated: String, deleted: String, conflicted: String, goneOnServer: String, created: [Int64], dropped: Int64
    ) {
        let ids = try harness.createAccounts(["Updated", "Deleted", "Conflicted", "Gone"])
        try await harness.syncDownAccounts()
        try harness.changeLocally(ids[0], ["Name": "Updated here"])
        try harness.changeLocally(ids[1], [:], flag: "__locally_deleted__")
        try harness.changeLocally(ids[2], ["Name": "Conflicted here"])
        try harness.updateAccount(ids[2], fields: ["Name": .string("Conflicted on the server")])
        try harness.changeLocally(ids[3], [:], flag: "__locally_deleted__")
        try harness.deleteAccount(ids[3])
        let created = [
            try harness.createLocally(["Name": "New 1"]),
            try harness.createLocally(["Name": "New 2"]),
        ]
        let dropped = try harness.createLocally(["Name": "Never sent", "__locally_deleted__": true])
        return (ids[0], ids[1], ids[2], ids[3], created, dropped)
    }

    @Test(arguments: [SyncUpTargetKind.collection, .batch, .single])
    func leaveIfChangedPreviewMatchesTheRun(kind: SyncUpTargetKind) async throws {
        try await EngineHarness.withSyncUp { harness in
            let changes = try await makeLocalChanges(harness)
            let engine = harness.engine()
            let definition = UpDefinitions.accounts(kind: kind, mergeMode: .leaveIfChanged)
            let baseline = try harness.dryRunBaseline()

            let preview = try await engine.preview(definition, operation: .syncUp)

            let requests = try harness.expectNothingWritten(since: baseline)
            // One collection retrieve (the conflict check) for the three records with server ids.
            #expect(requests.count == 1)
            #expect(requests.allSatisfy(EngineHarness.isCollectionRetrieve))
            #expect(preview.requests == 1)
            #expect(preview.selected == 7)
            #expect(preview.org == SyncPreview.Changes(created: 2, updated: 1, deleted: 1))
            #expect(preview.local == SyncPreview.Changes(deleted: 2))
            #expect(preview.conflicts == 1)
            #expect(preview.failed == 0)
            #expect(preview.items.count == 7)
            let byRecord = Dictionary(
                uniqueKeysWithValues: preview.items.compactMap { item in
                    item.recordID.map { ($0, item) }
                }
            )
            #expect(byRecord[changes.updated]?.side == .org)
            #expect(byRecord[changes.updated]?.action == .update)
            #expect(byRecord[changes.deleted]?.action == .delete)
            #expect(byRecord[changes.deleted]?.side == .org)
            #expect(byRecord[changes.conflicted]?.action == .conflict)
            #expect(byRecord[changes.goneOnServer]?.side == .local)
            #expect(byRecord[changes.goneOnServer]?.action == .delete)
            let createdEntries = preview.items.filter { $0.action == .create }.compactMap(\.entryID)
            #expect(createdEntries == changes.created)
            #expect(
                preview.items.contains { $0.entryID == changes.dropped && $0.side == .local && $0.action == .delete }
            )

            let summary = try await engine.syncUp(definition)
            #expect(summary.created == preview.org.created)
            #expect(summary.updated == preview.org.updated)
            #expect(summary.deleted == preview.org.deleted + preview.local.deleted)
            #expect(summary.conflicts == preview.conflicts)
            #expect(summary.failed == 0)
            #expect(summary.selected == preview.selected)
        }
    }

    @Test func overwritePreviewSendsNothing() async throws {
        try await EngineHarness.withSyncUp { harness in
            _ = try await makeLocalChanges(harness)
            let engine = harness.engine()
            let definition = UpDefinitions.accounts(mergeMode: .overwrite)
            let baseline = try harness.dryRunBaseline()

            let preview = try await engine.preview(definition, operation: .syncUp)

            let requests = try harness.expectNothingWritten(since: baseline)
            #expect(requests.isEmpty)
            #expect(preview.requests == 0)
            // Without the check the local version wins: the conflicted record is an update, and the
            // record already gone on the server is a delete request (answered "not found", counted deleted).
            #expect(preview.org == SyncPreview.Changes(created: 2, updated: 2, deleted: 2))
            #expect(preview.local == SyncPreview.Changes(deleted: 1))
            #expect(preview.conflicts == 0)

            let summary = try await engine.syncUp(definition)
            #expect(summary.created == preview.org.created)
            #expect(summary.updated == preview.org.updated)
            #expect(summary.deleted == preview.org.deleted + preview.local.deleted)
            #expect(summary.conflicts == 0)
        }
    }

    @Test func neverRunSyncLeavesNoStateAndRecordsWithoutTypeAreFailures() async throws {
        try await EngineHarness.withSyncUp { harness in
            try harness.createLocally(["Name": "Typed"])
            let untyped = try await harness.store.write { writer in
                try writer.upsert(
                    #"{"Id": "local_1", "Name": "No type", "__local__": true, "__locally_created__": true}"#,
                    into: "accounts"
                ).entryID
            }
            let baseline = try harness.dryRunBaseline()

            let preview = try await harness.engine().preview(UpDefinitions.accounts(), operation: .syncUp)

            try harness.expectNothingWritten(since: baseline)
            #expect(try !harness.hasSoup(StoredSyncState.soupName))
            #expect(preview.syncID == nil)
            #expect(preview.org == SyncPreview.Changes(created: 1))
            #expect(preview.failed == 1)
            #expect(
                preview.items.contains(
                    SyncPreview.Item(side: .org, action: .fail, recordID: "local_1", entryID: untyped)
                )
            )
        }
    }
}
