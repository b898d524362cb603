import Foundation
import GRDB
import SoupStore
import SyncrunTestSupport
import Testing

struct UpsertTests {
    @Test func createAssignsIDAndTimesInTheDocument() throws {
        let temporary = try TestFixtures.store()
        defer { temporary.remove() }
        let entry = try temporary.store.write { try $0.upsert(#"{"Id":"001A","Name":"Acme"}"#, into: "accounts") }
        #expect(entry.entryID == 1)
        #expect(entry.created == entry.lastModified)
        let document = try JSONSerialization.jsonObject(with: Data(entry.json.utf8)) as? [String: Any]
        #expect(document?["_soupEntryId"] as? Int == 1)
        #expect((document?["_soupLastModifiedDate"] as? NSNumber)?.int64Value == entry.lastModified)
        #expect(document?["Name"] as? String == "Acme")
    }

    @Test func upsertByEntryIDReplacesTheWholeDocument() throws {
        let temporary = try TestFixtures.store()
        defer { temporary.remove() }
        try temporary.store.write { writer in
            let first = try writer.upsert(#"{"Id":"001A","Name":"Acme","Phone":"1"}"#, into: "accounts")
            let second = try writer.upsert(#"{"_soupEntryId":1,"Id":"001A","Name":"Acme 2"}"#, into: "accounts")
            #expect(second.entryID == first.entryID)
            #expect(second.created == first.created)
            #expect(!second.json.contains("Phone"))
            #expect(try writer.reader.entryCount(in: "accounts") == 1)
        }
    }

    @Test func upsertByExternalIDUpdatesTheMatchingEntry() throws {
        let temporary = try TestFixtures.store()
        defer { temporary.remove() }
        try temporary.store.write { writer in
            let first = try writer.upsert(#"{"Id":"001A","Name":"Acme"}"#, into: "accounts", byExternalIDPath: "Id")
            let second = try writer.upsert(#"{"Id":"001A","Name":"Acme 2"}"#, into: "accounts", byExternalIDPath: "Id")
            let third = try writer.upsert(#"{"Id":"001B","Name":"Other"}"#, into: "accounts", byExternalIDPath: "Id")
            #expect(second.entryID == first.entryID)
            #expect(third.entryID == 2)
            #expect(second.json.contains(#""_soupEntryId":1"#))
        }
    }

    @Test func externalIDOnAJSON1IndexMatchesNumbersToo() throws {
        let soup = SoupSpec(name: "items", indexes: [IndexSpec(path: "code", type: .json1)])
        let temporary = try TestFixtures.store([soup])
        defer { temporary.remove() }
        try temporary.store.write { writer in
            _ = try writer.upsert(#"{"code":42,"v":1}"#, into: "items", byExternalIDPath: "code")
            _ = try writer.upsert(#"{"code":42,"v":2}"#, into: "items", byExternalIDPath: "code")
            #expect(try writer.reader.entryCount(in: "items") == 1)
        }
    }

    @Test func upsertByExternalIDRejectsMissingUnindexedAndAmbiguousKeys() throws {
        let temporary = try TestFixtures.store()
        defer { temporary.remove() }
        let store = temporary.store
        #expect(throws: SoupStoreError.self) {
            try store.write { try $0.upsert(#"{"Name":"no id"}"#, into: "accounts", byExternalIDPath: "Id") }
        }
        do {
            try store.write { _ = try $0.upsert(#"{"Id":"1"}"#, into: "accounts", byExternalIDPath: "Phone") }
            Issue.record("expected an error")
        } catch let error as SoupStoreError {
            #expect(error.code == .invalidPath)
            #expect(error.message.hasPrefix("soup 'accounts' has no index on 'Phone'"))
        }
        try store.write { writer in
            _ = try writer.upsert(#"{"Id":"dup"}"#, into: "accounts")
            _ = try writer.upsert(#"{"Id":"dup"}"#, into: "accounts")
        }
        do {
            try store.write { _ = try $0.upsert(#"{"Id":"dup"}"#, into: "accounts", byExternalIDPath: "Id") }
            Issue.record("expected an error")
        } catch let error as SoupStoreError {
            #expect(error.code == .ambiguousExternalID)
            #expect(
                error.message
                    == "entry 1: 2 entries of soup 'accounts' share its value at 'Id'; an upsert by 'Id' needs it "
                    + "to be unique (delete the duplicates first)"
            )
        }
    }

    @Test func indexColumnsFollowTheDocumentAfterUpdates() throws {
        let temporary = try TestFixtures.store()
        defer { temporary.remove() }
        try temporary.store.write { writer in
            _ = try writer.upsert(
                #"{"Id":"A","NumberOfEmployees":10,"AnnualRevenue":2,"Name":"Acme","__local__":true}"#,
                into: "accounts"
            )
            _ = try writer.upsert(
                #"{"_soupEntryId":1,"Id":"B","NumberOfEmployees":12.9,"AnnualRevenue":"x","Name":"Beta","__local__":false}"#,
                into: "accounts"
            )
        }
        let rows = try SystemSQLite.lines(
            temporary.path,
            "SELECT TABLE_1_0, TABLE_1_1, quote(TABLE_1_2), TABLE_1_4, TABLE_1_5 FROM TABLE_1; "
                + "SELECT rowid, TABLE_1_4 FROM TABLE_1_fts;"
        )
        #expect(rows == ["B|12|NULL|Beta|false", "1|Beta"])
    }

    @Test func booleansAndValuesProjectTheAndroidWay() throws {
        let soup = SoupSpec(
            name: "values",
            indexes: [
                IndexSpec(path: "flag", type: .string), IndexSpec(path: "number", type: .string),
                IndexSpec(path: "list", type: .string), IndexSpec(path: "a.b.c", type: .string),
                IndexSpec(path: "missing", type: .integer),
            ]
        )
        let temporary = try TestFixtures.store([soup])
        defer { temporary.remove() }
        try temporary.store.write { writer in
            _ = try writer.upsert(
                #"{"flag":true,"number":1.5,"list":[1,"x"],"a":{"b":[{"c":"xx"},{"c":"xy"},{"d":1}]}}"#,
                into: "values"
            )
        }
        let rows = try SystemSQLite.lines(
            temporary.path,
            "SELECT TABLE_1_0, TABLE_1_1, TABLE_1_2, TABLE_1_3, quote(TABLE_1_4) FROM TABLE_1"
        )
        #expect(rows == [#"true|1.5|[1,"x"]|["xx","xy"]|NULL"#])
    }

    @Test func batchUpsertIsAllOrNothing() throws {
        let temporary = try TestFixtures.store()
        defer { temporary.remove() }
        let store = temporary.store
        do {
            _ = try store.write { try $0.upsert(entries: #"[{"Id":"1"}, 7, {"Id":"3"}]"#, into: "accounts") }
            Issue.record("expected an error")
        } catch let error as SoupStoreError {
            #expect(error.code == .notAnObject)
            #expect(error.message == "entry 2 is not an object (found integer); every entry must be a JSON object")
        }
        do {
            _ = try store.write { try $0.upsert(entries: "[{\"Id\":\"1\"},\n {\"Id\" \"2\"}]", into: "accounts") }
            Issue.record("expected an error")
        } catch let error as SoupStoreError {
            #expect(error.code == .malformedJSON)
            #expect(error.message == "malformed JSON at line 2 column 8: expected ':' after the key 'Id', found '\"'")
        }
        #expect(try store.read { try $0.entryCount(in: "accounts") } == 0)
        let counts = try store.write { try $0.upsert(entries: TestFixtures.accountRecords(0..<5), into: "accounts") }
        #expect(counts == UpsertCounts(inserted: 5, updated: 0))
    }

    @Test func importKeepsGivenEntryIDsAndContinuesTheSequence() throws {
        let temporary = try TestFixtures.store()
        defer { temporary.remove() }
        let counts = try temporary.store.write { writer in
            try writer.upsert(
                entries: #"[{"_soupEntryId":10,"Id":"a"},{"Id":"b"},{"_soupEntryId":3,"Id":"c"}]"#,
                into: "accounts"
            )
        }
        #expect(counts == UpsertCounts(inserted: 3, updated: 0))
        var ids: [Int64] = []
        try temporary.store.read { try $0.forEachEntry(in: "accounts") { ids.append($0.entryID) } }
        #expect(ids == [3, 10, 11])
        let again = try temporary.store.write { writer in
            try writer.upsert(entries: #"[{"_soupEntryId":10,"Id":"a2"}]"#, into: "accounts")
        }
        #expect(again == UpsertCounts(inserted: 0, updated: 1))
    }

    @Test func deleteClearAndDrop() throws {
        let temporary = try TestFixtures.store()
        defer { temporary.remove() }
        let store = temporary.store
        _ = try store.write { try $0.upsert(entries: TestFixtures.accountRecords(0..<10), into: "accounts") }
        try store.write { (writer: SoupWriter) throws in
            #expect(try writer.deleteEntries([1, 2, 99], from: "accounts") == 2)
            #expect(
                try writer.deleteEntries(
                    from: "accounts",
                    wherePath: "Id",
                    isIn: ["001000000000009", "001000000000008"]
                ) == 2
            )
            #expect(try writer.reader.entryCount(in: "accounts") == 6)
        }
        #expect(try SystemSQLite.lines(temporary.path, "SELECT count(*) FROM TABLE_1_fts") == ["6"])
        try store.write { try $0.clearSoup("accounts") }
        #expect(try SystemSQLite.lines(temporary.path, "SELECT count(*) FROM TABLE_1_fts") == ["0"])
        let next = try store.write { try $0.upsert(#"{"Id":"x"}"#, into: "accounts") }
        #expect(next.entryID == 11)
        try store.write { try $0.dropSoup("accounts") }
        #expect(try store.read { try $0.hasSoup("accounts") } == false)
        #expect(try SystemSQLite.lines(temporary.path, "SELECT count(*) FROM soup_index_map") == ["0"])
    }
}
