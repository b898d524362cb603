import SoupStore
import SyncConfig
import SyncEngine
import Testing

/// The `parent_children` target's filter and validation, against the local org over HTTP.
struct ParentChildrenTargetTests {
    @Test func theParentFilterKeepsItsMeaningOnResync() async throws {
        try await EngineHarness.with(pageSize: 2) { harness in
            try await harness.registerContactsSoup()
            let trees = try harness.createAccountsWithContacts(["A", "B", "C"], contactsEach: 1)
            let definition = Definitions.accountsWithContacts(filter: "Name = 'A' OR Name = 'C'")
            let engine = harness.engine()
            #expect(try await engine.syncDown(definition).status == .done)
            #expect(try harness.storedNames() == ["A", "C"])
            harness.clock.advance(seconds: 60)
            // B's child changes: B still does not match the filter.
            try harness.updateChild(trees[1].1[0], lastName: "B-1 server")
            try harness.updateChild(trees[0].1[0], lastName: "A-1 server")

            let resync = try await engine.syncDown(definition)

            #expect(resync.status == .done)
            #expect(try harness.storedNames() == ["A", "C"])
            let lastNames = try harness.storedValuesByID("LastName", in: "contacts")
            #expect(lastNames == [trees[0].1[0]: .text("A-1 server"), trees[2].1[0]: .text("C-1")])
        }
    }

    @Test func aParentWithLocalChangesIsCountedAsSkipped() async throws {
        try await EngineHarness.with { harness in
            try await harness.registerContactsSoup()
            let trees = try harness.createAccountsWithContacts(["A", "B"], contactsEach: 1)
            let definition = Definitions.accountsWithContacts(mergeMode: .leaveIfChanged)
            let engine = harness.engine()
            #expect(try await engine.syncDown(definition).status == .done)
            try harness.markLocallyChanged(trees[0].0, field: "Name", value: "A local", in: "accounts")
            harness.clock.advance(seconds: 60)
            try harness.updateChild(trees[0].1[0], lastName: "A-1 server")

            let summary = try await engine.syncDown(definition)

            #expect(summary.status == .done)
            #expect(summary.skippedLocallyChanged == 1)
            #expect(try harness.storedNames() == ["A local", "B"])
            #expect(try harness.storedValue("LastName", ofID: trees[0].1[0], in: "contacts") == .text("A-1"))
        }
    }

    @Test func aMissingChildrenSoupIsRejectedBeforeRunning() async throws {
        try await EngineHarness.with { harness in
            let error = await #expect(throws: SyncEngineError.self) {
                try await harness.engine().syncDown(Definitions.accountsWithContacts("x"))
            }
            #expect(error?.code == .invalidTarget)
            #expect(
                error?.message == "sync 'x': children soup 'contacts' does not exist in the store; declare it in the "
                    + "store config (userstore) with an index on 'Id'"
            )
        }
    }

    @Test func anInvalidParentFilterIsRejectedBeforeRunning() async throws {
        try await EngineHarness.with { harness in
            try await harness.registerContactsSoup()
            let error = await #expect(throws: SyncEngineError.self) {
                try await harness.engine().syncDown(Definitions.accountsWithContacts("x", filter: "Name ="))
            }
            #expect(error?.code == .invalidTarget)
            #expect(
                error?.message.hasPrefix("sync 'x': 'parentSoqlFilter' is not a SOQL condition on 'Account': ") == true
            )
            #expect(try await harness.store.read { try $0.syncState(named: "x") } == nil)
        }
    }
}
