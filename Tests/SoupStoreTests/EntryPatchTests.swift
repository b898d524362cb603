import Foundation
import JSONCore
import SoupStore
import SyncrunTestSupport
import Testing

/// `SoupWriter.patchEntries` and `setMember`: set-based rewrites of some members of stored documents.
struct EntryPatchTests {
    private static func document(_ entry: SoupEntry?) throws -> [String: Any] {
        let json = try #require(entry?.json)
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    @Test func patchMergesMembersAndRecomputesTheirIndexColumns() throws {
        let temporary = try TestFixtures.store()
        defer { temporary.remove() }
        let store = temporary.store
        try store.write {
            _ = try $0.upsert(
                entries: TestFixtures.accountRecords(0..<3, extra: #","__local__":true"#),
                into: "accounts"
            )
        }
        let before = try store.read { try $0.entries(withIDs: [1, 2, 3], in: "accounts") }
        #expect(before.map(\.entryID) == [1, 2, 3])

        let result = try store.write { writer in
            try writer.patchEntries(
                [
                    1: ["Id": .string("001NEW"), "__local__": .bool(false), "Industry": .null],
                    3: ["Name": .string("Renamed Holdings")],
                    99: ["Name": .string("nobody")],
                ],
                in: "accounts"
            )
        }

        #expect(result.previousLastModified == [1: before[0].lastModified, 3: before[2].lastModified])
        let after = try store.read { try $0.entries(withIDs: [1, 2, 3, 99], in: "accounts") }
        #expect(after.map(\.entryID) == [1, 2, 3])
        let first = try Self.document(after.first)
        #expect(first["Id"] as? String == "001NEW")
        #expect(first["__local__"] as? Bool == false)
        #expect(first["Industry"] == nil)
        #expect(first["Name"] as? String == "Account 0")  // members outside the patch are kept
        #expect((first["_soupLastModifiedDate"] as? NSNumber)?.int64Value == result.lastModified)
        #expect(after[0].lastModified == result.lastModified)
        #expect(after[1] == before[1])  // not patched: not rewritten
        // The index columns follow the documents.
        let byID = try store.read { try $0.entries(in: "accounts", wherePath: "Id", isIn: ["001NEW"]) }
        #expect(byID.map(\.entryID) == [1])
        #expect(try store.read { try $0.dirtyEntries(in: "accounts") }.map(\.entryID) == [2, 3])
        #expect(
            try SystemSQLite.lines(temporary.path, "SELECT rowid FROM TABLE_1_fts WHERE TABLE_1_fts MATCH 'Renamed'")
                == ["3"]
        )
        #expect(try store.read { try $0.lastModifiedDates(of: [1, 2, 99], in: "accounts") }.count == 2)
    }

    /// Whatever a patch holds (objects merged into objects, an object replacing a scalar, arrays,
    /// nulls, nested and fanned-out paths, every column type), the patched entry's index columns
    /// are those of an entry stored fresh with the resulting document.
    @Test func patchedIndexColumnsEqualThoseOfTheSameDocumentStoredFresh() throws {
        let things = SoupSpec(
            name: "things",
            indexes: [
                IndexSpec(path: "attributes.type", type: .string), IndexSpec(path: "Owner", type: .string),
                IndexSpec(path: "Count", type: .integer), IndexSpec(path: "Score", type: .floating),
                IndexSpec(path: "Tags.name", type: .string), IndexSpec(path: "Kind", type: .json1),
                IndexSpec(path: "Flag", type: .string), IndexSpec(path: "Title", type: .fullText),
                IndexSpec(path: "Untouched", type: .string),
            ]
        )
        let temporary = try TestFixtures.store([things])
        defer { temporary.remove() }
        let store = temporary.store
        let original = """
            [{"attributes":{"type":"Thing","url":"/x"},"Owner":"ann","Count":1,"Score":2.5,\
            "Tags":[{"name":"a"}],"Kind":"k","Flag":false,"Title":"first words","Untouched":"u"},\
            {"Owner":{"name":"bob"},"Count":"7","Title":"second","Untouched":"v"}]
            """
        try store.write { _ = try $0.upsert(entries: original, into: "things") }
        try store.write { writer in
            _ = try writer.patchEntries(
                [
                    1: [
                        "attributes": ["url": .string("/y")], "Owner": ["name": .string("carol")],
                        "Count": .integer(42), "Score": .null, "Tags": [["name": "x"], ["name": "y"]],
                        "Kind": ["nested": true], "Flag": .bool(true), "Title": .string("renamed words"),
                    ],
                    2: ["Owner": .string("dan"), "Count": .number(3.75), "Flag": .string("yes")],
                ],
                in: "things"
            )
        }
        // Store each patched document again as a new entry: its columns are the reference.
        let patched = try store.read { try $0.entries(withIDs: [1, 2], in: "things") }
        let copies = try patched.map { entry -> String in
            var document = try Self.document(entry)
            for member in ["_soupEntryId", "_soupLastModifiedDate", "_soupCreatedDate"] { document[member] = nil }
            return String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self)
        }
        try store.write { _ = try $0.upsert(entries: "[" + copies.joined(separator: ",") + "]", into: "things") }
        // Every index column (json1 indexes are expressions on the document, not columns).
        let names = try SystemSQLite.lines(
            temporary.path,
            "SELECT columnName FROM soup_index_map WHERE soupName = 'things' AND columnName LIKE 'TABLE_1_%'"
        )
        #expect(names.count == things.indexes.count - 1)
        let columns = names.map { "quote(\($0))" }.joined(separator: " || '|' || ")
        let rows = try SystemSQLite.lines(temporary.path, "SELECT \(columns) FROM TABLE_1 ORDER BY id")
        #expect(rows.count == 4)
        #expect(rows[0] == rows[2])
        #expect(rows[1] == rows[3])
        #expect(rows[0].hasPrefix("'Thing'|'{\"name\":\"carol\"}'|42|NULL|"))
        #expect(
            try SystemSQLite.lines(temporary.path, "SELECT rowid FROM TABLE_1_fts WHERE TABLE_1_fts MATCH 'renamed'")
                == ["1", "3"]
        )
    }

    /// Stamps the caller read in the same transaction stand for the read: an entry absent from
    /// them is not written, and only patched entries are reported.
    @Test func patchWithKnownStampsWritesOnlyTheEntriesTheyHold() throws {
        let temporary = try TestFixtures.store()
        defer { temporary.remove() }
        let store = temporary.store
        try store.write { _ = try $0.upsert(entries: TestFixtures.accountRecords(0..<3), into: "accounts") }
        let result = try store.write { writer in
            let stamps = try writer.reader.lastModifiedDates(of: [1, 2, 3], in: "accounts")
            var known = stamps
            known[2] = nil
            return try writer.patchEntries(
                [1: ["Name": .string("One")], 2: ["Name": .string("Two")]],
                in: "accounts",
                lastModified: known
            )
        }
        #expect(Set(result.previousLastModified.keys) == [1])
        let names = try store.read { try $0.entries(withIDs: [1, 2, 3], in: "accounts") }.map {
            try Self.document($0)["Name"] as? String
        }
        #expect(names == ["One", "Account 1", "Account 2"])
    }

    @Test func setMemberReplacesTheWholeValueAndKeepsJSONKinds() throws {
        let temporary = try TestFixtures.store()
        defer { temporary.remove() }
        let store = temporary.store
        let intent = #","__syncrun_update__":{"at":1,"attempt":1,"fields":{"Name":"a","Phone":"b"}}"#
        try store.write {
            _ = try $0.upsert(entries: TestFixtures.accountRecords(0..<2, extra: intent), into: "accounts")
        }

        let result = try store.write { writer in
            try writer.setMember(
                "__syncrun_update__",
                to: [
                    1: ["at": .integer(2), "attempt": .integer(2), "fields": .object(["Name": .string("c")])],
                    2: .bool(true),
                ],
                in: "accounts"
            )
        }

        #expect(result.previousLastModified.keys.sorted() == [1, 2])
        let entries = try store.read { try $0.entries(withIDs: [1, 2], in: "accounts") }
        let first = try Self.document(entries.first)
        let replaced = try #require(first["__syncrun_update__"] as? [String: Any])
        #expect(replaced["attempt"] as? Int == 2)
        #expect(replaced["fields"] as? [String: String] == ["Name": "c"])  // not merged with the old fields
        #expect(first["Name"] as? String == "Account 0")
        #expect(try #require(entries.last?.json).contains(#""__syncrun_update__":true"#))
        #expect(entries.allSatisfy { $0.lastModified == result.lastModified })
    }
}
