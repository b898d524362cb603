import Foundation
import LocalOrg
import SoupStore
import SyncConfig
import SyncEngine
import Testing

/// Sync down of a SOQL target against the local org over HTTP: paging, state, merge modes,
/// server refusals.
struct SyncDownTests {
    @Test func multiPageSyncSavesEveryRecordAndEndsDone() async throws {
        try await EngineHarness.with(pageSize: 3) { harness in
            try harness.createAccounts((1...7).map { "Account \($0)" }, secondsApart: 1)
            let recorder = EventRecorder()
            let summary = try await harness.engine().syncDown(
                Definitions.soql("accounts", query: "SELECT Name FROM Account"),
                events: recorder.continuation
            )
            let events = await recorder.finish()

            #expect(summary.status == .done)
            #expect(summary.fetched == 7 && summary.saved == 7 && summary.skippedLocallyChanged == 0)
            #expect(summary.pages == 3)
            #expect(summary.requests == 3)
            #expect(try harness.storedCount() == 7)
            let state = try #require(try harness.engine().syncStates(named: "accounts").first)
            #expect(state.status == .done && state.progress == 100 && state.totalSize == 7 && state.error.isEmpty)
            // The last record was created at start + 6 s: that is the watermark.
            let start = Int64(TestClock().now.timeIntervalSince1970 * 1000)
            #expect(state.maxTimeStamp == start + 6000)
            #expect(state.startTime > 0 && state.endTime >= state.startTime)

            let progress = events.compactMap { event -> SyncPageProgress? in
                if case .page(let page) = event { return page }
                return nil
            }
            #expect(progress.map(\.fetched) == [3, 6, 7])
            #expect(progress.map(\.progress) == [42, 85, 85])
            guard case .started(let start0) = events.first, case .finished(let finished) = events.last else {
                Issue.record("events must start with .started and end with .finished: \(events)")
                return
            }
            #expect(start0.isIncremental == false && start0.targetKind == "soql")
            #expect(finished == summary)
        }
    }

    @Test func syncIntoAnEmptySoupEndsWithItsSQLIndexesAndEveryFetchedID() async throws {
        try await EngineHarness.with(pageSize: 3) { harness in
            try harness.createAccounts((1...7).map { "Account \($0)" }, secondsApart: 1)
            let summary = try await harness.engine().syncDown(
                Definitions.soql("accounts", query: "SELECT Name FROM Account")
            )
            #expect(summary.status == .done && summary.created == 7 && summary.updated == 0)
            #expect(try await harness.store.read { try $0.bulkLoad(of: "accounts") } == nil)
            let sqlite = Process()
            sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            sqlite.arguments = [
                harness.store.path,
                """
                SELECT count(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = \
                (SELECT 'TABLE_' || id FROM soup_attrs WHERE soupName = 'accounts');
                SELECT count(*) FROM syncrun_record_syncs WHERE soup_name = 'accounts';
                SELECT count(*) FROM syncrun_pending_record_syncs;
                """,
            ]
            let pipe = Pipe()
            sqlite.standardOutput = pipe
            try sqlite.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            sqlite.waitUntilExit()
            // created, lastModified and one per index spec (3); 7 ids; nothing pending.
            #expect(output.split(separator: "\n") == ["5", "7", "0"])
            #expect(try harness.storedCount() == 7)
        }
    }

    @Test func savedRecordsCarrySyncIDAndCleanFlags() async throws {
        try await EngineHarness.with { harness in
            let ids = try harness.createAccounts(["Acme"])
            let summary = try await harness.engine().syncDown(
                Definitions.soql("accounts", query: "SELECT Name FROM Account")
            )
            #expect(try harness.storedValue("__sync_id__", ofID: ids[0]) == .integer(summary.syncID))
            #expect(try harness.storedValue("__local__", ofID: ids[0]) == .text("false"))
            // The id and modification fields were added to the query, and the server's attributes kept.
            #expect(try harness.storedValue("LastModifiedDate", ofID: ids[0]) != .null)
            #expect(try harness.storedValue("attributes.type", ofID: ids[0]) == .text("Account"))
        }
    }

    @Test func leaveIfChangedProtectsLocallyChangedRecordsAndCountsThem() async throws {
        try await EngineHarness.with { harness in
            let ids = try harness.createAccounts(["One", "Two", "Three"], secondsApart: 1)
            let definition = Definitions.soql(
                "accounts",
                query: "SELECT Name FROM Account",
                mergeMode: .leaveIfChanged
            )
            let engine = harness.engine()
            _ = try await engine.syncDown(definition)
            try harness.editLocally(ids[2], name: "Three (edited here)")
            try harness.updateAccount(ids[0], fields: ["Name": .string("One (edited on server)")])
            harness.clock.advance(seconds: 1)
            try harness.updateAccount(ids[2], fields: ["Name": .string("Three (edited on server)")])

            let recorder = EventRecorder()
            let summary = try await engine.syncDown(definition, events: recorder.continuation)
            let events = await recorder.finish()

            #expect(summary.status == .done)
            #expect(summary.skippedLocallyChanged == 1)
            #expect(try harness.storedNames() == ["One (edited on server)", "Three (edited here)", "Two"])
            #expect(try harness.storedValue("__local__", ofID: ids[2]) == .text("true"))
            #expect(events.contains { if case .warning = $0 { true } else { false } })
            // The watermark only counts saved records: the skipped one (modified last) is not in it,
            // so the next resync asks for it again.
            let state = try engine.syncState(id: summary.syncID)
            let skippedStamp = try harness.storedValue("LastModifiedDate", ofID: ids[0])
            guard case .text(let text) = skippedStamp else { throw CancellationError() }
            #expect(state.maxTimeStamp == SalesforceMilliseconds.parse(text))
        }
    }

    @Test func overwriteReplacesLocallyChangedRecords() async throws {
        try await EngineHarness.with { harness in
            let ids = try harness.createAccounts(["One"])
            let definition = Definitions.soql("accounts", query: "SELECT Name FROM Account")
            let engine = harness.engine()
            _ = try await engine.syncDown(definition)
            try harness.editLocally(ids[0], name: "One (edited here)")
            harness.clock.advance(seconds: 1)
            try harness.updateAccount(ids[0], fields: ["Name": .string("One (server)")])

            let summary = try await engine.syncDown(definition)
            #expect(summary.skippedLocallyChanged == 0)
            #expect(try harness.storedNames() == ["One (server)"])
            #expect(try harness.storedValue("__local__", ofID: ids[0]) == .text("false"))
        }
    }

    @Test func queryTheServerRejectsEndsFailedWithTheServersMessage() async throws {
        try await EngineHarness.with { harness in
            try harness.createAccounts(["One"])
            let summary = try await harness.engine().syncDown(
                Definitions.soql("bad", query: "SELECT Id, NoSuchField__c FROM Account")
            )
            #expect(summary.status == .failed)
            let state = try #require(try harness.engine().syncStates(named: "bad").first)
            #expect(state.status == .failed)
            #expect(state.error.contains("NoSuchField__c"))
            #expect(state.error.hasPrefix("sync 'bad': the org refused or failed a request: "))
            #expect(summary.error == state.error)
            #expect(try harness.storedCount() == 0)
        }
    }
}

/// Salesforce date-time text to ms, for expectations.
enum SalesforceMilliseconds {
    static func parse(_ text: String) -> Int64? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let normalized = text.replacingOccurrences(of: "+0000", with: "Z")
        return formatter.date(from: normalized).map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }
    }
}
