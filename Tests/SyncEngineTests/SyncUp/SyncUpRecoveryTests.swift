import Foundation
import LocalOrg
import OrgClient
import SoupStore
import SyncConfig
import SyncEngine
import Testing

/// What sync up does when the app edits a record while the run is under way (sync-semantics §11
/// item 16), and when a create's response is lost (crash-safe creates), end to end against the
/// local org over HTTP.
struct SyncUpRecoveryTests {
    /// The create call of each target (not the read-back, `POST /composite/sobjects/Account`).
    static func isCreateCall(_ method: String, _ target: String) -> Bool {
        method == "POST" && !target.hasSuffix("/composite/sobjects/Account")
    }

    /// Server accounts whose name is one of `names`.
    static func serverCount(_ harness: EngineHarness, names: [String]) throws -> Int {
        let list = names.map { "'\($0)'" }.joined(separator: ", ")
        return try harness.database.query("SELECT Id FROM Account WHERE Name IN (\(list))", apiVersion: "62.0")
            .totalSize
    }

    @Test(arguments: SyncUpTests.kinds)
    func anEditMadeWhileTheRecordIsSentStaysLocalForTheNextRun(kind: SyncUpTargetKind) async throws {
        let hook = RequestHook()
        try await EngineHarness.withSyncUp(hook: hook) { harness in
            let existing = try harness.createAccounts(["B"])[0]
            try await harness.syncDownAccounts()
            try harness.changeLocally(existing, ["Name": "B local"])
            let entry = try harness.createLocally(["Id": "local_a", "Name": "A"])
            hook.once(when: Self.isCreateCall) {
                try? harness.changeLocally("local_a", ["Name": "A edited"])
            }
            let definition = UpDefinitions.accounts(kind: kind)

            let first = try await harness.engine().syncUp(definition)

            #expect(first.status == .done && first.created == 1 && first.updated == 1)
            let stored = try #require(try harness.storedRecord(entryID: entry))
            let id = try #require(stored["Id"]?.stringValue)
            #expect(!id.hasPrefix("local_"))
            #expect(stored["Name"] == "A edited" && stored["__local__"] == true)
            #expect(stored["__locally_created__"] == false && stored["__locally_updated__"] == true)
            #expect(stored["__syncrun_create__"] == nil)
            #expect(try harness.serverAccount(id)?["Name"] == "A")
            #expect(try harness.storedRecord(id: existing)?["__local__"] == false)

            let second = try await harness.engine().syncUp(definition)

            #expect(second.updated == 1 && second.created == 0)
            #expect(try harness.serverAccount(id)?["Name"] == "A edited")
            #expect(try Self.serverCount(harness, names: ["A", "A edited"]) == 1)
            #expect(try harness.storedRecord(entryID: entry)?["__local__"] == false)
        }
    }

    @Test(arguments: SyncUpTests.kinds)
    func aCreateWhoseResponseWasLostIsAdoptedNotCreatedAgain(kind: SyncUpTargetKind) async throws {
        // The org's clock reads real time: intents are stamped by the engine's clock.
        try await EngineHarness.withSyncUp(faults: FaultConfiguration(loseResponses: [1]), clockStart: Date()) {
            harness in
            let entries = try ["One", "Twin", "Twin"].map { try harness.createLocally(["Name": .string($0)]) }
            let definition = UpDefinitions.accounts(kind: kind)

            let lost = try await harness.engine().syncUp(definition)

            #expect(lost.status == .failed)
            for entry in entries {
                let record = try #require(try harness.storedRecord(entryID: entry))
                #expect(record["__local__"] == true && record["Id"]?.stringValue?.hasPrefix("local_") == true)
                #expect(record["__syncrun_create__"]?["attempt"] == 1)
            }
            let reachedServer = try Self.serverCount(harness, names: ["One", "Twin"])
            // Four requests in flight: the single target's other creates may already be out when
            // the first response is lost (each one adopted on the retry, never created twice).
            #expect(kind == .single ? (1...3).contains(reachedServer) : reachedServer == 3)
            let before = try harness.requestLog().count

            let retried = try await harness.engine().syncUp(definition)

            #expect(retried.status == .done && retried.created == 3 && retried.failed == 0)
            #expect(try Self.serverCount(harness, names: ["One", "Twin"]) == 3)
            var ids = Set<String>()
            for entry in entries {
                let record = try #require(try harness.storedRecord(entryID: entry))
                let id = try #require(record["Id"]?.stringValue)
                #expect(!id.hasPrefix("local_") && record["__local__"] == false)
                #expect(record["__locally_created__"] == false && record["__syncrun_create__"] == nil)
                #expect(try harness.serverAccount(id)?["Name"] == record["Name"])
                ids.insert(id)
            }
            #expect(ids.count == 3)
            let creates = try harness.writeRequests(since: before).filter { Self.isCreateCall($0.method, $0.path) }
            #expect(creates.count == 3 - reachedServer)
            let log = try harness.requestLog().dropFirst(before)
            #expect(
                log.contains { $0.method == "GET" && $0.path.contains("/query") && $0.path.contains("CreatedById") }
            )
        }
    }

    @Test func anAdoptedRecordEditedSinceItsCreateContinuesAsAnUpdate() async throws {
        try await EngineHarness.withSyncUp(faults: FaultConfiguration(loseResponses: [1]), clockStart: Date()) {
            harness in
            let entry = try harness.createLocally(["Id": "local_one", "Name": "One", "Industry": "Energy"])
            let definition = UpDefinitions.accounts(mergeMode: .leaveIfChanged)
            #expect(try await harness.engine().syncUp(definition).status == .failed)
            try harness.changeLocally("local_one", ["Name": "One edited"])

            let retried = try await harness.engine().syncUp(definition)

            #expect(retried.status == .done && retried.updated == 1 && retried.created == 0 && retried.conflicts == 0)
            let record = try #require(try harness.storedRecord(entryID: entry))
            let id = try #require(record["Id"]?.stringValue)
            #expect(try harness.serverAccount(id)?["Name"] == "One edited")
            #expect(try Self.serverCount(harness, names: ["One", "One edited"]) == 1)
            #expect(record["__local__"] == false && record["__syncrun_create__"] == nil)
        }
    }

    /// A lost create, a local edit, then the adoption's update also lost (the process killed while
    /// it waits): the next run finds the candidate by the create and the update it sent together,
    /// and updates it; nothing is created twice (found by the soak, scripts/soak.sh).
    @Test(arguments: [SyncUpTargetKind.collection, .single])
    func anAdoptionWhoseUpdateWasLostIsFoundAgainNotCreatedTwice(kind: SyncUpTargetKind) async throws {
        let definition = UpDefinitions.accounts(kind: kind)
        func scenario(_ harness: EngineHarness) async throws -> (entry: Int64, writeNumber: Int, run: SyncUpSummary) {
            let entry = try harness.createLocally(["Id": "local_one", "Name": "One", "Industry": "Energy"])
            _ = try await harness.engine().syncUp(definition)
            try harness.changeLocally("local_one", ["Industry": "Retail"])
            let before = try harness.requestLog().count
            let run = try await harness.engine().syncUp(definition)
            let log = try harness.requestLog()
            let write = try #require(
                log.indices.dropFirst(before).first { index in
                    let entry = log[index]
                    return entry.method == "PATCH" || (entry.method == "POST" && entry.path.hasSuffix("/composite"))
                }
            )
            return (entry, write + 1, run)
        }
        // A probe with only the create's answer lost finds the number of the adoption's update.
        let writeNumber = try await EngineHarness.withSyncUp(
            faults: FaultConfiguration(loseResponses: [1]),
            clockStart: Date()
        ) { harness in
            try await scenario(harness).writeNumber
        }
        try await EngineHarness.withSyncUp(
            faults: FaultConfiguration(loseResponses: Set([1]).union(writeNumber..<(writeNumber + Self.attempts))),
            clockStart: Date()
        ) { harness in
            let (entry, number, second) = try await scenario(harness)
            #expect(number == writeNumber)
            #expect(second.status == .failed)
            // The update reached the org: its copy no longer holds the body of the create.
            #expect(try Self.serverCount(harness, names: ["One"]) == 1)
            let pending = try #require(try harness.storedRecord(entryID: entry))
            #expect(pending["__local__"] == true && pending["Id"] == "local_one")
            harness.clock.advance(seconds: 5)
            try await Self.consumeLostResponses(harness, upTo: writeNumber + Self.attempts - 1)

            let third = try await harness.engine().syncUp(definition)

            #expect(third.status == .done && third.created == 0 && third.failed == 0, "\(third)")
            #expect(try Self.serverCount(harness, names: ["One"]) == 1)
            let record = try #require(try harness.storedRecord(entryID: entry))
            let id = try #require(record["Id"]?.stringValue)
            #expect(!id.hasPrefix("local_") && record["__local__"] == false)
            #expect(try harness.serverAccount(id)?["Industry"] == "Retail")
        }
    }

    @Test func anIntentWithoutAServerRecordIsCreatedOnceAndStoredRecordsAreNeverAdopted() async throws {
        try await EngineHarness.withSyncUp(clockStart: Date()) { harness in
            let existing = try harness.createAccounts(["Same"])[0]
            try await harness.syncDownAccounts()
            let intent: OrgValue = [
                "at": .integer(Int64(Date().timeIntervalSince1970 * 1000)), "attempt": 1,
                "fields": ["Name": "Same"],
            ]
            let entry = try harness.createLocally(["Name": "Same", "__syncrun_create__": intent])

            let summary = try await harness.engine().syncUp(UpDefinitions.accounts())

            #expect(summary.status == .done && summary.created == 1)
            let id = try #require(try harness.storedRecord(entryID: entry)?["Id"]?.stringValue)
            #expect(id != existing && !id.hasPrefix("local_"))
            #expect(try Self.serverCount(harness, names: ["Same"]) == 2)
            #expect(try harness.storedRecord(entryID: entry)?["__syncrun_create__"] == nil)
        }
    }

    /// The client's attempts per request (the first try and its retries).
    static let attempts = RetryPolicy.default.maxAttempts

    /// Sends throwaway reads until the org has answered request number `last`, so that the lost
    /// answers planned for an update's retries that did not happen (composite POSTs are not
    /// retried) do not hit the next run.
    static func consumeLostResponses(_ harness: EngineHarness, upTo last: Int) async throws {
        while try harness.requestLog().count < last {
            _ = try? await harness.org.limits()
        }
    }

    /// Sets up one synced-down account edited locally, runs `syncUp` under `mergeMode`
    /// (LEAVE_IF_CHANGED unless said), and returns the 1-based number (in the org's request log)
    /// of the run's first write request.
    private static func updateScenario(
        _ harness: EngineHarness,
        kind: SyncUpTargetKind,
        mergeMode: SyncConfig.MergeMode = .leaveIfChanged
    ) async throws -> (id: String, writeNumber: Int, summary: SyncUpSummary) {
        let id = try harness.createAccounts(["Before"])[0]
        try await harness.syncDownAccounts()
        try harness.changeLocally(id, ["Name": "After"])
        let before = try harness.requestLog().count
        let summary = try await harness.engine().syncUp(UpDefinitions.accounts(kind: kind, mergeMode: mergeMode))
        let log = try harness.requestLog()
        let write = try #require(
            log.indices.dropFirst(before).first { index in
                let entry = log[index]
                return entry.method == "PATCH" || (entry.method == "POST" && entry.path.hasSuffix("/composite"))
            }
        )
        return (id, write + 1, summary)
    }

    @Test(arguments: SyncUpTests.kinds)
    func anUpdateWhoseResponseWasLostIsNotTakenForAConflictOnTheNextRun(kind: SyncUpTargetKind) async throws {
        // A probe run without faults finds the number of the update request; the flow is deterministic.
        let writeNumber = try await EngineHarness.withSyncUp(clockStart: Date()) { harness in
            try await Self.updateScenario(harness, kind: kind).writeNumber
        }
        // The update and the client's retries of it are served, then their answers lost, as when the
        // process is killed while waiting: the run fails with the update applied on the org.
        try await EngineHarness.withSyncUp(
            faults: FaultConfiguration(loseResponses: Set(writeNumber..<(writeNumber + Self.attempts))),
            clockStart: Date()
        ) {
            harness in
            let (id, number, lost) = try await Self.updateScenario(harness, kind: kind)
            #expect(number == writeNumber)
            #expect(lost.status == .failed)
            // The update reached the org, whose copy is now newer than the local one.
            #expect(try harness.serverAccount(id)?["Name"] == "After")
            let pending = try #require(try harness.storedRecord(id: id))
            #expect(pending["__local__"] == true && pending["__syncrun_update__"]?["attempt"] == 1)
            harness.clock.advance(seconds: 5)
            try await Self.consumeLostResponses(harness, upTo: writeNumber + Self.attempts - 1)

            let retried = try await harness.engine().syncUp(
                UpDefinitions.accounts(kind: kind, mergeMode: .leaveIfChanged)
            )

            #expect(retried.status == .done && retried.updated == 1 && retried.conflicts == 0, "\(retried)")
            let record = try #require(try harness.storedRecord(id: id))
            #expect(record["__local__"] == false && record["__syncrun_update__"] == nil)
            #expect(try harness.serverAccount(id)?["Name"] == "After")
        }
    }

    /// Under OVERWRITE an update through a stored server id writes no intent (nothing reads it:
    /// the update is sent again whatever the server holds); a lost one stays dirty and the next
    /// run sends it again and stores the server's date of that write.
    @Test(arguments: SyncUpTests.kinds)
    func anOverwriteUpdateRecordsNoIntentAndALostOneIsSentAgain(kind: SyncUpTargetKind) async throws {
        let writeNumber = try await EngineHarness.withSyncUp(clockStart: Date()) { harness in
            try await Self.updateScenario(harness, kind: kind, mergeMode: .overwrite).writeNumber
        }
        try await EngineHarness.withSyncUp(
            faults: FaultConfiguration(loseResponses: Set(writeNumber..<(writeNumber + Self.attempts))),
            clockStart: Date()
        ) {
            harness in
            let (id, number, lost) = try await Self.updateScenario(harness, kind: kind, mergeMode: .overwrite)
            #expect(number == writeNumber)
            #expect(lost.status == .failed)
            #expect(try harness.serverAccount(id)?["Name"] == "After")
            let pending = try #require(try harness.storedRecord(id: id))
            #expect(pending["__local__"] == true && pending["__locally_updated__"] == true)
            #expect(pending["__syncrun_update__"] == nil)
            harness.clock.advance(seconds: 5)
            try await Self.consumeLostResponses(harness, upTo: writeNumber + Self.attempts - 1)

            let retried = try await harness.engine().syncUp(UpDefinitions.accounts(kind: kind, mergeMode: .overwrite))

            #expect(retried.status == .done && retried.updated == 1 && retried.conflicts == 0, "\(retried)")
            let record = try #require(try harness.storedRecord(id: id))
            #expect(record["__local__"] == false && record["__syncrun_update__"] == nil)
            #expect(try record["LastModifiedDate"] == harness.serverAccount(id)?["LastModifiedDate"])
            #expect(try harness.serverAccount(id)?["Name"] == "After")
        }
    }

    @Test func aServerEditAfterALostUpdateIsStillAConflict() async throws {
        let writeNumber = try await EngineHarness.withSyncUp(clockStart: Date()) { harness in
            try await Self.updateScenario(harness, kind: .collection).writeNumber
        }
        // The update and the client's retries of it are served, then their answers lost, as when the
        // process is killed while waiting: the run fails with the update applied on the org.
        try await EngineHarness.withSyncUp(
            faults: FaultConfiguration(loseResponses: Set(writeNumber..<(writeNumber + Self.attempts))),
            clockStart: Date()
        ) {
            harness in
            let (id, _, lost) = try await Self.updateScenario(harness, kind: .collection)
            #expect(lost.status == .failed)
            harness.clock.advance(seconds: 5)
            try await Self.consumeLostResponses(harness, upTo: writeNumber + Self.attempts - 1)
            try harness.updateAccount(id, fields: ["Name": "Someone else"])

            let retried = try await harness.engine().syncUp(
                UpDefinitions.accounts(kind: .collection, mergeMode: .leaveIfChanged)
            )

            #expect(retried.conflicts == 1 && retried.updated == 0)
            #expect(try harness.serverAccount(id)?["Name"] == "Someone else")
        }
    }
}
