import Foundation
import SoupStore
import SyncrunTestSupport
import Testing

struct QueryTests {
    private func filledStore(_ count: Int = 20) throws -> TemporaryStore {
        let temporary = try TestFixtures.store([TestFixtures.accounts, TestFixtures.contacts])
        _ = try temporary.store.write { try $0.upsertPage(TestFixtures.accountRecords(0..<count), into: "accounts") }
        return temporary
    }

    private func rows(_ store: SoupStore, _ sql: String, _ arguments: [SoupValue] = []) throws -> [String] {
        var out: [String] = []
        try store.read { reader in try reader.query(sql, arguments: arguments) { out.append($0.jsonArray) } }
        return out
    }

    @Test func smartSQLResolvesSoupsPathsAndControlColumns() throws {
        let temporary = try filledStore()
        defer { temporary.remove() }
        let result = try rows(
            temporary.store,
            "select {accounts:_soupEntryId}, {accounts:Id}, {accounts:NumberOfEmployees}, {accounts:attributes.type} "
                + "from {accounts} where {accounts:Id} = ? and {accounts:Industry} = ?",
            [.text("001000000000003"), .text("Industry 3")]
        )
        #expect(result == [#"[4,"001000000000003",3,"Account"]"#])
    }

    @Test func documentsComeBackAsObjects() throws {
        let temporary = try filledStore(2)
        defer { temporary.remove() }
        let result = try rows(
            temporary.store,
            "select {accounts:_soup} from {accounts} order by {accounts:_soupEntryId} limit 1"
        )
        #expect(result.count == 1)
        #expect(result[0].hasPrefix(#"[{"attributes":"#))
        let aliased = try rows(
            temporary.store,
            "select a.{accounts:Name}, a.{accounts:_soupEntryId} from {accounts} as a where a.{accounts:Industry} = 'Industry 1'"
        )
        #expect(aliased == [#"["Account 1",2]"#])
    }

    @Test(arguments: [
        ("delete from {accounts}", "invalid Smart SQL: only SELECT (or WITH … SELECT) queries are allowed"),
        ("select * from {nope}", "invalid Smart SQL: unknown soup 'nope' at character 15"),
        (
            "select {accounts:Id'); DROP TABLE x; --} from {accounts}",
            "invalid path 'Id'); DROP TABLE x; --': a path is one or more names of letters, digits and '_', separated by '.' (for example 'Account.Name')"
        ),
        (
            "select {accounts:a:b} from {accounts}",
            "invalid Smart SQL: '{accounts:a:b}' at character 8 has more than one ':'"
        ),
        (
            "select 1; drop table soup_attrs",
            "invalid Smart SQL: only one statement is allowed (found ';' at character 9)"
        ),
        (
            "select {accounts:Id from {accounts}",
            "invalid path 'Id from {accounts': a path is one or more names of letters, digits and '_', separated by '.' (for example 'Account.Name')"
        ),
    ])
    func rejectsUnsafeOrWrongQueries(sql: String, message: String) throws {
        let temporary = try filledStore(1)
        defer { temporary.remove() }
        do {
            _ = try rows(temporary.store, sql)
            Issue.record("expected an error")
        } catch let error as SoupStoreError {
            #expect(error.message == message)
        }
    }

    @Test func valuesAreBoundNotSpliced() throws {
        let temporary = try filledStore(3)
        defer { temporary.remove() }
        let result = try rows(
            temporary.store,
            "select count(*) from {accounts} where {accounts:Name} = ?",
            [.text("x' OR '1'='1")]
        )
        #expect(result == ["[0]"])
        #expect(try SystemSQLite.lines(temporary.path, "SELECT count(*) FROM TABLE_1") == ["3"])
    }

    @Test func querySpecs() throws {
        let temporary = try filledStore(20)
        defer { temporary.remove() }
        func ids(_ spec: QuerySpec) throws -> [Int64] {
            var out: [Int64] = []
            try temporary.store.read { try $0.forEachEntry(matching: spec) { out.append($0.entryID) } }
            return out
        }
        #expect(try ids(QuerySpec(soup: "accounts", path: "Id", predicate: .exact("001000000000005"))) == [6])
        #expect(
            try ids(QuerySpec(soup: "accounts", path: "NumberOfEmployees", predicate: .range(begin: "9", end: "11")))
                == [10, 11, 12]
        )
        #expect(try ids(QuerySpec(soup: "accounts", path: "Name", predicate: .like("account 1_"))).count == 10)
        #expect(try ids(QuerySpec(soup: "accounts", path: "Name", predicate: .match("17"))) == [18])
        #expect(
            try ids(
                QuerySpec(
                    soup: "accounts",
                    path: "Industry",
                    predicate: .exact("Industry 2"),
                    orderPath: "Id",
                    order: .descending
                )
            )
                == [18, 13, 8, 3]
        )
        #expect(try ids(QuerySpec(soup: "accounts")).count == 20)
    }

    @Test func exportStreamsInEntryIDOrder() throws {
        let temporary = try TestFixtures.store()
        defer { temporary.remove() }
        _ = try temporary.store.write { writer in
            try writer.upsert(entries: TestFixtures.accountRecords(0..<5000), into: "accounts")
        }
        try temporary.store.write { writer in
            // Updating early entries must not change the order.
            _ = try writer.upsert(#"{"_soupEntryId":2,"Id":"changed"}"#, into: "accounts")
        }
        var previous: Int64 = 0
        var count = 0
        try temporary.store.read { reader in
            try reader.forEachEntry(in: "accounts") { entry in
                #expect(entry.entryID > previous)
                previous = entry.entryID
                count += 1
            }
        }
        #expect(count == 5000)
    }

    @Test func dirtyEntriesAndCleanIDsPage() throws {
        let temporary = try filledStore(10)
        defer { temporary.remove() }
        let store = temporary.store
        try store.write { writer in
            for id in ["001000000000002", "001000000000007", "001000000000009"] {
                try writer.markEntries(.updated, in: "accounts", where: EntryFilter(path: "Id", value: id))
            }
        }
        let firstPage = try store.read { try $0.dirtyEntries(in: "accounts", limit: 2) }
        #expect(firstPage.map(\.entryID) == [3, 8])
        let secondPage = try store.read { try $0.dirtyEntries(in: "accounts", afterEntryID: 8, limit: 2) }
        #expect(secondPage.map(\.entryID) == [10])
        var batches: [[String]] = []
        try store.read { try $0.forEachCleanID(in: "accounts", idPath: "Id", batchSize: 3) { batches.append($0) } }
        #expect(batches.map(\.count) == [3, 3, 1])
        #expect(batches.first?.first == "001000000000000")
    }
}
