import Foundation
import SoupStore
import SyncrunTestSupport
import Testing

/// The Smart SQL and SQL syncrun builds from soup names, index paths and values, against quotes,
/// backslashes, comments and keywords (issue 20 item 5): names that are not names are refused
/// before any SQL is written, and values are bound, never spliced.
struct SmartSQLInjectionTests {
    /// Names an attacker (or a careless config) could give.
    static let hostileNames = [
        "Name'", "Name') OR 1=1 --", "Name\\", "Name -- comment", "Name/* c */", "Name; DROP TABLE soup_attrs",
        "Name}", "Name FROM", "accounts} UNION SELECT 1 --", "a..b", ".Name", "Name.", "",
    ]

    /// Values that must be compared as data.
    static let hostileValues = [
        "O'Brien", "x' OR '1'='1", "back\\slash", "trailing\\", "-- not a comment", "/* not a comment */",
        "SELECT * FROM soup_attrs", "'; DROP TABLE soup_attrs; --", "{accounts:Name}", "%", "_",
    ]

    private static func storeWithHostileValues() throws -> TemporaryStore {
        let temporary = try TemporaryStore(soups: [
            SoupSpec(
                name: "accounts",
                indexes: [
                    IndexSpec(path: "Id", type: .string), IndexSpec(path: "Name", type: .string),
                    IndexSpec(path: "Industry", type: .json1), IndexSpec(path: "Description", type: .fullText),
                ]
            )
        ])
        let records = hostileValues.enumerated().map { index, value in
            let id = String(format: "001%012d", index)
            return JSONValueText.object(["Id": id, "Name": value, "Industry": value, "Description": "plain"])
        }
        _ = try temporary.store.write {
            try $0.upsertPage("[" + records.joined(separator: ",") + "]", into: "accounts")
        }
        return temporary
    }

    /// Index paths that are not paths are refused before any SQL; soup names are data (SmartStore
    /// allows any name, stored in `soup_attrs` and never written into SQL: the table is `TABLE_N`).
    @Test func hostileIndexPathsAreRefusedAndHostileSoupNamesStayData() throws {
        let temporary = try TemporaryStore(soups: [])
        defer { temporary.remove() }
        for name in Self.hostileNames {
            #expect(throws: SoupStoreError.self, "index path \(name)") {
                try temporary.store.write {
                    _ = try $0.registerSoup(SoupSpec(name: "s", indexes: [IndexSpec(path: name, type: .json1)]))
                }
            }
        }
        #expect(try temporary.store.read { try $0.soups() }.isEmpty)
        var registered: [String] = []
        for name in Self.hostileNames {
            let spec = SoupSpec(name: name, indexes: [IndexSpec(path: "Id", type: .string)])
            guard (try? temporary.store.write({ _ = try $0.registerSoup(spec) })) != nil else { continue }
            registered.append(name)
            _ = try temporary.store.write { try $0.upsertPage(#"[{"Id": "001"}]"#, into: name) }
            // Reading it back through Smart SQL either finds the one entry or is refused; it never
            // reaches another soup's rows.
            let count = try? temporary.store.read { reader in
                var count = 0
                try reader.forEachEntry(matching: QuerySpec(soup: name)) { _ in count += 1 }
                return count
            }
            #expect(count == nil || count == 1, "soup \(name)")
        }
        #expect(Set(try temporary.store.read { try $0.soups() }.map(\.name)) == Set(registered))
        #expect(try SystemSQLite.lines(temporary.path, "PRAGMA integrity_check") == ["ok"])
    }

    @Test func smartSQLPathsAndSoupsThatAreNotNamesAreRefused() throws {
        let temporary = try Self.storeWithHostileValues()
        defer { temporary.remove() }
        for name in Self.hostileNames where !name.isEmpty {
            #expect(throws: SoupStoreError.self, "path \(name)") {
                try temporary.store.read { reader in
                    try reader.query("SELECT {accounts:\(name)} FROM {accounts}") { _ in }
                }
            }
            #expect(throws: SoupStoreError.self, "query spec path \(name)") {
                try temporary.store.read { reader in
                    try reader.forEachEntry(matching: QuerySpec(soup: "accounts", path: name, predicate: .exact("x"))) {
                        _ in
                    }
                }
            }
            #expect(throws: SoupStoreError.self, "lookup path \(name)") {
                try temporary.store.read { _ = try $0.entries(in: "accounts", wherePath: name, isIn: ["x"]) }
            }
            #expect(throws: SoupStoreError.self, "soup \(name)") {
                try temporary.store.read { reader in
                    try reader.forEachEntry(matching: QuerySpec(soup: name)) { _ in }
                }
            }
        }
        #expect(try temporary.store.read { try $0.entryCount(in: "accounts") } == Self.hostileValues.count)
    }

    @Test func valuesAreBoundAndMatchOnlyThemselves() throws {
        let temporary = try Self.storeWithHostileValues()
        defer { temporary.remove() }
        for (index, value) in Self.hostileValues.enumerated() {
            let id = String(format: "001%012d", index)
            // Smart SQL with `?` on an indexed column and on a json1 path.
            for path in ["Name", "Industry"] {
                var ids: [String] = []
                try temporary.store.read { reader in
                    try reader.query(
                        "SELECT {accounts:Id} FROM {accounts} WHERE {accounts:\(path)} = ?",
                        arguments: [.text(value)]
                    ) { row in
                        if case .text(let found) = row.values[0] { ids.append(found) }
                    }
                }
                #expect(ids == [id], "\(path) = \(value)")
            }
            // Query specs (exact and range) and id lookups.
            var exact: [String] = []
            try temporary.store.read { reader in
                try reader.forEachEntry(matching: QuerySpec(soup: "accounts", path: "Name", predicate: .exact(value))) {
                    exact.append($0.json)
                }
            }
            #expect(exact.count == 1 && exact[0].contains("\"\(id)\""), "exact \(value)")
            let ranged = try temporary.store.read { reader in
                var count = 0
                try reader.forEachEntry(
                    matching: QuerySpec(soup: "accounts", path: "Name", predicate: .range(begin: value, end: value))
                ) { _ in count += 1 }
                return count
            }
            #expect(ranged == 1, "range \(value)")
            let found = try temporary.store.read { try $0.entries(in: "accounts", wherePath: "Name", isIn: [value]) }
            #expect(found.count == 1, "lookup \(value)")
        }
        #expect(try temporary.store.read { try $0.soups() }.map(\.name) == ["accounts"])
    }

    @Test func quotesInsideSmartSQLLiteralsStayLiterals() throws {
        let temporary = try Self.storeWithHostileValues()
        defer { temporary.remove() }
        // A brace inside a string literal is text, not a soup reference; a doubled quote is a quote.
        var names: [String] = []
        try temporary.store.read { reader in
            try reader.query(
                "SELECT {accounts:Name} FROM {accounts} WHERE {accounts:Name} IN ('O''Brien', '{accounts:Name}')"
            ) { row in
                if case .text(let name) = row.values[0] { names.append(name) }
            }
        }
        #expect(names.sorted() == ["O'Brien", "{accounts:Name}"])
        // A second statement after a literal that only looks closed is refused.
        #expect(throws: SoupStoreError.self) {
            try temporary.store.read { reader in
                try reader.query("SELECT 1 FROM {accounts} WHERE {accounts:Name} = 'x'; DELETE FROM soup_attrs") { _ in
                }
            }
        }
        #expect(try temporary.store.read { try $0.entryCount(in: "accounts") } == Self.hostileValues.count)
    }
}

/// JSON text for test records, escaped by JSONSerialization.
private enum JSONValueText {
    static func object(_ fields: [String: String]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
