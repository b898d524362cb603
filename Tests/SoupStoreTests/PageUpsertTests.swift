import Foundation
import SoupStore
import SyncrunTestSupport
import Testing

struct PageUpsertTests {
    private func page(_ records: String) -> String {
        #"{"totalSize":3,"done":true,"records":"# + records + "}"
    }

    @Test func savesServerRecordsWithControlFieldsAndCounts() throws {
        let temporary = try TestFixtures.store()
        defer { temporary.remove() }
        let result = try temporary.store.write { writer in
            try writer.upsertPage(
                page(TestFixtures.accountRecords(0..<3, extra: #","__last_error__":"boom""#)),
                into: "accounts",
                options: PageUpsertOptions(syncID: 7)
            )
        }
        #expect(
            result
                == PageUpsertResult(
                    inserted: 3,
                    updated: 0,
                    skipped: 0,
                    maxModificationDate: .text("2024-01-01T00:00:02.000+0000")
                )
        )
        let entry = try #require(try temporary.store.read { try $0.entry(2, in: "accounts") })
        let document = try #require(try JSONSerialization.jsonObject(with: Data(entry.json.utf8)) as? [String: Any])
        #expect(document["__local__"] as? Bool == false)
        #expect(document["__locally_created__"] as? Bool == false)
        #expect(document["__locally_updated__"] as? Bool == false)
        #expect(document["__locally_deleted__"] as? Bool == false)
        #expect(document["__sync_id__"] as? Int == 7)
        #expect(document["__last_error__"] == nil)
        #expect((document["attributes"] as? [String: Any])?["type"] as? String == "Account")
        #expect(try SystemSQLite.lines(temporary.path, "SELECT TABLE_1_5 FROM TABLE_1 WHERE id = 2") == ["false"])
    }

    @Test func overwriteReplacesLocallyChangedEntries() throws {
        let temporary = try TestFixtures.store()
        defer { temporary.remove() }
        let store = temporary.store
        _ = try store.write { try $0.upsertPage(page(TestFixtures.accountRecords(0..<3)), into: "accounts") }
        _ = try store.write {
            try $0.markEntries(.updated, in: "accounts", where: EntryFilter(path: "Id", value: "001000000000001"))
        }
        let result = try store.write { writer in
            try writer.upsertPage(
                page(TestFixtures.accountRecords(1..<4)),
                into: "accounts",
                options: PageUpsertOptions(localEntries: .overwrite)
            )
        }
        // Record 1 (changed locally) is overwritten; record 2 comes exactly as stored: unchanged.
        #expect(result.inserted == 1 && result.updated == 1 && result.unchanged == 1 && result.skipped == 0)
        #expect(try store.read { try $0.dirtyEntryCount(in: "accounts") } == 0)
    }

    @Test func leaveIfChangedSkipsAndCountsLocallyChangedEntries() throws {
        let temporary = try TestFixtures.store()
        defer { temporary.remove() }
        let store = temporary.store
        _ = try store.write { try $0.upsertPage(page(TestFixtures.accountRecords(0..<3)), into: "accounts") }
        try store.write { writer in
            _ = try writer.upsert(
                #"{"_soupEntryId":2,"Id":"001000000000001","Name":"edited","__local__":"true","__locally_updated__":true}"#,
                into: "accounts"
            )
            // The iOS spelling of a set flag counts too.
            _ = try writer.upsert(
                #"{"_soupEntryId":3,"Id":"001000000000002","Name":"edited","__local__":"1"}"#,
                into: "accounts"
            )
        }
        let result = try store.write { writer in
            try writer.upsertPage(
                page(TestFixtures.accountRecords(0..<4)),
                into: "accounts",
                options: PageUpsertOptions(localEntries: .keep)
            )
        }
        // Record 0 comes exactly as stored: unchanged, not updated.
        #expect(result.inserted == 1 && result.updated == 0 && result.unchanged == 1 && result.skipped == 2)
        // The maximum covers saved records only (sync-semantics §11 item 17): 0 and 3.
        #expect(result.maxModificationDate == .text("2024-01-01T00:00:03.000+0000"))
        let names = try store.read {
            try $0.entries(in: "accounts", wherePath: "Id", isIn: ["001000000000001", "001000000000002"])
        }
        #expect(names.allSatisfy { $0.json.contains(#""Name":"edited""#) })
    }

    @Test func sameIDTwiceInOnePageKeepsTheLast() throws {
        let temporary = try TestFixtures.store()
        defer { temporary.remove() }
        let records = #"[{"Id":"X","Name":"first"},{"Id":"X","Name":"second"}]"#
        let result = try temporary.store.write { try $0.upsertPage(records, into: "accounts") }
        #expect(result.inserted == 1)
        let entries = try temporary.store.read { try $0.entries(in: "accounts", wherePath: "Id", isIn: ["X"]) }
        #expect(entries.count == 1 && entries[0].json.contains("second"))
    }

    @Test func rejectsBadPagesWithoutWriting() throws {
        let temporary = try TestFixtures.store()
        defer { temporary.remove() }
        let store = temporary.store
        let cases: [(String, String)] = [
            (
                #"{"totalSize":1}"#,
                "expected a JSON array of entries (or an object with a 'records' array), found an object without a 'records' array"
            ),
            (
                #"[{"Id":"1"},{"Name":"no id"}]"#,
                "entry 2 has no value at external id path 'Id'; every entry upserted by 'Id' needs a non-null value there"
            ),
            (
                #"{"records":[{"Id":"1"},"text"]}"#,
                "entry 2 is not an object (found text); every entry must be a JSON object"
            ),
            (
                "{\"records\":[{\"Id\":\"1\"}",
                "malformed JSON at line 1 column 23: unexpected end of file; the array opened at line 1, column 12 "
                    + "is not closed"
            ),
        ]
        for (input, message) in cases {
            do {
                _ = try store.write { try $0.upsertPage(input, into: "accounts") }
                Issue.record("expected an error for \(input)")
            } catch let error as SoupStoreError {
                #expect(error.message == message)
            }
        }
        #expect(try store.read { try $0.entryCount(in: "accounts") } == 0)
    }

    @Test func pageAndSyncStateCommitTogether() throws {
        let temporary = try TestFixtures.store()
        defer { temporary.remove() }
        let store = temporary.store
        let state = try store.write { writer in
            try writer.createSyncState(
                kind: .syncDown,
                name: "accounts",
                targetJSON: #"{"type":"soql","query":"SELECT Id FROM Account"}"#,
                optionsJSON: #"{"mergeMode":"OVERWRITE"}"#,
                soupName: "accounts"
            )
        }
        struct Interrupted: Error {}
        #expect(throws: Interrupted.self) {
            try store.write { writer in
                _ = try writer.upsertPage(TestFixtures.accountRecords(0..<10), into: "accounts")
                var updated = state
                updated.maxTimeStamp = 99
                try writer.updateSyncState(updated)
                throw Interrupted()
            }
        }
        #expect(try store.read { try $0.entryCount(in: "accounts") } == 0)
        #expect(try store.read { try $0.syncState(id: state.id)?.maxTimeStamp } == -1)
    }
}
