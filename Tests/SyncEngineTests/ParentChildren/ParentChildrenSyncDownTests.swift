import SoupStore
import SyncConfig
import SyncEngine
import SyncLedger
import Testing

/// The `parent_children` target end to end: the local org over HTTP, a store with `accounts`
/// and `contacts` soups.
struct ParentChildrenSyncDownTests {
    @Test func accountsWithContactsAcrossSeveralPagesFillBothSoupsWithTheParentIDSet() async throws {
        try await EngineHarness.with(pageSize: 2) { harness in
            try await harness.registerContactsSoup()
            let trees = try harness.createAccountsWithContacts(["A", "B", "C", "D", "E"], contactsEach: 2)
            let engine = harness.engine()

            let summary = try await engine.syncDown(Definitions.accountsWithContacts())

            #expect(summary.status == .done)
            #expect(summary.pages == 3)
            #expect(summary.saved == 5)
            #expect(try harness.storedNames() == ["A", "B", "C", "D", "E"])
            // AccountId is not in childrenFieldlist: it is set from the parent.
            let parents = try harness.storedValuesByID("AccountId", in: "contacts")
            var expected: [String: SoupValue] = [:]
            for (accountID, contactIDs) in trees {
                for contactID in contactIDs { expected[contactID] = .text(accountID) }
            }
            #expect(parents == expected)
            let lastNames = try harness.storedValuesByID("LastName", in: "contacts").values.compactMap {
                value -> String? in
                if case .text(let name) = value { name } else { nil }
            }
            #expect(lastNames.sorted() == ["A-1", "A-2", "B-1", "B-2", "C-1", "C-2", "D-1", "D-2", "E-1", "E-2"])
            // Both soups carry the sync's id and are remembered as fetched by it.
            let syncID = summary.syncID
            #expect(Set(try harness.storedValuesByID("__sync_id__", in: "accounts").values) == [.integer(syncID)])
            #expect(Set(try harness.storedValuesByID("__sync_id__", in: "contacts").values) == [.integer(syncID)])
            let counts = try await harness.store.read { reader in
                (
                    try reader.fetchedRecordCount(in: "accounts", syncID: syncID),
                    try reader.fetchedRecordCount(in: "contacts", syncID: syncID)
                )
            }
            #expect(counts.0 == 5)
            #expect(counts.1 == 10)
            #expect(try engine.syncState(id: syncID).status == .done)
        }
    }

    @Test func leaveIfChangedLeavesTheWholeTreeOfALocallyChangedChild() async throws {
        try await EngineHarness.with(pageSize: 2) { harness in
            try await harness.registerContactsSoup()
            let trees = try harness.createAccountsWithContacts(["A", "B", "C"], contactsEach: 2)
            let definition = Definitions.accountsWithContacts(mergeMode: .leaveIfChanged)
            let engine = harness.engine()
            #expect(try await engine.syncDown(definition).status == .done)
            let (accountA, contactsA) = trees[0]
            let (accountB, contactsB) = trees[1]
            try harness.markLocallyChanged(contactsA[0], field: "LastName", value: "A-1 local", in: "contacts")
            harness.clock.advance(seconds: 60)
            try harness.updateAccount(accountA, fields: ["Name": .string("A server")])
            try harness.updateChild(contactsA[1], lastName: "A-2 server")
            try harness.updateAccount(accountB, fields: ["Name": .string("B server")])
            try harness.updateChild(contactsB[0], lastName: "B-1 server")

            let summary = try await engine.syncDown(definition)

            #expect(summary.status == .done)
            // A's tree is protected: the parent, the changed child and its unchanged sibling.
            #expect(try harness.storedValue("Name", ofID: accountA) == .text("A"))
            let lastNames = try harness.storedValuesByID("LastName", in: "contacts")
            #expect(lastNames[contactsA[0]] == .text("A-1 local"))
            #expect(lastNames[contactsA[1]] == .text("A-2"))
            #expect(try harness.storedValue("__local__", ofID: contactsA[0], in: "contacts") == .text("true"))
            // B's tree has no local change: it takes the server's version.
            #expect(try harness.storedValue("Name", ofID: accountB) == .text("B server"))
            #expect(lastNames[contactsB[0]] == .text("B-1 server"))
        }
    }

    @Test func resyncFetchesAChildOnlyServerChange() async throws {
        try await EngineHarness.with(pageSize: 2) { harness in
            try await harness.registerContactsSoup()
            let trees = try harness.createAccountsWithContacts(["A", "B", "C"], contactsEach: 2)
            let definition = Definitions.accountsWithContacts()
            let engine = harness.engine()
            let first = try await engine.syncDown(definition)
            #expect(first.status == .done)
            #expect(first.maxTimeStamp > 0)
            harness.clock.advance(seconds: 60)
            // Only children change: the accounts keep their modification dates.
            try harness.updateChild(trees[1].1[0], lastName: "B-1 server")
            let added = try harness.createChild("C-3", accountID: trees[2].0)

            let resync = try await engine.syncDown(definition)

            #expect(resync.status == .done)
            // The two parents of the changed children, with only those children; the parents
            // themselves come exactly as stored (the summary counts parents).
            #expect(resync.fetched == 2 && resync.unchanged == 2 && resync.saved == 0)
            let lastNames = try harness.storedValuesByID("LastName", in: "contacts")
            #expect(lastNames[trees[1].1[0]] == .text("B-1 server"))
            #expect(lastNames[added] == .text("C-3"))
            #expect(try harness.storedValue("AccountId", ofID: added, in: "contacts") == .text(trees[2].0))
            #expect(try harness.storedCount(in: "contacts") == 7)
            #expect(try harness.storedNames() == ["A", "B", "C"])
        }
    }

    @Test func resyncFetchesANewParentAndRereadsOnlyTheParentAtTheWatermark() async throws {
        try await EngineHarness.with(pageSize: 2) { harness in
            try await harness.registerContactsSoup()
            try harness.createAccountsWithContacts(["A", "B"], contactsEach: 1)
            let definition = Definitions.accountsWithContacts()
            let engine = harness.engine()
            #expect(try await engine.syncDown(definition).status == .done)
            harness.clock.advance(seconds: 60)
            try harness.createAccounts(["C"])

            let resync = try await engine.syncDown(definition)

            #expect(resync.status == .done)
            // C, and B again: it carries exactly the watermark (`>=`, docs/sync-engine.md), and
            // comes exactly as stored: unchanged, not saved.
            #expect(resync.fetched == 2 && resync.saved == 1 && resync.unchanged == 1)
            #expect(try harness.storedNames() == ["A", "B", "C"])
        }
    }
}
