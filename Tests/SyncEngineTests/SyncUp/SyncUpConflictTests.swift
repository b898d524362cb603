import Foundation
import LocalOrg
import OrgClient
import SoupStore
import SyncConfig
import SyncEngine
import Testing

/// Merge modes of sync up against the local org over HTTP: `LEAVE_IF_CHANGED` conflicts are
/// detected in batches, recorded and counted; `OVERWRITE` wins; records deleted on the server.
struct SyncUpConflictTests {
    @Test(arguments: SyncUpTests.kinds)
    func leaveIfChangedRecordsConflictsAndLeavesBothSides(kind: SyncUpTargetKind) async throws {
        try await EngineHarness.withSyncUp { harness in
            let ids = try harness.createAccounts(["A", "B", "C"])
            try await harness.syncDownAccounts()
            try harness.changeLocally(ids[0], ["Name": "A local"])
            try harness.changeLocally(ids[1], ["Name": "B local"])
            try harness.changeLocally(ids[2], [:], flag: "__locally_deleted__")
            try harness.updateAccount(ids[0], fields: ["Name": .string("A server")])
            try harness.updateAccount(ids[2], fields: ["Name": .string("C server")])
            let serverModified = try #require(try harness.serverAccount(ids[0])?["LastModifiedDate"])
            let localModified = try #require(try harness.storedRecord(id: ids[0])?["LastModifiedDate"])
            let before = try harness.requestLog().count

            let summary = try await harness.engine().syncUp(
                UpDefinitions.accounts(kind: kind, mergeMode: .leaveIfChanged)
            )

            #expect(summary.status == .done)
            #expect(summary.updated == 1 && summary.conflicts == 2 && summary.deleted == 0)
            #expect(
                summary.issues.map(\.recordID) == [ids[0], ids[2]]
                    && summary.issues.allSatisfy { if case .conflict = $0.kind { true } else { false } }
            )
            #expect(try harness.serverAccount(ids[0])?["Name"] == "A server")
            #expect(try harness.serverAccount(ids[1])?["Name"] == "B local")
            #expect(try harness.serverAccount(ids[2])?["Name"] == "C server")
            let kept = try #require(try harness.storedRecord(id: ids[0]))
            #expect(kept["Name"] == "A local" && kept["__local__"] == true && kept["__locally_updated__"] == true)
            let lastError = try OrgValue(parsing: try #require(kept["__last_error__"]?.stringValue))
            #expect(lastError["kind"] == "conflict" && lastError["reason"] == "modifiedOnServer")
            #expect(lastError["serverModified"] == serverModified && lastError["localModified"] == localModified)
            #expect(try harness.storedRecord(id: ids[2])?["__locally_deleted__"] == true)
            // One batched check for the three records, never one GET per record.
            let log = try harness.requestLog().dropFirst(before)
            #expect(!log.contains { $0.method == "GET" && $0.path.contains("/sobjects/Account/") })
            let state = try #require(try harness.engine().syncStates(named: "up").first)
            #expect(state.status == .done)
            #expect(try OrgValue(parsing: try #require(state.extraJSON))["conflictCount"] == 2)
        }
    }

    @Test(arguments: SyncUpTests.kinds)
    func overwriteWins(kind: SyncUpTargetKind) async throws {
        try await EngineHarness.withSyncUp { harness in
            let ids = try harness.createAccounts(["A", "C"])
            try await harness.syncDownAccounts()
            try harness.changeLocally(ids[0], ["Name": "A local"])
            try harness.changeLocally(ids[1], [:], flag: "__locally_deleted__")
            try harness.updateAccount(ids[0], fields: ["Name": .string("A server")])
            try harness.updateAccount(ids[1], fields: ["Name": .string("C server")])

            let summary = try await harness.engine().syncUp(UpDefinitions.accounts(kind: kind, mergeMode: .overwrite))

            #expect(summary.status == .done && summary.updated == 1 && summary.deleted == 1 && summary.conflicts == 0)
            #expect(try harness.serverAccount(ids[0])?["Name"] == "A local")
            #expect(try harness.serverAccount(ids[1]) == nil)
        }
    }

    @Test(arguments: SyncUpTests.kinds)
    func ourOwnWriteIsNotTakenForAConflictByTheNextRun(kind: SyncUpTargetKind) async throws {
        try await EngineHarness.withSyncUp { harness in
            let id = try harness.createAccounts(["A"])[0]
            try await harness.syncDownAccounts()
            let definition = UpDefinitions.accounts(kind: kind, mergeMode: .leaveIfChanged)
            try harness.changeLocally(id, ["Name": "first"])
            _ = try await harness.engine().syncUp(definition)
            harness.clock.advance(seconds: 5)
            try harness.changeLocally(id, ["Name": "second"])

            let summary = try await harness.engine().syncUp(definition)

            #expect(summary.updated == 1 && summary.conflicts == 0)
            #expect(try harness.serverAccount(id)?["Name"] == "second")
        }
    }

    @Test(arguments: SyncUpTests.kinds)
    func anUpdateOfARecordDeletedOnTheServerFollowsTheMergeMode(kind: SyncUpTargetKind) async throws {
        try await EngineHarness.withSyncUp { harness in
            let ids = try harness.createAccounts(["Gone 1", "Gone 2"])
            try await harness.syncDownAccounts()
            for id in ids { try harness.changeLocally(id, ["Name": .string("\(id) local")]) }
            for id in ids { try harness.deleteAccount(id) }

            let left = try await harness.engine().syncUp(UpDefinitions.accounts(kind: kind, mergeMode: .leaveIfChanged))
            #expect(left.conflicts == 2 && left.created == 0)
            let conflict = try OrgValue(
                parsing: try #require(try harness.storedRecord(id: ids[0])?["__last_error__"]?.stringValue)
            )
            #expect(conflict["reason"] == "deletedOnServer")

            let overwritten = try await harness.engine().syncUp(
                UpDefinitions.accounts(kind: kind, mergeMode: .overwrite),
                replace: true
            )
            #expect(overwritten.created == 2 && overwritten.conflicts == 0 && overwritten.failed == 0)
            #expect(try harness.storedRecord(id: ids[0]) == nil)
            let names = try harness.storedNames()
            #expect(names == ["\(ids[0]) local", "\(ids[1]) local"])
        }
    }

    @Test(arguments: SyncUpTests.kinds)
    func aDeleteOfARecordAlreadyDeletedOnTheServerSucceeds(kind: SyncUpTargetKind) async throws {
        try await EngineHarness.withSyncUp { harness in
            let id = try harness.createAccounts(["Twice deleted"])[0]
            try await harness.syncDownAccounts()
            try harness.changeLocally(id, [:], flag: "__locally_deleted__")
            try harness.deleteAccount(id)

            let summary = try await harness.engine().syncUp(UpDefinitions.accounts(kind: kind))

            #expect(summary.deleted == 1 && summary.failed == 0)
            #expect(try harness.storedRecord(id: id) == nil)
        }
    }
}
