import Foundation
import SoupStore
import SyncrunTestSupport
import Testing

/// `previewPage` decides as `upsertPage` does, without writing.
struct PagePreviewTests {
    private func page(_ records: String) -> String {
        #"{"totalSize":3,"done":true,"records":"# + records + "}"
    }

    /// Three stored accounts (0…2), the second edited locally.
    private func storeWithLocalChange() throws -> TemporaryStore {
        let temporary = try TestFixtures.store()
        _ = try temporary.store.write { try $0.upsertPage(page(TestFixtures.accountRecords(0..<3)), into: "accounts") }
        try temporary.store.write { writer in
            _ = try writer.upsert(
                #"{"_soupEntryId":2,"Id":"001000000000001","Name":"edited","__local__":true}"#,
                into: "accounts"
            )
        }
        return temporary
    }

    @Test(arguments: LocalEntries.allCases)
    func countsWhatUpsertPageThenDoes(mode: LocalEntries) throws {
        let temporary = try storeWithLocalChange()
        defer { temporary.remove() }
        let store = temporary.store
        // Records 1…4, with record 3 twice (the last one wins, as in upsertPage).
        let records =
            "[" + (1..<5).map { TestFixtures.account($0) }.joined(separator: ",") + ","
            + TestFixtures.account(3) + "]"
        let options = PageUpsertOptions(localEntries: mode)
        let stamp = try Data(contentsOf: URL(fileURLWithPath: temporary.path + "-wal"))

        let preview = try store.read {
            try $0.previewPage(page(records), in: "accounts", options: options, recordLimit: 3)
        }

        #expect(try Data(contentsOf: URL(fileURLWithPath: temporary.path + "-wal")) == stamp)
        let result = try store.write { try $0.upsertPage(page(records), into: "accounts", options: options) }
        #expect(preview.received == 5)
        #expect(preview.inserted == result.inserted)
        #expect(preview.updated == result.updated)
        #expect(preview.skipped == result.skipped)
        #expect(preview.unchanged == result.unchanged)
        // Record 2 comes exactly as stored: neither written nor counted as updated.
        #expect(preview.unchanged == 1)
        #expect(preview.inserted == 2)
        #expect(preview.skipped == (mode == .keep ? 1 : 0))
        #expect(
            preview.records == [
                PageRecordPreview(
                    recordID: "001000000000001",
                    entryID: 2,
                    action: mode == .keep ? .skip : .update
                ),
                PageRecordPreview(recordID: "001000000000002", entryID: 3, action: .unchanged),
                PageRecordPreview(recordID: "001000000000004", entryID: nil, action: .insert),
            ]
        )
    }

    @Test func soupNotRegisteredYetIsTakenAsEmpty() throws {
        let temporary = try TestFixtures.store()
        defer { temporary.remove() }
        let preview = try temporary.store.read { reader in
            try reader.previewPage(page(TestFixtures.accountRecords(0..<3)), in: "prospects")
        }
        #expect(preview.inserted == 3 && preview.updated == 0 && preview.skipped == 0)
        #expect(try !temporary.store.read { try $0.hasSoup("prospects") })
    }

    @Test func refusesWhatUpsertPageRefuses() throws {
        let temporary = try TestFixtures.store()
        defer { temporary.remove() }
        let bad = page(#"[{"Name":"no id"}]"#)
        let previewError = try #require(throws: SoupStoreError.self) {
            try temporary.store.read { try $0.previewPage(bad, in: "accounts") }
        }
        let upsertError = try #require(throws: SoupStoreError.self) {
            try temporary.store.write { try $0.upsertPage(bad, into: "accounts") }
        }
        #expect(previewError.message == upsertError.message)
    }
}
