import Foundation
import JSONCore
import LocalOrg
import Logging
import OrgClient
import SOQL
import SoupStore
import SyncConfig
import SyncEngine
import SyncrunTestSupport
import Testing

/// Custom targets written in Swift (``SyncDownTargetPlugin``, ``SyncUpTargetPlugin``): configs
/// naming them by `iOSImpl` / `androidImpl`, loaded with the plug-ins' names, run by the engine
/// over HTTP against the local org.
struct CustomTargetTests {
    /// What the test plug-ins were asked, in order.
    actor Calls {
        var maxTimeStamps: [Int64] = []
        var writes: [String] = []
        func fetched(since: Int64) { maxTimeStamps.append(since) }
        func wrote(_ what: String) { writes.append(what) }
    }

    /// Accounts paged by SOQL (the org's page size), the next-records URL as the cursor; ghosts
    /// through the same query's ids unless `listsIDs` is false; `failOnSecondPage` throws a
    /// plug-in error when asked for the second page.
    struct AccountsDown: SyncDownTargetPlugin {
        let calls: Calls
        var listsIDs = true
        var failOnSecondPage = false

        var isSortedByModification: Bool { true }

        func startFetch(maxTimeStamp: Int64, context: CustomTargetContext) async throws -> CustomFetchPage {
            await calls.fetched(since: maxTimeStamp)
            context.logger.debug("fetching accounts")
            var query = "SELECT Id, Name, LastModifiedDate FROM Account"
            if maxTimeStamp > 0 {
                query += " WHERE LastModifiedDate >= \(SalesforceDateTime.soqlLiteral(milliseconds: maxTimeStamp))"
            }
            let page = try await context.org.queryFirstPage(query + " ORDER BY LastModifiedDate", options: .init())
            return try CustomFetchPage(queryPage: page)
        }

        func continueFetch(cursor: JSONValue, context: CustomTargetContext) async throws -> CustomFetchPage {
            if failOnSecondPage { throw CustomTargetError("the widget service is down for maintenance") }
            return try CustomFetchPage(
                queryPage: try await context.org.queryMore(cursor.stringValue ?? "", options: .init())
            )
        }

        func startRemoteIDs(context: CustomTargetContext) async throws -> CustomIDsPage? {
            guard listsIDs else { return nil }
            return try Self.ids(try await context.org.queryFirstPage("SELECT Id FROM Account", options: .init()))
        }

        func continueRemoteIDs(cursor: JSONValue, context: CustomTargetContext) async throws -> CustomIDsPage {
            try Self.ids(try await context.org.queryMore(cursor.stringValue ?? "", options: .init()))
        }

        static func ids(_ page: QueryPage) throws -> CustomIDsPage {
            let records = try CustomFetchPage(queryPage: page)
            return CustomIDsPage(ids: records.records.compactMap { $0["Id"]?.stringValue }, cursor: records.cursor)
        }
    }

    /// Accounts written one by one through sObject REST. Refuses a `Name` starting with "refuse",
    /// holds back (``isToSyncUp``) one starting with "hold", and with `failWith` throws that error
    /// on every write; reads the server's `LastModifiedDate` for conflicts and write-back.
    struct AccountsUp: SyncUpTargetPlugin {
        let calls: Calls
        var failWith: OrgClientError?

        func isToSyncUp(_ record: CustomSyncUpRecord) -> Bool {
            !(record.fields["Name"]?.stringValue ?? "").hasPrefix("hold")
        }

        func createOnServer(_ record: CustomSyncUpRecord, fields: [String: JSONValue], context: CustomTargetContext)
            async throws -> String
        {
            try check(fields)
            await calls.wrote("create \(fields["Name"]?.stringValue ?? "")")
            context.logger.debug("creating an account")
            return try await context.org.create("Account", fields: fields)
        }

        func updateOnServer(
            _ record: CustomSyncUpRecord,
            id: String,
            fields: [String: JSONValue],
            context: CustomTargetContext
        ) async throws {
            try check(fields)
            await calls.wrote("update \(id)")
            try await context.org.update("Account", id: id, fields: fields, ifUnmodifiedSince: nil)
        }

        func deleteOnServer(_ record: CustomSyncUpRecord, id: String, context: CustomTargetContext) async throws {
            if let failWith { throw failWith }
            await calls.wrote("delete \(id)")
            try await context.org.delete("Account", id: id)
        }

        func serverModificationDate(of record: CustomSyncUpRecord, id: String, context: CustomTargetContext)
            async throws -> String?
        {
            let raw = try await context.org.retrieve("Account", id: id, fields: ["LastModifiedDate"])
            return try JSONValue(parsing: raw.text)["LastModifiedDate"]?.stringValue
        }

        private func check(_ fields: [String: JSONValue]) throws {
            if let failWith { throw failWith }
            if (fields["Name"]?.stringValue ?? "").hasPrefix("refuse") {
                throw CustomTargetError(
                    "names starting with 'refuse' are refused",
                    code: "REFUSED_NAME",
                    fields: ["Name"]
                )
            }
        }
    }

    static func plugins(_ calls: Calls, down: AccountsDown? = nil, up: AccountsUp? = nil) -> CustomTargets {
        var targets = CustomTargets()
        let down = down ?? AccountsDown(calls: calls)
        let up = up ?? AccountsUp(calls: calls)
        targets.registerSyncDown(["AccountsDown", "com.example.AccountsDown"]) { _ in down }
        targets.registerSyncUp(["AccountsUp"]) { _ in up }
        return targets
    }

    static func engine(_ harness: EngineHarness, _ plugins: CustomTargets) -> SyncEngine {
        var configuration = SyncEngineConfiguration()
        configuration.customTargets = plugins
        return SyncEngine(
            store: harness.store,
            org: harness.org,
            logger: EngineHarness.logger,
            configuration: configuration
        )
    }

    /// The one sync of a `usersyncs.json` holding `sync`, loaded with `plugins`' names registered.
    static func load(_ sync: String, plugins: CustomTargets) throws -> SyncDefinition {
        let directory = try TemporaryDirectory(prefix: "custom-config")
        defer { try? FileManager.default.removeItem(at: directory.url) }
        let url = directory.url.appendingPathComponent("usersyncs.json")
        try Data("{\"syncs\": [\(sync)]}".utf8).write(to: url)
        let loaded = try ConfigLoader(registry: plugins.implRegistry).load(storeConfig: nil, syncsConfig: url)
        #expect(!loaded.hasErrors, "\(loaded.diagnostics)")
        return try #require(loaded.userSyncs?.syncs.first)
    }

    static func down(_ plugins: CustomTargets, mergeMode: String = "OVERWRITE") throws -> SyncDefinition {
        try load(
            #"{"syncName": "accountsDown", "syncType": "syncDown", "soupName": "accounts", "target": {"type": "custom", "#
                + #""iOSImpl": "AccountsDown", "androidImpl": "com.example.AccountsDown", "pageHint": 2}, "#
                + #""options": {"mergeMode": "\#(mergeMode)"}}"#,
            plugins: plugins
        )
    }

    static func up(_ plugins: CustomTargets, mergeMode: String = "OVERWRITE") throws -> SyncDefinition {
        try load(
            #"{"syncName": "accountsUp", "syncType": "syncUp", "soupName": "accounts", "#
                + #""target": {"iOSImpl": "AccountsUp"}, "#
                + #""options": {"fieldlist": ["Name"], "mergeMode": "\#(mergeMode)"}}"#,
            plugins: plugins
        )
    }

    // MARK: Sync down

    @Test func syncDownPagesThroughTheCursorAndResyncsFromTheWatermark() async throws {
        try await EngineHarness.with(pageSize: 2) { harness in
            let calls = Calls()
            let plugins = Self.plugins(calls)
            let ids = try harness.createAccounts(["A1", "A2", "A3", "A4", "A5"], secondsApart: 1)
            let definition = try Self.down(plugins)
            let engine = Self.engine(harness, plugins)

            let first = try await engine.syncDown(definition)
            #expect(first.status == .done, "\(first.error ?? "")")
            #expect(first.fetched == 5 && first.pages == 3)
            #expect(try harness.storedNames() == ["A1", "A2", "A3", "A4", "A5"])
            #expect(first.maxTimeStamp > 0)

            harness.clock.advance(seconds: 60)
            try harness.updateAccount(ids[1], fields: ["Name": "A2 renamed"])
            let second = try await engine.syncDown(definition)
            #expect(second.status == .done, "\(second.error ?? "")")
            #expect(second.fetched == 2)  // the inclusive watermark's record, and the renamed one
            #expect(await calls.maxTimeStamps == [-1, first.maxTimeStamp])
            #expect(try harness.storedNames().contains("A2 renamed"))
            #expect(second.maxTimeStamp > first.maxTimeStamp)
        }
    }

    @Test(arguments: ["OVERWRITE", "LEAVE_IF_CHANGED"])
    func locallyChangedRecordsFollowTheMergeMode(mergeMode: String) async throws {
        try await EngineHarness.with { harness in
            let plugins = Self.plugins(Calls())
            let ids = try harness.createAccounts(["M1", "M2"], secondsApart: 1)
            let definition = try Self.down(plugins, mergeMode: mergeMode)
            let engine = Self.engine(harness, plugins)
            _ = try await engine.syncDown(definition)
            try harness.editLocally(ids[0], name: "M1 local")
            harness.clock.advance(seconds: 10)
            try harness.updateAccount(ids[0], fields: ["Name": "M1 server"])

            let summary = try await engine.syncDown(definition, full: true)
            #expect(summary.status == .done)
            let expected = mergeMode == "OVERWRITE" ? "M1 server" : "M1 local"
            #expect(try harness.storedValue("Name", ofID: ids[0]) == .text(expected))
            #expect(summary.skippedLocallyChanged == (mergeMode == "OVERWRITE" ? 0 : 1))
        }
    }

    @Test func ghostsAreCleanedThroughThePluginsIDs() async throws {
        try await EngineHarness.with(pageSize: 2) { harness in
            let plugins = Self.plugins(Calls())
            let ids = try harness.createAccounts(["G1", "G2", "G3", "G4"], secondsApart: 1)
            let definition = try Self.down(plugins)
            let engine = Self.engine(harness, plugins)
            _ = try await engine.syncDown(definition)
            try harness.deleteAccount(ids[2])

            let ghosts = try await engine.cleanGhosts(definition)
            #expect(ghosts.status == .done && ghosts.deletedGhosts == 1, "\(ghosts.error ?? "")")
            #expect(try harness.storedNames() == ["G1", "G2", "G4"])
        }
    }

    @Test func ghostCleaningIsRefusedWhenThePluginListsNoIDs() async throws {
        try await EngineHarness.with { harness in
            let calls = Calls()
            let plugins = Self.plugins(calls, down: AccountsDown(calls: calls, listsIDs: false))
            try harness.createAccounts(["G1"])
            let definition = try Self.down(plugins)
            let engine = Self.engine(harness, plugins)
            _ = try await engine.syncDown(definition)
            let summary = try await engine.cleanGhosts(definition)
            #expect(summary.status == .failed)
            #expect(summary.error?.contains("does not list them") == true, "\(summary.error ?? "")")
            #expect(try harness.storedNames() == ["G1"])
        }
    }

    @Test func aPluginErrorFailsTheSyncDownWithItsMessageAndKeepsWhatWasWritten() async throws {
        try await EngineHarness.with(pageSize: 2) { harness in
            let calls = Calls()
            let plugins = Self.plugins(calls, down: AccountsDown(calls: calls, failOnSecondPage: true))
            try harness.createAccounts(["F1", "F2", "F3"], secondsApart: 1)
            let summary = try await Self.engine(harness, plugins).syncDown(try Self.down(plugins))
            #expect(summary.status == .failed)
            let error = summary.error ?? ""
            #expect(error.contains("'AccountsDown'") && error.contains("down for maintenance"), "\(error)")
            #expect(try harness.storedNames() == ["F1", "F2"])
        }
    }

    @Test func anExecutableWithoutThePluginNamesIt() async throws {
        try await EngineHarness.with { harness in
            let registered = Self.plugins(Calls())
            let down = try Self.down(registered)
            let up = try Self.up(registered)
            let bare = harness.engine()
            let downError = await #expect(throws: SyncEngineError.self) { _ = try await bare.syncDown(down) }
            #expect(downError?.code == .notSupported)
            #expect(downError?.message.contains("custom target class 'AccountsDown'") == true)
            let upError = await #expect(throws: SyncEngineError.self) { _ = try await bare.syncUp(up) }
            #expect(upError?.message.contains("custom target class 'AccountsUp'") == true, "\(upError?.message ?? "")")

            // A name registered for the other direction is named as such.
            var swapped = CustomTargets()
            swapped.registerSyncUp(["AccountsDown"]) { _ in AccountsUp(calls: Calls()) }
            let wrongWay = Self.engine(harness, swapped)
            let error = await #expect(throws: SyncEngineError.self) { _ = try await wrongWay.syncDown(down) }
            #expect(error?.message.contains("registered as a sync up plug-in") == true, "\(error?.message ?? "")")
        }
    }

    @Test func theConfigLoaderAcceptsOnlyRegisteredNamesInTheirDirection() throws {
        var targets = CustomTargets()
        targets.registerSyncUp(["OnlyUp"]) { _ in AccountsUp(calls: Calls()) }
        let directory = try TemporaryDirectory(prefix: "custom-config")
        defer { try? FileManager.default.removeItem(at: directory.url) }
        let url = directory.url.appendingPathComponent("usersyncs.json")
        try Data(
            (#"{"syncs": [{"syncName": "d", "syncType": "syncDown", "soupName": "s", "#
                + #""target": {"type": "custom", "iOSImpl": "OnlyUp"}}, "#
                + #"{"syncName": "u", "syncType": "syncUp", "soupName": "s", "target": {"iOSImpl": "OnlyUp"}, "#
                + #""options": {"fieldlist": ["Name"]}}]}"#).utf8
        ).write(to: url)
        let loaded = try ConfigLoader(registry: targets.implRegistry).load(storeConfig: nil, syncsConfig: url)
        let errors = loaded.diagnostics.filter { $0.severity == .error }
        #expect(errors.count == 1, "\(loaded.diagnostics)")
        #expect(errors.first?.code == .unregisteredCustomTarget)
        #expect(errors.first?.message.contains("registered as a sync up plug-in") == true)
        #expect(errors.first?.path.description.contains("syncs[0]") == true)
    }

    /// Counts the calls of a plug-in factory (factories are synchronous).
    final class FactoryCalls: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func made() { lock.withLock { count += 1 } }
        var total: Int { lock.withLock { count } }
    }

    @Test func eachRunMakesItsPlugInOnce() async throws {
        try await EngineHarness.with { harness in
            let calls = Calls()
            let (downMade, upMade) = (FactoryCalls(), FactoryCalls())
            var plugins = CustomTargets()
            plugins.registerSyncDown(["AccountsDown", "com.example.AccountsDown"]) { _ in
                downMade.made()
                return AccountsDown(calls: calls)
            }
            plugins.registerSyncUp(["AccountsUp"]) { _ in
                upMade.made()
                return AccountsUp(calls: calls)
            }
            let ids = try harness.createAccounts(["One", "Two"], secondsApart: 1)
            let engine = Self.engine(harness, plugins)
            let down = try Self.down(plugins)

            #expect(try await engine.syncDown(down).status == .done)
            #expect(downMade.total == 1)
            #expect(try await engine.cleanGhosts(down).status == .done)
            #expect(downMade.total == 2)
            try harness.editLocally(ids[0], name: "One edited")
            #expect(try await engine.syncUp(try Self.up(plugins)).updated == 1)
            #expect(upMade.total == 1)
        }
    }

    // MARK: Sync up

    @Test func syncUpCreatesUpdatesDeletesAndKeepsRefusedAndHeldRecordsLocal() async throws {
        try await EngineHarness.with { harness in
            let calls = Calls()
            let plugins = Self.plugins(calls)
            let engine = Self.engine(harness, plugins)
            let ids = try harness.createAccounts(["Edit", "Remove", "Refuse me", "Hold me"], secondsApart: 1)
            _ = try await engine.syncDown(try Self.down(plugins))
            try harness.editLocally(ids[0], name: "Edited")
            try harness.markLocallyDeleted(ids[1])
            try harness.editLocally(ids[2], name: "refuse this")
            try harness.editLocally(ids[3], name: "hold this")
            let created = try harness.createLocalAccount(["Name": "New"])

            let summary = try await engine.syncUp(try Self.up(plugins))

            #expect(summary.status == .done)
            #expect(summary.created == 1 && summary.updated == 1 && summary.deleted == 1, "\(summary)")
            #expect(summary.failed == 1 && summary.skipped == 1, "\(summary)")
            #expect(try harness.serverName(ids[0]) == "Edited")
            #expect(try harness.serverName(ids[1]) == nil)
            #expect(try harness.serverName(ids[2]) == "Refuse me")
            #expect(try harness.serverName(ids[3]) == "Hold me")
            let new = try #require(try harness.storedEntry(created))
            let newID = try #require(new["Id"]?.stringValue)
            #expect(!newID.hasPrefix("local_") && new["__local__"] == false)
            #expect(try harness.serverName(newID) == "New")
            let refused = try #require(try harness.storedDocument(id: ids[2]))
            #expect(refused["__local__"] == true && refused["Name"] == "refuse this")
            let lastError = refused["__last_error__"]?.stringValue ?? ""
            #expect(lastError.contains("REFUSED_NAME") && lastError.contains("'refuse' are refused"), "\(lastError)")
            #expect(try harness.storedDocument(id: ids[3])?["__local__"] == true)
            #expect(try harness.storedDocument(id: ids[1]) == nil)
        }
    }

    @Test func leaveIfChangedLeavesServerChangesAsConflictsThroughTheDefaultCheck() async throws {
        try await EngineHarness.with { harness in
            let plugins = Self.plugins(Calls())
            let engine = Self.engine(harness, plugins)
            let ids = try harness.createAccounts(["Mine", "Contested"], secondsApart: 1)
            _ = try await engine.syncDown(try Self.down(plugins))
            harness.clock.advance(seconds: 5)
            try harness.editLocally(ids[0], name: "Mine edited")
            try harness.editLocally(ids[1], name: "Contested locally")
            harness.clock.advance(seconds: 5)
            try harness.updateAccount(ids[1], fields: ["Name": "Contested on the server"])

            let definition = try Self.up(plugins, mergeMode: "LEAVE_IF_CHANGED")
            let summary = try await engine.syncUp(definition)
            #expect(summary.status == .done && summary.updated == 1 && summary.conflicts == 1, "\(summary)")
            #expect(try harness.serverName(ids[0]) == "Mine edited")
            #expect(try harness.serverName(ids[1]) == "Contested on the server")
            let contested = try #require(try harness.storedDocument(id: ids[1]))
            #expect(contested["__local__"] == true && contested["Name"] == "Contested locally")

            // Our own write's date was written back: editing the record again is no conflict.
            harness.clock.advance(seconds: 5)
            try harness.editLocally(ids[0], name: "Mine edited twice")
            let again = try await engine.syncUp(definition)
            #expect(again.updated == 1 && again.conflicts == 1, "\(again)")
            #expect(try harness.serverName(ids[0]) == "Mine edited twice")
        }
    }

    @Test func anOrgFailureEndsTheRunFailedWithEveryChangeStillLocal() async throws {
        try await EngineHarness.with { harness in
            let calls = Calls()
            let down = Self.plugins(calls)
            let lost = OrgClientError(code: .connectionFailed, message: "connection reset by peer")
            let plugins = Self.plugins(calls, up: AccountsUp(calls: calls, failWith: lost))
            let ids = try harness.createAccounts(["One", "Two"], secondsApart: 1)
            _ = try await Self.engine(harness, down).syncDown(try Self.down(down))
            try harness.editLocally(ids[0], name: "One edited")
            try harness.markLocallyDeleted(ids[1])

            let summary = try await Self.engine(harness, plugins).syncUp(try Self.up(plugins))
            #expect(summary.status == .failed)
            #expect(summary.error?.contains("connection reset by peer") == true, "\(summary.error ?? "")")
            #expect(try harness.storedDocument(id: ids[0])?["__local__"] == true)
            #expect(try harness.storedDocument(id: ids[1])?["__locally_deleted__"] == true)
            #expect(try harness.serverName(ids[1]) == "Two")
        }
    }

    @Test func theDryRunDecidesAsTheRunAndWritesNothing() async throws {
        try await EngineHarness.with { harness in
            let calls = Calls()
            let plugins = Self.plugins(calls)
            let engine = Self.engine(harness, plugins)
            let ids = try harness.createAccounts(["Edit", "Hold"], secondsApart: 1)
            _ = try await engine.syncDown(try Self.down(plugins))
            try harness.editLocally(ids[0], name: "Edited")
            try harness.editLocally(ids[1], name: "hold it")
            try harness.createLocalAccount(["Name": "New"])

            let preview = try await engine.preview(try Self.up(plugins), operation: .syncUp)
            #expect(preview.org.created == 1 && preview.org.updated == 1 && preview.skipped == 1, "\(preview)")
            #expect(await calls.writes.isEmpty)
            #expect(try harness.serverName(ids[0]) == "Edit")
            #expect(try harness.requestLog().allSatisfy { $0.method == "GET" || $0.path.contains("/query") })
        }
    }

    // MARK: Logging

    /// A log handler keeping what plug-ins log, per test.
    struct KeptLogs: LogHandler {
        final class Lines: @unchecked Sendable {
            // Safe: `kept` is only touched under `lock`.
            private let lock = NSLock()
            private var kept: [(message: String, metadata: Logger.Metadata)] = []
            func append(_ message: String, _ metadata: Logger.Metadata) {
                lock.withLock { kept.append((message, metadata)) }
            }
            var all: [(message: String, metadata: Logger.Metadata)] { lock.withLock { kept } }
        }

        let lines: Lines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            lines.append("\(event.message)", metadata.merging(event.metadata ?? [:]) { _, new in new })
        }
    }

    @Test func pluginsLogThroughTheEnginesLoggerNamedByTheirClass() async throws {
        try await EngineHarness.with { harness in
            let plugins = Self.plugins(Calls())
            let lines = KeptLogs.Lines()
            var configuration = SyncEngineConfiguration()
            configuration.customTargets = plugins
            let engine = SyncEngine(
                store: harness.store,
                org: harness.org,
                logger: Logger(label: "embedder") { _ in KeptLogs(lines: lines) },
                configuration: configuration
            )
            _ = try harness.createAccounts(["One"], secondsApart: 1)
            #expect(try await engine.syncDown(try Self.down(plugins)).status == .done)
            try harness.createLocalAccount(["Name": "New"])
            #expect(try await engine.syncUp(try Self.up(plugins)).created == 1)

            let fromPlugins = lines.all.filter { $0.metadata["plugin"] != nil }
            #expect(
                fromPlugins.map { "\($0.metadata["plugin"] ?? "") \($0.message)" }
                    == ["AccountsDown fetching accounts", "AccountsUp creating an account"]
            )
        }
    }
}
