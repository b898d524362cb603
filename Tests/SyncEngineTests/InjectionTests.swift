import Foundation
import LocalOrg
import OrgClient
import SOQL
import SoupStore
import SyncConfig
import SyncEngine
import Testing

/// The SOQL the engine builds from config values and stored ids, end to end against the local org
/// (issue 20 item 5): every query the org received parses back to the values it was built from,
/// and returns the right records — never more.
struct InjectionTests {
    /// Account names that look like SOQL.
    static let hostileNames = [
        "O'Brien", "back\\slash", "-- not a comment", "x' OR Name != null OR Name = 'y", "/* c */", "SELECT Id",
    ]

    /// The SOQL texts of the queries the org received (the `q` parameter, decoded).
    private static func receivedQueries(_ harness: EngineHarness) throws -> [SOQLQuery] {
        try harness.requestLog().compactMap { entry -> String? in
            guard entry.path.contains("/query?") || entry.path.contains("/queryAll?") else { return nil }
            return URLComponents(string: "http://x\(entry.path)")?.queryItems?.first { $0.name == "q" }?.value
        }
        .map(SOQLQuery.parse)
    }

    /// Every string literal in `condition`.
    private static func strings(in condition: SOQLCondition?) -> [String] {
        switch condition {
        case .none: []
        case .and(let operands), .or(let operands): operands.flatMap { strings(in: $0) }
        case .not(let operand): strings(in: operand)
        case .comparison(_, _, .string(let value)): [value]
        case .in(_, let values, _): values.compactMap { if case .string(let text) = $0 { text } else { nil } }
        case .like(_, let pattern): [pattern]
        case .inSubquery(_, let query, _): strings(in: query.condition)
        case .comparison: []
        }
    }

    /// A `parent_children` filter with quoted literals: the changed-parents and the ghost id
    /// queries keep the literals, and only the matching trees are fetched, then cleaned.
    @Test func parentChildrenFilterLiteralsStayValues() async throws {
        try await EngineHarness.with { harness in
            try await harness.registerContactsSoup()
            let trees = try harness.createAccountsWithContacts(Self.hostileNames + ["Plain"], contactsEach: 1)
            let wanted = ["O'Brien", "back\\slash", "-- not a comment", "x' OR Name != null OR Name = 'y"]
            let filter =
                #"Name IN ('O\'Brien', 'back\\slash', '-- not a comment', 'x\' OR Name != null OR Name = \'y')"#
            let definition = Definitions.accountsWithContacts(filter: filter)
            let engine = harness.engine()

            #expect(try await engine.syncDown(definition).status == .done)
            #expect(try harness.storedNames() == wanted.sorted())
            #expect(try harness.storedCount(in: "contacts") == wanted.count)

            // Ghost cleaning's id query keeps the same literals: deleting one tree on the org
            // removes exactly that one.
            try harness.deleteAccount(trees[0].0)
            #expect(try await engine.cleanGhosts(definition).status == .done)
            #expect(try harness.storedNames() == wanted.filter { $0 != "O'Brien" }.sorted())

            let queries = try Self.receivedQueries(harness)
            #expect(queries.count >= 2)
            for query in queries {
                #expect(Set(Self.strings(in: query.condition)) == Set(wanted), "\(query.text)")
            }
        }
    }

    /// A refresh target asks for the ids in its soup: ids that look like SOQL stay values — the org
    /// receives them as literals (and, as Salesforce does, refuses ids that are not ids) — so no
    /// other account ever comes back.
    @Test func refreshIDListsStayValues() async throws {
        try await EngineHarness.with { harness in
            let ids = try harness.createAccounts(["Kept", "Other 1", "Other 2"])
            let hostileIDs = ["001') OR (Name != null", "001' OR Id != null OR Id = '", "001\\' OR Name LIKE '%"]
            let stored = [ids[0]] + hostileIDs
            try await harness.store.write { writer in
                for id in stored {
                    try writer.upsert(OrgValue.object(["Id": .string(id), "Name": "stale"]).jsonText, into: "accounts")
                }
            }
            let target = RefreshSyncDownTarget(sobjectType: "Account", fieldlist: ["Id", "Name"], soupName: "accounts")
            let definition = SyncDefinition(
                name: "refresh",
                type: .syncDown,
                soupName: "accounts",
                target: .down(.refresh(target)),
                options: SyncOptions(mergeMode: .overwrite)
            )

            _ = try? await harness.engine().syncDown(definition)

            // No other account came in.
            let names = try harness.storedNames()
            #expect(!names.contains("Other 1") && !names.contains("Other 2"), "\(names)")
            #expect(try harness.storedCount() == stored.count)
            let queries = try Self.receivedQueries(harness)
            #expect(!queries.isEmpty)
            for query in queries {
                #expect(Set(Self.strings(in: query.condition)) == Set(stored), "\(query.text)")
            }
        }
    }

    /// A SOQL target's resync adds the watermark filter around the config's own literals.
    @Test func resyncFilterKeepsTheConfigsLiterals() async throws {
        try await EngineHarness.with { harness in
            try harness.createAccounts(Self.hostileNames + ["Plain"])
            let query = #"SELECT Id, Name, LastModifiedDate FROM Account WHERE Name IN ('O\'Brien', 'back\\slash') "#
            let definition = Definitions.soql("resync", query: query)
            let engine = harness.engine()
            #expect(try await engine.syncDown(definition).status == .done)
            harness.clock.advance(seconds: 60)
            try harness.createAccounts(["x' OR Name != null OR Name = 'y"])
            #expect(try await engine.syncDown(definition).status == .done)
            #expect(try harness.storedNames() == ["O'Brien", "back\\slash"].sorted())
            let queries = try Self.receivedQueries(harness)
            #expect(queries.count >= 2)
            for query in queries {
                #expect(Set(Self.strings(in: query.condition)) == ["O'Brien", "back\\slash"], "\(query.text)")
            }
        }
    }
}
