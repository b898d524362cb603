import Foundation
import GRDB
import SyncrunTestSupport
import Testing

@testable import SoupStore

/// The one-pass page upsert must leave exactly what the set-based SQL path leaves: same rows,
/// same columns (values and types), same FTS rows, same record-syncs rows, same counts.
struct DirectPageUpsertTests {
    static let soup = SoupSpec(
        name: "mixed",
        indexes: [
            IndexSpec(path: "Id", type: .string), IndexSpec(path: "Name", type: .fullText),
            IndexSpec(path: "NumberOfEmployees", type: .integer), IndexSpec(path: "AnnualRevenue", type: .floating),
            IndexSpec(path: "Industry", type: .json1), IndexSpec(path: "__local__", type: .string),
            IndexSpec(path: "__sync_id__", type: .integer), IndexSpec(path: "Flag", type: .string),
            IndexSpec(path: "Nested", type: .string), IndexSpec(path: "Count", type: .string),
            IndexSpec(path: "Ratio", type: .floating), IndexSpec(path: "LastModifiedDate", type: .string),
            IndexSpec(path: "_soupEntryId", type: .integer), IndexSpec(path: "__locally_deleted__", type: .integer),
        ]
    )

    static func record(_ number: Int, name: String? = nil, extra: String = "") -> String {
        let id = String(format: "001%012d", number)
        let flag = number % 3 == 0 ? "true" : number % 3 == 1 ? "false" : "null"
        return """
            {"attributes":{"type":"Account","url":"/x/\(id)"},"Id":"\(id)","Name":"\(name ?? "Account \(number)")",\
            "NumberOfEmployees":\(number * 7 - 20),"AnnualRevenue":\(number % 2 == 0 ? "\(number)" : "\(Double(number) * 1.25 + 0.1)"),\
            "Industry":"Industry \(number % 5)","Flag":\(flag),"Nested":{"a":[1,2,{"b":"c"}],"d":null},\
            "Count":\(number - 3),"Ratio":\(number % 4 == 0 ? "1e2" : "-0.5E-3"),\
            "LastModifiedDate":"2024-01-01T00:\(String(format: "%02d", number % 60)):00.000+0000"\(extra)}
            """
    }

    static func page(_ records: [String]) -> String {
        #"{"totalSize":99,"done":true,"records":["# + records.joined(separator: ",") + "]}"
    }

    /// Applies `page` to `direct` through DirectPageUpsert and to `sql` through BatchUpsert +
    /// the set-based key insert, both with the record-syncs table as the page's keys target;
    /// returns whether the direct path handled it.
    static func apply(
        _ page: String,
        direct: SoupStore,
        sql: SoupStore,
        leaveIfChanged: Bool = false,
        syncID: Int64 = 4
    ) throws -> Bool {
        let now: Int64 = 1_700_000_000_123
        let keys = PageKeysTarget(
            insertSQL: "INSERT OR IGNORE INTO syncrun_record_syncs (soup_name, record_id, sync_id) VALUES (?1, ?2, ?3)",
            value: syncID
        )
        let first = try direct.write { writer -> BatchUpsert.Result? in
            let layout = try writer.layout("mixed")
            let upsert = DirectPageUpsert(
                keyPath: "Id",
                syncID: syncID,
                localEntries: leaveIfChanged ? .keep : .overwrite,
                modificationDateField: "LastModifiedDate",
                keys: keys
            )
            if let result = try upsert.run(writer.db, layout: layout, page: page, now: now) { return result }
            let fallback = BatchUpsert(
                key: .path("Id"),
                control: .serverRecord(syncID: syncID),
                localEntries: leaveIfChanged ? .keep : .overwrite,
                modificationDateField: "LastModifiedDate"
            )
            _ = try fallback.run(writer.db, layout: layout, source: page, now: now)
            try keys.insertKeys(writer.db, of: page, soup: "mixed", keyPath: "Id")
            return nil
        }
        let second = try sql.write { writer -> BatchUpsert.Result in
            let upsert = BatchUpsert(
                key: .path("Id"),
                control: .serverRecord(syncID: syncID),
                localEntries: leaveIfChanged ? .keep : .overwrite,
                modificationDateField: "LastModifiedDate"
            )
            let result = try upsert.run(writer.db, layout: try writer.layout("mixed"), source: page, now: now)
            try keys.insertKeys(writer.db, of: page, soup: "mixed", keyPath: "Id")
            return result
        }
        if let first {
            #expect(first.inserted == second.inserted)
            #expect(first.updated == second.updated)
            #expect(first.skipped == second.skipped)
            #expect(first.unchanged == second.unchanged)
            #expect(first.maxModificationDate == second.maxModificationDate)
        }
        return first != nil
    }

    static func dump(_ store: SoupStore) throws -> [String] {
        try store.read { reader in
            var lines: [String] = []
            for sql in [
                "SELECT * FROM TABLE_1 ORDER BY id", "SELECT rowid, * FROM TABLE_1_fts ORDER BY rowid",
                "SELECT * FROM syncrun_record_syncs ORDER BY soup_name, record_id, sync_id",
                "SELECT name, seq FROM sqlite_sequence ORDER BY name",
            ] {
                for row in try Row.fetchAll(reader.db, sql: sql) {
                    lines.append(
                        row.databaseValues.map { value -> String in
                            switch value.storage {
                            case .null: "NULL"
                            case .int64(let v): "i:\(v)"
                            case .double(let v): "r:\(v)"
                            case .string(let v): "t:\(v)"
                            case .blob(let v): "b:\(v.count)"
                            }
                        }.joined(separator: "|")
                    )
                }
                lines.append("--")
            }
            return lines
        }
    }

    @Test func matchesTheSQLPathOnInsertsUpdatesDuplicatesAndLocalChanges() throws {
        let direct = try TemporaryStore(soups: [Self.soup])
        let sql = try TemporaryStore(soups: [Self.soup])
        defer {
            direct.remove()
            sql.remove()
        }
        // Inserts, with a duplicate id (the last wins) and an empty nested value.
        var records = (0..<40).map { Self.record($0) }
        records.append(Self.record(5, name: "Five again"))
        #expect(try Self.apply(Self.page(records), direct: direct.store, sql: sql.store))
        // Local changes on some entries, on both stores.
        for store in [direct.store, sql.store] {
            try store.write { writer in
                try writer.markEntries(.updated, in: "mixed", where: EntryFilter(path: "Id", value: "001000000000003"))
                try writer.markEntries(.updated, in: "mixed", where: EntryFilter(path: "Id", value: "001000000000010"))
            }
        }
        // Updates and inserts, leaving changed entries alone.
        let second = (0..<60).filter { $0 % 2 == 1 }.map { Self.record($0, name: "Renamed \($0)") }
        #expect(
            try Self.apply(Self.page(second), direct: direct.store, sql: sql.store, leaveIfChanged: true, syncID: 9)
        )
        // Overwrite.
        let third = (0..<12).map { Self.record($0, name: "Third \($0)") }
        #expect(try Self.apply(Self.page(third), direct: direct.store, sql: sql.store))
        #expect(try Self.dump(direct.store) == Self.dump(sql.store))
    }

    /// Issue 31 item 2: a record the server sends again exactly as stored (the tie-safe resync
    /// re-reads the records at its watermark) is neither rewritten nor counted as updated, on the
    /// one-pass path, the SQL path and the dry-run preview alike; any difference (a field, the
    /// sync id, a local change being overwritten) is still an update.
    @Test func aRecordSentAgainUnchangedIsNeitherRewrittenNorCountedAsUpdated() throws {
        let direct = try TemporaryStore(soups: [Self.soup])
        let sql = try TemporaryStore(soups: [Self.soup])
        defer {
            direct.remove()
            sql.remove()
        }
        let records = (0..<10).map { Self.record($0) }
        #expect(try Self.apply(Self.page(records), direct: direct.store, sql: sql.store))
        let before = try Self.dump(direct.store)

        func preview(_ page: String, syncID: Int64 = 4) throws -> PagePreviewResult {
            try direct.store.read { reader in
                try reader.previewPage(
                    page,
                    in: "mixed",
                    options: PageUpsertOptions(localEntries: .overwrite, syncID: syncID)
                )
            }
        }
        // The same page again: nothing would change, and nothing does.
        let again = Self.page(Array(records[7...]) + [Self.record(3)])
        let seen = try preview(again)
        #expect(seen.unchanged == 4 && seen.updated == 0 && seen.inserted == 0)
        let counts = try direct.store.write { writer in
            try writer.upsertPage(again, into: "mixed", options: PageUpsertOptions(localEntries: .overwrite, syncID: 4))
        }
        #expect(counts.unchanged == 4 && counts.updated == 0 && counts.saved == 0)
        #expect(try Self.dump(direct.store) == before)
        #expect(try Self.apply(again, direct: direct.store, sql: sql.store))
        #expect(try Self.dump(direct.store) == Self.dump(sql.store))

        // One field changed, another sync's id, and a local change overwritten: three updates.
        for store in [direct.store, sql.store] {
            _ = try store.write { writer in
                try writer.markEntries(.updated, in: "mixed", where: EntryFilter(path: "Id", value: "001000000000001"))
            }
        }
        let changed = Self.page([Self.record(2, name: "Two renamed"), Self.record(1), Self.record(0)])
        let other = try preview(changed)
        #expect(other.updated == 2 && other.unchanged == 1)
        #expect(try preview(Self.page([Self.record(0)]), syncID: 8).updated == 1)
        #expect(try Self.apply(changed, direct: direct.store, sql: sql.store))
        #expect(try Self.dump(direct.store) == Self.dump(sql.store))
        let result = try direct.store.write { writer in
            try writer.upsertPage(
                Self.page([Self.record(0)]),
                into: "mixed",
                options: PageUpsertOptions(localEntries: .overwrite, syncID: 8)
            )
        }
        #expect(result.updated == 1 && result.unchanged == 0)
    }

    @Test func updatesAssignOnlyTheIndexColumnsWhoseValueChanges() throws {
        let direct = try TemporaryStore(soups: [Self.soup])
        let sql = try TemporaryStore(soups: [Self.soup])
        defer {
            direct.remove()
            sql.remove()
        }
        #expect(try Self.apply(Self.page((0..<6).map { Self.record($0) }), direct: direct.store, sql: sql.store))
        // `UPDATE OF column` triggers fire only when a statement assigns the column: they log, per
        // entry, the index columns each update wrote (and so rewrote in its SQL index).
        let columns = try direct.store.read { reader in
            try Row.fetchAll(
                reader.db,
                sql: "SELECT path, columnName FROM soup_index_map WHERE soupName = 'mixed' AND columnType != 'json1'"
            )
            .map { (path: $0["path"] as String, column: $0["columnName"] as String) }
        }
        try direct.store.write { writer in
            try writer.db.execute(sql: "CREATE TABLE assigned (id INTEGER, path TEXT)")
            for (path, column) in columns {
                try writer.db.execute(
                    sql: """
                        CREATE TRIGGER assigned_\(column) AFTER UPDATE OF \(column) ON TABLE_1 \
                        BEGIN INSERT INTO assigned VALUES (new.id, '\(path)'); END
                        """
                )
            }
        }
        // Entry 1: same values; entry 2: renamed; entry 3: Count changes type (integer to text);
        // entry 4: a new modification date and no Flag (was false, now absent).
        let second = [
            Self.record(0),
            Self.record(1, name: "Renamed"),
            Self.record(2).replacingOccurrences(of: #""Count":-1"#, with: #""Count":"minus one""#),
            Self.record(3).replacingOccurrences(of: #""Flag":true,"#, with: "")
                .replacingOccurrences(of: "00:03:00.000", with: "00:59:59.000"),
        ]
        #expect(try Self.apply(Self.page(second), direct: direct.store, sql: sql.store, syncID: 4))
        let assigned = try direct.store.read { reader in
            try Row.fetchAll(reader.db, sql: "SELECT id, path FROM assigned ORDER BY id, path")
                .map { "\($0["id"] as Int64):\($0["path"] as String)" }
        }
        // Ratio, and AnnualRevenue of odd records, are decimal tokens: SQLite converts the text for
        // their REAL columns, so they are always assigned (never compared with a Swift parse).
        // Entry 1 came again unchanged: not rewritten at all. Every unchanged column of the others
        // is left alone.
        #expect(
            assigned == [
                "2:AnnualRevenue", "2:Name", "2:Ratio", "3:Count", "3:Ratio", "4:AnnualRevenue", "4:Flag",
                "4:LastModifiedDate", "4:Ratio",
            ],
            "\(assigned)"
        )
        // Whatever was skipped, both paths leave the same rows, columns and types.
        try direct.store.write { writer in try writer.db.execute(sql: "DROP TABLE assigned") }
        #expect(try Self.dump(direct.store) == Self.dump(sql.store))
    }

    @Test func declinesWhatOnlySQLiteConvertsExactly() throws {
        let direct = try TemporaryStore(soups: [Self.soup])
        let sql = try TemporaryStore(soups: [Self.soup])
        defer {
            direct.remove()
            sql.remove()
        }
        let declined = [
            Self.record(1, extra: #","__last_error__":"boom""#),  // a control key in the record
            Self.record(2, name: #"Quote \" inside"#),  // escaped string in a string column
            Self.record(3).replacingOccurrences(of: #""Count":0"#, with: #""Count":1.5"#),  // real in a string column
            Self.record(4).replacingOccurrences(of: #","Flag""#, with: #", "Flag""#),  // whitespace
            Self.record(5).replacingOccurrences(of: #""NumberOfEmployees":15"#, with: #""NumberOfEmployees":1.5"#),
        ]
        for record in declined {
            #expect(try !Self.apply(Self.page([Self.record(20), record]), direct: direct.store, sql: sql.store))
        }
        #expect(try Self.apply(Self.page([Self.record(21), Self.record(22)]), direct: direct.store, sql: sql.store))
        #expect(try Self.dump(direct.store) == Self.dump(sql.store))
    }

    @Test func handlesArrayPagesAndEmptyPages() throws {
        let direct = try TemporaryStore(soups: [Self.soup])
        let sql = try TemporaryStore(soups: [Self.soup])
        defer {
            direct.remove()
            sql.remove()
        }
        #expect(
            try Self.apply(
                "[" + (0..<5).map { Self.record($0) }.joined(separator: ",") + "]",
                direct: direct.store,
                sql: sql.store
            )
        )
        #expect(try Self.apply(#"{"totalSize":0,"done":true,"records":[]}"#, direct: direct.store, sql: sql.store))
        #expect(try Self.apply(" [ ] ", direct: direct.store, sql: sql.store))
        #expect(try Self.dump(direct.store) == Self.dump(sql.store))
    }
}
