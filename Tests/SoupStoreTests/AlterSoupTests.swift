import Foundation
import SoupStore
import SyncrunTestSupport
import Testing

@testable import SoupStore

struct AlterSoupTests {
    private static let entryCount = 10_000

    private func filled() throws -> TemporaryStore {
        let temporary = try TestFixtures.store()
        _ = try temporary.store.write { writer in
            try writer.upsertPage(TestFixtures.accountRecords(0..<Self.entryCount), into: "accounts")
        }
        _ = try temporary.store.write {
            try $0.markEntries(.updated, in: "accounts", where: EntryFilter(path: "Id", value: "001000000000042"))
        }
        return temporary
    }

    /// Every entry kept with its id, times and document; every column equal to a fresh projection.
    private func expectIntact(_ temporary: TemporaryStore, before: [String]) throws {
        let after = try SystemSQLite.lines(
            temporary.path,
            "SELECT id || '|' || created || '|' || lastModified || '|' || soup FROM TABLE_1 ORDER BY id"
        )
        #expect(after.count == Self.entryCount)
        #expect(after == before)
        #expect(
            try SystemSQLite.lines(temporary.path, "SELECT count(*) FROM sqlite_master WHERE name LIKE '%_old%'") == [
                "0"
            ]
        )
        #expect(try SystemSQLite.lines(temporary.path, "SELECT count(*) FROM long_operations_status") == ["0"])
    }

    private func snapshot(_ temporary: TemporaryStore) throws -> [String] {
        try SystemSQLite.lines(
            temporary.path,
            "SELECT id || '|' || created || '|' || lastModified || '|' || soup FROM TABLE_1 ORDER BY id"
        )
    }

    @Test func addRemoveAndChangeIndexesKeepsEveryEntry() throws {
        let temporary = try filled()
        defer { temporary.remove() }
        let before = try snapshot(temporary)
        let specs = [
            IndexSpec(path: "Name", type: .string),  // was full_text: same SQL type, copied
            IndexSpec(path: "Id", type: .string),
            IndexSpec(path: "NumberOfEmployees", type: .string),  // type changed: re-indexed
            IndexSpec(path: "Industry", type: .fullText),  // json1 -> full_text
            IndexSpec(path: "__local__", type: .string),
            IndexSpec(path: "attributes.type", type: .json1),  // added
        ]
        try temporary.store.alterSoup("accounts", to: specs)
        try expectIntact(temporary, before: before)
        #expect(try temporary.store.read { try $0.indexSpecs(of: "accounts") } == specs)
        #expect(
            try SystemSQLite.lines(
                temporary.path,
                "SELECT TABLE_1_0, TABLE_1_1, TABLE_1_2, TABLE_1_3 FROM TABLE_1 WHERE id = 43"
            )
                == ["Account 42|001000000000042|42|Industry 2"]
        )
        #expect(try temporary.store.read { try $0.dirtyEntries(in: "accounts") }.map(\.entryID) == [43])
        #expect(
            try SystemSQLite.lines(
                temporary.path,
                "SELECT count(*) FROM TABLE_1_fts WHERE TABLE_1_fts MATCH 'TABLE_1_3:2'"
            ) == ["2000"]
        )
        #expect(
            try SystemSQLite.lines(
                temporary.path,
                "SELECT count(*) FROM TABLE_1 WHERE TABLE_1_2 IS NULL OR TABLE_1_0 IS NULL"
            )
                == ["0"]
        )
        // Removing indexes.
        try temporary.store.alterSoup("accounts", to: [IndexSpec(path: "Id", type: .string)])
        try expectIntact(temporary, before: before)
        #expect(
            try SystemSQLite.lines(temporary.path, "SELECT count(*) FROM sqlite_master WHERE name = 'TABLE_1_fts'")
                == ["0"]
        )
        #expect(
            try SystemSQLite.lines(temporary.path, "SELECT group_concat(name, ',') FROM pragma_table_info('TABLE_1')")
                == ["id,soup,created,lastModified,TABLE_1_0"]
        )
    }

    @Test(arguments: [
        AlterSoupOperation.Step.starting, .renameOldSoupTable, .dropOldIndexes, .registerSoupUsingTableName, .copyTable,
        .reIndexSoup,
    ])
    func interruptedAlterResumesOnOpen(after step: AlterSoupOperation.Step) throws {
        let temporary = try filled()
        defer { temporary.remove() }
        let before = try snapshot(temporary)
        let specs = [
            IndexSpec(path: "Id", type: .string), IndexSpec(path: "Industry", type: .string),
            IndexSpec(path: "__local__", type: .string),
        ]
        try temporary.store.alterSoup("accounts", to: specs, reIndexData: true, stoppingAfter: step)
        #expect(
            try SystemSQLite.lines(temporary.path, "SELECT type || ':' || status FROM long_operations_status") == [
                "alterSoup:\(step.rawValue)"
            ]
        )
        let reopened = try SoupStore(path: temporary.path)
        try expectIntact(temporary, before: before)
        #expect(try reopened.read { try $0.indexSpecs(of: "accounts") } == specs)
        #expect(
            try SystemSQLite.lines(temporary.path, "SELECT count(*) FROM TABLE_1 WHERE TABLE_1_1 = 'Industry 3'") == [
                "2000"
            ]
        )
    }

    @Test func registerSoupsCreatesKeepsAndAlters() throws {
        let temporary = try TestFixtures.store([])
        defer { temporary.remove() }
        #expect(
            try temporary.store.registerSoups([TestFixtures.accounts, TestFixtures.contacts]) == [.created, .created]
        )
        var changed = TestFixtures.contacts
        changed.indexes.append(IndexSpec(path: "Email", type: .string))
        #expect(try temporary.store.registerSoups([TestFixtures.accounts, changed]) == [.unchanged, .altered])
        do {
            try temporary.store.registerSoups([
                SoupSpec(
                    name: "bad",
                    indexes: [IndexSpec(path: "a", type: .string), IndexSpec(path: "a", type: .integer)]
                )
            ])
            Issue.record("expected an error")
        } catch let error as SoupStoreError {
            #expect(error.message == "soup 'bad': path 'a' is indexed twice; keep one index spec per path")
        }
    }
}
