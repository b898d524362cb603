import Foundation
import LocalOrg
import SoupStore
import SyncConfig
import SyncEngine
import SyncLedger
import Testing

/// Sync states: creation from the config, drift and --replace, killed runs, concurrent runs,
/// unsupported targets.
struct SyncStateTests {
    @Test func firstUseCreatesTheStateWithTheNormalisedDefinition() async throws {
        try await EngineHarness.with { harness in
            let engine = harness.engine()
            let state = try engine.prepare(Definitions.soql("accounts", query: "SELECT Name FROM Account"))
            #expect(state.status == .new && state.totalSize == -1 && state.maxTimeStamp == -1)
            #expect(state.kind == .syncDown && state.soupName == "accounts" && state.name == "accounts")
            #expect(state.targetJSON.contains("\"query\":\"SELECT Name FROM Account\""))
            #expect(state.optionsJSON.contains("\"mergeMode\":\"OVERWRITE\""))
            // Preparing again finds the same state.
            #expect(try engine.prepare(Definitions.soql("accounts", query: "SELECT Name FROM Account")).id == state.id)
        }
    }

    @Test func changedDefinitionIsReportedAndReplaceRecreatesIt() async throws {
        try await EngineHarness.with { harness in
            try harness.createAccounts(["One"])
            let engine = harness.engine()
            let first = try await engine.syncDown(Definitions.soql("accounts", query: "SELECT Name FROM Account"))
            #expect(first.maxTimeStamp > 0)
            let changed = Definitions.soql(
                "accounts",
                query: "SELECT Name, Industry FROM Account",
                mergeMode: .leaveIfChanged
            )
            let error = await #expect(throws: SyncEngineError.self) { try await engine.syncDown(changed) }
            #expect(error?.code == .definitionChanged)
            #expect(
                error?.message
                    == "sync 'accounts' is stored with a different definition than the config ('options.mergeMode', "
                    + "'target.query' differ); run with --replace to recreate it from the config (this resets its watermark)"
            )

            let replaced = try engine.prepare(changed, replace: true)
            #expect(replaced.id != first.syncID && replaced.maxTimeStamp == -1 && replaced.status == .new)
            let rerun = try await engine.syncDown(changed)
            #expect(rerun.fetched == 1 && rerun.status == .done)
        }
    }

    @Test func runningStateOfAKilledProcessBecomesStopped() async throws {
        try await EngineHarness.with { harness in
            let engine = harness.engine()
            let state = try engine.prepare(Definitions.soql("accounts", query: "SELECT Name FROM Account"))
            let hostName = engine.configuration.hostName
            try await harness.store.write { [state] writer in
                var running = state
                running.status = .running
                try writer.updateSyncState(running)
                try writer.acquireSyncLock(
                    SyncLock(
                        syncID: state.id,
                        processID: Int32.max - 7,
                        hostName: hostName,
                        token: "dead",
                        operation: "syncDown",
                        claimedAt: 1
                    )
                )
            }
            let recovered = try engine.recoverInterruptedRuns()
            #expect(recovered.map(\.id) == [state.id])
            #expect(try engine.syncState(id: state.id).status == .stopped)
            let syncID = state.id
            let lock = try await harness.store.read { try $0.syncLock(syncID: syncID) }
            #expect(lock == nil)
        }
    }

    @Test func aSyncHeldByALiveRunIsRefusedWithoutTouchingTheStore() async throws {
        try await EngineHarness.with { harness in
            try harness.createAccounts(["One"])
            let engine = harness.engine()
            let definition = Definitions.soql("accounts", query: "SELECT Name FROM Account")
            let state = try engine.prepare(definition)
            // Another live process (our parent) holds the sync.
            let holder = getppid()
            let (syncID, hostName) = (state.id, engine.configuration.hostName)
            try await harness.store.write { writer in
                try writer.acquireSyncLock(
                    SyncLock(
                        syncID: syncID,
                        processID: holder,
                        hostName: hostName,
                        token: "other",
                        operation: "syncDown",
                        claimedAt: 1
                    )
                )
            }
            let error = await #expect(throws: SyncEngineError.self) { try await engine.syncDown(definition) }
            #expect(error?.code == .alreadyRunning)
            #expect(error?.message.hasPrefix("sync 'accounts' is already running (syncDown, process \(holder)") == true)
            #expect(try harness.storedCount() == 0)
            #expect(try engine.syncState(id: state.id).status == .new)
            // The live holder is not mistaken for a killed run.
            #expect(try engine.recoverInterruptedRuns().isEmpty)
        }
    }

    @Test(arguments: ["custom"])
    func unsupportedTargetsFailAtValidationWithAClearError(kind: String) async throws {
        try await EngineHarness.with { harness in
            let target: SyncDownTarget =
                switch kind {
                case "custom": .custom(CustomSyncDownTarget(iOSImpl: "MyTarget", androidImpl: nil))
                case "metadata": .metadata(MetadataSyncDownTarget(sobjectType: "Account"))
                default:
                    .parentChildren(
                        ParentChildrenSyncDownTarget(
                            parent: ParentInfo(sobjectType: "Account", soupName: "accounts"),
                            parentFieldlist: ["Name"],
                            parentSoqlFilter: nil,
                            children: ChildrenInfo(
                                sobjectType: "Contact",
                                sobjectTypePlural: "Contacts",
                                soupName: "contacts",
                                parentIdFieldName: "AccountId"
                            ),
                            childrenFieldlist: ["LastName"],
                            relationshipType: .lookup
                        )
                    )
                }
            let definition = SyncDefinition(name: "x", type: .syncDown, soupName: "accounts", target: .down(target))
            let error = await #expect(throws: SyncEngineError.self) { try await harness.engine().syncDown(definition) }
            #expect(error?.code == .notSupported)
            // A custom target runs only in an executable that registered its plug-in.
            #expect(
                error?.message == "sync 'x': no sync down plug-in is registered for the custom target class "
                    + "'MyTarget' in this executable; the stock 'syncrun' has none: run an executable that links "
                    + "the SyncrunCLI library and registers 'MyTarget' (README, \"Custom targets in Swift\")"
            )
            let stored = try await harness.store.read { try $0.syncState(named: "x") }
            #expect(stored == nil)
        }
    }

    @Test func soupWithoutIdIndexIsRejectedBeforeRunning() async throws {
        try await EngineHarness.with { harness in
            try await harness.store.write { writer in
                _ = try writer.registerSoup(SoupSpec(name: "plain", indexes: [IndexSpec(path: "Name", type: .string)]))
            }
            let error = await #expect(throws: SyncEngineError.self) {
                try await harness.engine().syncDown(
                    Definitions.soql("plain", query: "SELECT Name FROM Account", soup: "plain")
                )
            }
            #expect(error?.code == .invalidTarget)
            #expect(error?.message.contains("soup 'plain' has no index on 'Id'") == true)
        }
    }
}
