import SoupStore
import SyncConfig
import SyncEngine
import Testing

/// Ghost cleaning of the `parent_children` target against the local org over HTTP.
struct ParentChildrenGhostTests {
    @Test func aDeletedAccountIsRemovedWithItsContactsAndLaterPagesKeepTheirs() async throws {
        try await EngineHarness.with(pageSize: 2) { harness in
            try await harness.registerContactsSoup()
            let trees = try harness.createAccountsWithContacts(["A", "B", "C", "D", "E"], contactsEach: 2)
            let definition = Definitions.accountsWithContacts()
            let engine = harness.engine()
            #expect(try await engine.syncDown(definition).status == .done)
            try harness.deleteAccount(trees[1].0)

            let summary = try await engine.cleanGhosts(definition)

            #expect(summary.status == .done)
            #expect(summary.deletedGhosts == 1)
            #expect(try harness.storedNames() == ["A", "C", "D", "E"])
            // The children of every page survive (§11 item 19); B's are gone.
            let remaining = Set(try harness.storedValuesByID("Id", in: "contacts").keys)
            let expected = Set(trees.filter { $0.0 != trees[1].0 }.flatMap(\.1))
            #expect(remaining == expected)
        }
    }

    @Test func aParentWithALocallyChangedChildIsKeptAndTheChildToo() async throws {
        try await EngineHarness.with(pageSize: 2) { harness in
            try await harness.registerContactsSoup()
            let trees = try harness.createAccountsWithContacts(["A", "B"], contactsEach: 2)
            let definition = Definitions.accountsWithContacts()
            let engine = harness.engine()
            #expect(try await engine.syncDown(definition).status == .done)
            let (accountA, contactsA) = trees[0]
            try harness.markLocallyChanged(contactsA[0], field: "LastName", value: "A-1 local", in: "contacts")
            try harness.deleteAccount(accountA)

            let summary = try await engine.cleanGhosts(definition)

            #expect(summary.status == .done)
            #expect(summary.deletedGhosts == 0)
            #expect(try harness.storedNames() == ["A", "B"])
            // The clean sibling is a ghost; the locally changed child stays.
            let remaining = Set(try harness.storedValuesByID("Id", in: "contacts").keys)
            #expect(remaining == Set([contactsA[0]] + trees[1].1))
        }
    }
}
