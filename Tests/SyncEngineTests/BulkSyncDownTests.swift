import Foundation
import LocalOrg
import OrgClient
import SoupStore
import SyncConfig
import SyncLedger
import SyncrunTestSupport
import Testing

@testable import SyncEngine

/// `soql` sync downs through Bulk API 2.0 query jobs against the local org.
struct BulkSyncDownTests {
    /// A custom object with a field of every type the local org's describe knows, and a lookup.
    static func gadgetSchema() throws -> OrgSchema {
        try OrgSchema.standard.merging(
            json: Data(
                """
                {"objects": [{"name": "Gadget__c", "fields": [
                  {"name": "Text__c", "type": "string"}, {"name": "Notes__c", "type": "textarea"},
                  {"name": "Email__c", "type": "email"}, {"name": "Phone__c", "type": "phone"},
                  {"name": "Site__c", "type": "url"},
                  {"name": "Color__c", "type": "picklist", "picklistValues": ["Red", "Blue"]},
                  {"name": "Tags__c", "type": "multipicklist", "picklistValues": ["A", "B"]},
                  {"name": "Active__c", "type": "boolean"}, {"name": "Count__c", "type": "int"},
                  {"name": "Ratio__c", "type": "double"}, {"name": "Price__c", "type": "currency"},
                  {"name": "Share__c", "type": "percent"}, {"name": "Day__c", "type": "date"},
                  {"name": "When__c", "type": "datetime"},
                  {"name": "Account__c", "type": "reference", "referenceTo": "Account"}
                ]}]}
                """.utf8
            ),
            source: "gadgets.json"
        )
    }

    static let fields =
        "Id, Name, Text__c, Notes__c, Email__c, Phone__c, Site__c, Color__c, Tags__c, Active__c, Count__c, "
        + "Ratio__c, Price__c, Share__c, Day__c, When__c, Account__c, Account__r.Name, Account__r.Industry, "
        + "LastModifiedDate"

    /// Seeds gadgets whose values cover nulls, CSV's special characters, non-ASCII text and numbers.
    static func seedGadgets(_ harness: EngineHarness, count: Int = 12) throws {
        let names = ["Plain", "Comma, Inc.", "Quote \"Q\" Ltd", "Line\nbreak\r\nagain", "Ünïcödé 東京 🚀", ""]
        try harness.database.write { writer in
            let acme = try writer.create("Account", fields: ["Name": "Acme, \"the\" firm", "Industry": "Energy"])
            let bare = try writer.create("Account", fields: ["Name": "Bare"])
            for index in 0..<count {
                var fields: OrgJSONObject = ["Name": .string("Gadget \(index)")]
                if index % 3 != 2 {
                    fields["Text__c"] = .string(names[index % names.count])
                    fields["Notes__c"] = .string("line 1\nline 2, \"quoted\"\n\ttabbed \\ back")
                    fields["Email__c"] = .string("g\(index)@example.com")
                    fields["Phone__c"] = "+1 (555) 010-0000"
                    fields["Site__c"] = "https://example.com/a?b=c&d=e"
                    fields["Color__c"] = index % 2 == 0 ? "Red" : "Blue"
                    fields["Tags__c"] = "A;B"
                    fields["Active__c"] = .bool(index % 2 == 0)
                    fields["Count__c"] = .integer(Int64(index * 7 - 20))
                    fields["Ratio__c"] = .double(Double(index) / 8 - 0.375)
                    fields["Price__c"] = .double(1234.5 + Double(index))
                    fields["Share__c"] = .double(12.25)
                    fields["Day__c"] = .string("2026-0\(index % 9 + 1)-1\(index % 10)")
                    fields["When__c"] = .string("2026-03-0\(index % 9 + 1)T10:1\(index % 10):00.250Z")
                    fields["Account__c"] = .string(index % 2 == 0 ? acme : bare)
                }
                _ = try writer.create("Gadget__c", fields: fields)
                harness.clock.advance(seconds: 1)
            }
        }
    }

    static func definition(_ name: String, soup: String, api: SyncAPI, query: String? = nil) -> SyncDefinition {
        var target = SOQLSyncDownTarget(query: query ?? "SELECT \(fields) FROM Gadget__c")
        target.api = api
        return SyncDefinition(
            name: name,
            type: .syncDown,
            soupName: soup,
            target: .down(.soql(target)),
            options: SyncOptions(mergeMode: .overwrite)
        )
    }

    static func registerSoups(_ harness: EngineHarness, _ names: [String]) async throws {
        for name in names {
            let spec = SoupSpec(
                name: name,
                indexes: [
                    IndexSpec(path: "Id", type: .string), IndexSpec(path: "__local__", type: .string),
                    IndexSpec(path: "__sync_id__", type: .integer),
                ]
            )
            try await harness.store.write { writer in _ = try writer.registerSoup(spec) }
        }
    }

    /// Every entry of `soup` by Id, as stored, without the store's own fields and `__sync_id__`
    /// (the two syncs compared have different ids), keys in stored order.
    static func entries(_ harness: EngineHarness, soup: String) throws -> [String: String] {
        let stored = try harness.store.read { try $0.entries(in: soup, afterEntryID: 0, limit: 10_000) }
        var byID: [String: String] = [:]
        for entry in stored {
            var text = entry.json
            for key in ["_soupEntryId", "_soupCreatedDate", "_soupLastModifiedDate", "__sync_id__"] {
                text = Self.removing(key, from: text)
            }
            let id = try #require(try OrgValue(parsing: entry.json).objectValue?["Id"]?.stringValue)
            byID[id] = text
        }
        return byID
    }

    /// `text` without the top-level member `key` (a number), byte for byte otherwise.
    static func removing(_ key: String, from text: String) -> String {
        guard let range = text.range(of: ",\"\(key)\":") else { return text }
        var end = range.upperBound
        while end < text.endIndex, text[end] != ",", text[end] != "}" { end = text.index(after: end) }
        return String(text[..<range.lowerBound]) + String(text[end...])
    }

    @Test func restAndBulkSyncDownsLeaveByteIdenticalEntries() async throws {
        try await EngineHarness.with(schema: try Self.gadgetSchema()) { harness in
            try Self.seedGadgets(harness)
            try await Self.registerSoups(harness, ["viaRest", "viaBulk"])
            let engine = harness.engine()
            let rest = try await engine.syncDown(Self.definition("rest", soup: "viaRest", api: .rest))
            let bulk = try await engine.syncDown(Self.definition("bulk", soup: "viaBulk", api: .bulk))
            #expect(rest.status == .done && bulk.status == .done, "\(rest.error ?? "") \(bulk.error ?? "")")
            #expect(rest.fetched == 12 && bulk.fetched == 12)
            #expect(rest.maxTimeStamp == bulk.maxTimeStamp && rest.maxTimeStamp > 0)
            let restEntries = try Self.entries(harness, soup: "viaRest")
            let bulkEntries = try Self.entries(harness, soup: "viaBulk")
            #expect(restEntries.count == 12)
            for (id, text) in restEntries {
                #expect(bulkEntries[id] == text, "entry \(id)")
            }
            let states = try engine.syncStates()
            let restState = try #require(states.first { $0.name == "rest" })
            let bulkState = try #require(states.first { $0.name == "bulk" })
            #expect(restState.totalSize == bulkState.totalSize && bulkState.totalSize == 12)
            #expect(restState.progress == bulkState.progress && bulkState.progress == 100)
            let log = try harness.requestLog()
            #expect(log.contains { $0.method == "POST" && $0.path.hasSuffix("/jobs/query") })
            #expect(log.contains { $0.path.contains("/results") })
            // The finished job is deleted; nothing is left journaled.
            #expect(try await harness.store.read { try $0.bulkJob(syncID: bulkState.id) } == nil)
        }
    }

    /// On API 58.0+ the results are read through `resultPages`, several pages at once, and written
    /// in result order: the entries and the watermark are those of the REST sync down.
    @Test func resultPagesDownloadedSeveralAtOnceLeaveTheRESTEntries() async throws {
        try await EngineHarness.with(schema: try Self.gadgetSchema()) { harness in
            try Self.seedGadgets(harness)
            try await Self.registerSoups(harness, ["viaRest", "viaBulk"])
            var configuration = SyncEngineConfiguration()
            configuration.bulkResultsPageSize = 2
            configuration.maxConcurrentRequests = 4
            let engine = SyncEngine(
                store: harness.store,
                org: harness.org,
                logger: EngineHarness.logger,
                configuration: configuration
            )
            let rest = try await engine.syncDown(Self.definition("rest", soup: "viaRest", api: .rest))
            let bulk = try await engine.syncDown(Self.definition("bulk", soup: "viaBulk", api: .bulk))
            #expect(rest.status == .done && bulk.status == .done, "\(rest.error ?? "") \(bulk.error ?? "")")
            #expect(bulk.fetched == 12)
            #expect(rest.maxTimeStamp == bulk.maxTimeStamp && rest.maxTimeStamp > 0)
            #expect(try Self.entries(harness, soup: "viaRest") == Self.entries(harness, soup: "viaBulk"))
            let log = try harness.requestLog()
            #expect(log.filter { $0.path.contains("/resultPages") }.count == 2)
            #expect(log.filter { $0.path.contains("/results?locator=") }.count == 6)
        }
    }

    @Test func autoSwitchesAtTheThresholdFromTheFirstPagesTotalSize() async throws {
        try await EngineHarness.with(schema: try Self.gadgetSchema()) { harness in
            try Self.seedGadgets(harness, count: 6)
            try await Self.registerSoups(harness, ["below", "above"])
            let engine = harness.engine()
            var below = Self.definition("below", soup: "below", api: .auto)
            var above = Self.definition("above", soup: "above", api: .auto)
            if case .down(.soql(var target)) = below.target {
                target.bulkThreshold = 7
                below.target = .down(.soql(target))
                target.bulkThreshold = 6
                above.target = .down(.soql(target))
            }
            _ = try await engine.syncDown(below)
            #expect(try !harness.requestLog().contains { $0.path.hasSuffix("/jobs/query") })
            let summary = try await engine.syncDown(above)
            #expect(summary.status == .done)
            #expect(summary.fetched == 6)
            #expect(try harness.requestLog().contains { $0.path.hasSuffix("/jobs/query") })
            #expect(try Self.entries(harness, soup: "below") == Self.entries(harness, soup: "above"))
        }
    }

    @Test func aResyncThroughBulkFetchesOnlyWhatChangedSinceTheWatermark() async throws {
        try await EngineHarness.with(schema: try Self.gadgetSchema()) { harness in
            try Self.seedGadgets(harness, count: 5)
            try await Self.registerSoups(harness, ["gadgets"])
            let engine = harness.engine()
            let definition = Self.definition("gadgets", soup: "gadgets", api: .bulk)
            let first = try await engine.syncDown(definition)
            #expect(first.fetched == 5)
            harness.clock.advance(seconds: 60)
            _ = try harness.database.write { try $0.create("Gadget__c", fields: ["Name": "Late"]) }
            let second = try await engine.syncDown(definition)
            #expect(second.status == .done)
            // The watermark filter is inclusive: the newest earlier record comes again, plus the new one.
            #expect(second.fetched == 2)
            #expect(second.maxTimeStamp > first.maxTimeStamp)
            #expect(try harness.storedCount(in: "gadgets") == 6)
            let creates = try harness.requestLog().filter { $0.method == "POST" && $0.path.hasSuffix("/jobs/query") }
            #expect(creates.count == 2)
        }
    }

    @Test func ghostCleaningListsTheIdsThroughAJob() async throws {
        try await EngineHarness.with(schema: try Self.gadgetSchema()) { harness in
            try Self.seedGadgets(harness, count: 5)
            try await Self.registerSoups(harness, ["gadgets"])
            let engine = harness.engine()
            let definition = Self.definition("gadgets", soup: "gadgets", api: .bulk)
            _ = try await engine.syncDown(definition)
            let gone = try harness.database.query("SELECT Id FROM Gadget__c LIMIT 2", apiVersion: "59.0")
            let ids = try OrgValue(parsing: String(decoding: gone.recordsJSON, as: UTF8.self)).arrayValue ?? []
            for id in ids.compactMap({ $0["Id"]?.stringValue }) {
                try harness.database.write { try $0.delete("Gadget__c", id: id) }
            }
            let summary = try await engine.cleanGhosts(definition)
            #expect(summary.status == .done, "\(summary.error ?? "")")
            #expect(summary.deletedGhosts == 2)
            #expect(try harness.storedCount(in: "gadgets") == 3)
            let creates = try harness.requestLog().filter { $0.method == "POST" && $0.path.hasSuffix("/jobs/query") }
            #expect(creates.count == 2)  // the sync down's job and the id listing's
            #expect(try !harness.requestLog().contains { $0.path.contains("/query?q=") })
        }
    }

    @Test func aFailedJobFailsTheSyncWithTheServersMessage() async throws {
        var faults = FaultConfiguration()
        faults.bulkJobFailure = "Query timeout: the query took longer than 600 seconds"
        try await EngineHarness.with(faults: faults, schema: try Self.gadgetSchema()) { harness in
            try Self.seedGadgets(harness, count: 2)
            try await Self.registerSoups(harness, ["gadgets"])
            let summary = try await harness.engine().syncDown(Self.definition("gadgets", soup: "gadgets", api: .bulk))
            #expect(summary.status == .failed)
            let error = try #require(summary.error)
            #expect(error.contains("sync 'gadgets'"))
            #expect(error.contains("ended Failed: Query timeout: the query took longer than 600 seconds"))
        }
    }

    @Test func queriesBulkCannotRunStayOnREST() async throws {
        try await EngineHarness.with { harness in
            try harness.createAccounts(["A", "B"])
            let query = "SELECT Id, Name, LastModifiedDate, (SELECT Id FROM Contacts) FROM Account"
            var definition = Definitions.soql("accounts", query: query)
            if case .down(.soql(var target)) = definition.target {
                target.api = .bulk
                definition.target = .down(.soql(target))
            }
            let summary = try await harness.engine().syncDown(definition)
            #expect(summary.status == .done && summary.fetched == 2)
            #expect(try !harness.requestLog().contains { $0.path.contains("/jobs/") })
        }
    }
}

/// A run stopped between results pages, resumed by the next run on the same job.
struct BulkResumeTests {
    @Test func aRunStoppedBetweenResultPagesResumesTheSameJob() async throws {
        try await TemporaryDirectory.with(prefix: "syncengine-bulk-resume") { directory in
            let clock = TestClock()
            let database = try OrgDatabase(
                directory: directory.appendingPathComponent("org"),
                configuration: OrgDatabase.Configuration(now: { clock.now })
            )
            try database.write { writer in
                for index in 0..<10 {
                    _ = try writer.create("Account", fields: ["Name": .string("Account \(index)")])
                    clock.advance(seconds: 1)
                }
            }
            let stop = StopSignal()
            let resultRequests = LockedCounter()
            let store = try SoupStore.ledger(path: directory.appendingPathComponent("store.db").path)
            var configuration = LocalOrgConfiguration(requestLogURL: directory.appendingPathComponent("log.jsonl"))
            configuration.requestObserver = { _, target in
                // The second results page is asked for while the first is written (one page
                // ahead, one request at a time: see maxConcurrentRequests below): its answer waits
                // until the first page is in the soup, then the run is stopped, so the second page
                // arrives to a stopped run and is not written.
                guard target.contains("/results"), resultRequests.increment() == 2 else { return }
                let deadline = Date().addingTimeInterval(30)
                while Date() < deadline, (try? store.read { try $0.entryCount(in: "accounts") }) != 4 {
                    Thread.sleep(forTimeInterval: 0.01)
                }
                stop.requestStop()
            }
            let server = try LocalOrgServer(configuration: configuration, database: database)
            try await store.write { writer in _ = try writer.registerSoup(EngineHarness.accountsSoup) }
            try await server.withRunningServer { endpoint in
                let orgEndpoint = try OrgEndpoint(
                    baseURL: endpoint.baseURL.absoluteString,
                    accessToken: endpoint.accessToken
                )
                try await withRESTOrgClient(
                    configuration: RESTOrgClient.Configuration(endpoint: orgEndpoint),
                    logger: EngineHarness.logger
                ) { client in
                    var engineConfiguration = SyncEngineConfiguration()
                    engineConfiguration.bulkResultsPageSize = 4
                    let engine = SyncEngine(
                        store: store,
                        org: client,
                        logger: EngineHarness.logger,
                        configuration: engineConfiguration
                    )
                    var definition = Definitions.soql(
                        "accounts",
                        query: "SELECT Id, Name, LastModifiedDate FROM Account"
                    )
                    if case .down(.soql(var target)) = definition.target {
                        target.api = .bulk
                        definition.target = .down(.soql(target))
                    }
                    // Pages one after the other, so the second results request is the second
                    // page (several in flight through resultPages come in any order).
                    definition.options.maxConcurrentRequests = 1
                    let first = try await engine.syncDown(definition, stop: stop)
                    #expect(first.status == .stopped)
                    #expect(first.fetched == 4)
                    let state = try #require(try engine.syncStates(named: "accounts").first)
                    let journaled = try #require(try await store.read { try $0.bulkJob(syncID: state.id) })
                    #expect(journaled.locator != nil)

                    let second = try await engine.syncDown(definition)
                    #expect(second.status == .done)
                    #expect(second.fetched == 6)
                    #expect(try await store.read { try $0.entryCount(in: "accounts") } == 10)
                    #expect(try await store.read { try $0.bulkJob(syncID: state.id) } == nil)
                    let log = try String(contentsOf: directory.appendingPathComponent("log.jsonl"), encoding: .utf8)
                    let creates = log.split(separator: "\n").filter {
                        $0.contains("\"POST\"") && $0.contains("/jobs/query\"")
                    }
                    #expect(creates.count == 1)
                    #expect(log.contains("/jobs/query/\(journaled.jobID)/results?locator="))
                }
            }
        }
    }

    @Test func aJobLeftForAnotherQueryIsAbortedAndStartedAgain() async throws {
        try await EngineHarness.with { harness in
            try harness.createAccounts(["A", "B", "C"])
            let engine = harness.engine()
            var definition = Definitions.soql("accounts", query: "SELECT Id, Name, LastModifiedDate FROM Account")
            if case .down(.soql(var target)) = definition.target {
                target.api = .bulk
                definition.target = .down(.soql(target))
            }
            let state = try engine.prepare(definition)
            // A job some earlier run left behind, for a query this run will not send.
            let left = try await harness.org.createQueryJob("SELECT Id FROM Account", includesDeleted: false)
            try await harness.store.write { writer in
                try writer.recordBulkJob(
                    BulkJobJournalEntry(
                        syncID: state.id,
                        jobID: left.id,
                        query: "SELECT Id FROM Account",
                        apiVersion: harness.org.apiVersion,
                        since: -1,
                        locator: nil,
                        createdAt: 0
                    )
                )
            }
            let summary = try await engine.syncDown(definition)
            #expect(summary.status == .done && summary.fetched == 3, "\(summary.error ?? "")")
            let after = try await harness.org.queryJob(left.id)
            #expect(after.state == .aborted || after.state == .jobComplete)
            let creates = try harness.requestLog().filter { $0.method == "POST" && $0.path.hasSuffix("/jobs/query") }
            #expect(creates.count == 2)
        }
    }
}

/// A counter shared with the local org's request observer.
final class LockedCounter: Sendable {
    private let lock = NSLock()
    private nonisolated(unsafe) var value = 0

    /// Adds one and returns the new value.
    func increment() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}
