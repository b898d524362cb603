import Foundation
import LocalOrg
import OrgClient
import SoupStore
import SyncConfig
import SyncEngine
import SyncrunTestSupport
import Testing

/// `endpoint` targets end to end: the config's keys loaded by the config loader, run by the engine
/// over HTTP against the local org, whose schema declares JSON endpoints over Account
/// (`/services/apexrest/accounts`, keyed by Id, and `/services/apexrest/accounts-by-number`,
/// keyed by AccountNumber).
struct EndpointTargetTests {
    static func schema(pageSize: Int = 2, sinceFormat: String = "iso8601") -> OrgSchema {
        var schema = OrgSchema.standard
        schema.endpoints = [
            OrgCustomEndpoint(
                path: "/services/apexrest/accounts",
                object: "Account",
                fields: ["Name", "AccountNumber", "Industry"],
                pageSize: pageSize,
                sinceParam: "modifiedSince",
                sinceFormat: sinceFormat
            ),
            OrgCustomEndpoint(
                path: "/services/apexrest/accounts-by-number",
                object: "Account",
                fields: ["Name", "AccountNumber", "Industry"],
                keyField: "AccountNumber",
                pageSize: pageSize
            ),
        ]
        return schema
    }

    /// The one sync of a `usersyncs.json` holding `sync`, loaded (and validated) by the config loader.
    static func load(_ sync: String) throws -> SyncDefinition {
        let directory = try TemporaryDirectory(prefix: "endpoint-config")
        defer { try? FileManager.default.removeItem(at: directory.url) }
        let url = directory.url.appendingPathComponent("usersyncs.json")
        try Data("{\"syncs\": [\(sync)]}".utf8).write(to: url)
        let loaded = try ConfigLoader().load(storeConfig: nil, syncsConfig: url)
        #expect(!loaded.hasErrors, "\(loaded.diagnostics)")
        return try #require(loaded.userSyncs?.syncs.first)
    }

    static func down(
        nextPage: String = #"{"urlPath": "data.nextUrl"}"#,
        since: String = #"{"param": "modifiedSince", "format": "iso8601"}"#,
        ids: Bool = true,
        mergeMode: String = "OVERWRITE"
    ) throws -> SyncDefinition {
        let idsRequest =
            ids
            ? #", "idsRequest": {"path": "/services/apexrest/accounts/ids", "recordsPath": "data.ids", "#
                + #""nextPage": {"cursorPath": "data.cursor", "cursorParam": "cursor"}}"# : ""
        return try load(
            #"{"syncName": "widgets", "syncType": "syncDown", "soupName": "accounts", "target": {"type": "endpoint", "#
                + #""request": {"path": "/services/apexrest/accounts", "query": {"view": "all"}}, "#
                + #""recordsPath": "data.items", "nextPage": \#(nextPage), "since": \#(since)\#(idsRequest)}, "#
                + #""options": {"mergeMode": "\#(mergeMode)", "cleanGhosts": \#(ids)}}"#
        )
    }

    static func up(mergeMode: String = "OVERWRITE", byNumber: Bool = false, batch: Bool = false) throws
        -> SyncDefinition
    {
        let item =
            byNumber ? "/services/apexrest/accounts-by-number/{AccountNumber}" : "/services/apexrest/accounts/{Id}"
        let batchKey = batch ? #", "batch": {"path": "/services/apexrest/accounts/batch", "maxBatchSize": 2}"# : ""
        return try load(
            #"{"syncName": "pushWidgets", "syncType": "syncUp", "soupName": "accounts", "target": {"type": "endpoint", "#
                + #""createFieldlist": ["Name", "AccountNumber"], "updateFieldlist": ["Name"], "#
                + #""create": {"path": "/services/apexrest/accounts", "idPath": "id"}, "#
                + #""update": {"method": "PATCH", "path": "\#(item)"}, "#
                + #""delete": {"path": "\#(item)"}, "#
                + #""modificationDate": {"request": {"path": "/services/apexrest/accounts/{Id}"}, "#
                + #""path": "LastModifiedDate"}\#(batchKey)}, "#
                + #""options": {"mergeMode": "\#(mergeMode)"}}"#
        )
    }

    static func listRequests(_ harness: EngineHarness) throws -> [RequestLogEntry] {
        try harness.requestLog().filter { $0.path.hasPrefix("/services/apexrest/accounts") && $0.method == "GET" }
    }

    @Test func syncDownFollowsNextURLsAndResyncsWithTheWatermarkParameter() async throws {
        try await EngineHarness.with(schema: Self.schema()) { harness in
            let ids = try harness.createAccounts(["A1", "A2", "A3", "A4", "A5"], secondsApart: 1)
            let definition = try Self.down()
            let engine = harness.engine()

            let first = try await engine.syncDown(definition)
            #expect(first.status == .done, "\(first.error ?? "")")
            #expect(first.fetched == 5 && first.pages == 3)
            #expect(try harness.storedNames() == ["A1", "A2", "A3", "A4", "A5"])
            let firstRequests = try Self.listRequests(harness)
            #expect(firstRequests.count == 3)
            #expect(firstRequests.allSatisfy { $0.path.contains("view=all") && !$0.path.contains("modifiedSince") })
            #expect(first.maxTimeStamp > 0)

            harness.clock.advance(seconds: 60)
            try harness.updateAccount(ids[1], fields: ["Name": "A2 renamed"])
            let second = try await engine.syncDown(definition)
            #expect(second.status == .done, "\(second.error ?? "")")
            // The watermark is inclusive: the record stamped with it comes again, with the renamed one.
            #expect(second.fetched == 2)
            let resync = try #require(try Self.listRequests(harness).dropFirst(3).first)
            #expect(resync.path.contains("modifiedSince=2026-01-01T00%3A00%3A04.000Z"))
            #expect(try harness.storedNames().contains("A2 renamed"))
            #expect(second.maxTimeStamp > first.maxTimeStamp)
        }
    }

    @Test func syncDownFollowsCursorsWithAnEpochMillisWatermark() async throws {
        try await EngineHarness.with(schema: Self.schema(pageSize: 3, sinceFormat: "epochMillis")) { harness in
            try harness.createAccounts(["C1", "C2", "C3", "C4"], secondsApart: 1)
            let definition = try Self.down(
                nextPage: #"{"cursorPath": "data.cursor", "cursorParam": "cursor"}"#,
                since: #"{"param": "modifiedSince", "format": "epochMillis"}"#
            )
            let engine = harness.engine()
            let first = try await engine.syncDown(definition)
            #expect(first.status == .done && first.fetched == 4 && first.pages == 2, "\(first.error ?? "")")
            #expect(try Self.listRequests(harness).last?.path.contains("cursor=3") == true)

            let second = try await engine.syncDown(definition)
            #expect(second.status == .done && second.fetched == 1)
            #expect(try Self.listRequests(harness).last?.path.contains("modifiedSince=\(first.maxTimeStamp)") == true)
        }
    }

    @Test func ghostsAreCleanedThroughThePagedIDsRequest() async throws {
        try await EngineHarness.with(schema: Self.schema()) { harness in
            let ids = try harness.createAccounts(["G1", "G2", "G3", "G4"], secondsApart: 1)
            let definition = try Self.down()
            let engine = harness.engine()
            _ = try await engine.syncDown(definition)
            try harness.deleteAccount(ids[0])

            let ghosts = try await engine.cleanGhosts(definition)
            #expect(ghosts.status == .done && ghosts.deletedGhosts == 1, "\(ghosts.error ?? "")")
            #expect(try harness.storedNames() == ["G2", "G3", "G4"])
            #expect(try harness.requestLog().contains { $0.path == "/services/apexrest/accounts/ids?cursor=2" })
        }
    }

    @Test func ghostCleaningIsRefusedWithoutAnIDsRequest() async throws {
        try await EngineHarness.with(schema: Self.schema()) { harness in
            try harness.createAccounts(["G1"])
            let definition = try Self.down(ids: false)
            _ = try await harness.engine().syncDown(definition)
            let error = await #expect(throws: SyncEngineError.self) {
                _ = try await harness.engine().cleanGhosts(definition)
            }
            #expect(error?.code == .ghostCleaningRefused)
            #expect(error?.message.contains("declares no 'idsRequest'") == true, "\(error?.message ?? "")")
            #expect(try harness.storedNames() == ["G1"])
        }
    }

    /// The list request and the ids request are read by one page walker: a response without the
    /// declared array fails the run, or the ghost cleaning, with a message naming that path.
    @Test func aResponseWithoutTheDeclaredArrayFailsNamingItsPath() async throws {
        try await EngineHarness.with(schema: Self.schema()) { harness in
            try harness.createAccounts(["P1", "P2"])
            let engine = harness.engine()
            let wrongList = try Self.load(
                #"{"syncName": "widgets", "syncType": "syncDown", "soupName": "accounts", "target": {"#
                    + #""type": "endpoint", "request": {"path": "/services/apexrest/accounts"}, "#
                    + #""recordsPath": "data.rows"}}"#
            )
            let down = try await engine.syncDown(wrongList)
            #expect(down.status == .failed)
            #expect(
                down.error?.contains("has no array of records at 'recordsPath' 'data.rows'") == true,
                "\(down.error ?? "")"
            )

            let wrongIDs = try Self.load(
                #"{"syncName": "widgets2", "syncType": "syncDown", "soupName": "accounts", "target": {"#
                    + #""type": "endpoint", "request": {"path": "/services/apexrest/accounts"}, "#
                    + #""recordsPath": "data.items", "nextPage": {"urlPath": "data.nextUrl"}, "#
                    + #""idsRequest": {"path": "/services/apexrest/accounts/ids", "recordsPath": "data.rows"}}, "#
                    + #""options": {"cleanGhosts": true}}"#
            )
            let fetched = try await engine.syncDown(wrongIDs)
            #expect(fetched.status == .done && fetched.fetched == 2, "\(fetched.error ?? "")")
            let ghosts = try await engine.cleanGhosts(wrongIDs)
            #expect(ghosts.status == .failed)
            #expect(
                ghosts.error?.contains("has no array of ids at 'idsRequest.recordsPath' 'data.rows'") == true,
                "\(ghosts.error ?? "")"
            )
            #expect(try harness.storedNames() == ["P1", "P2"])
        }
    }

    @Test(arguments: ["OVERWRITE", "LEAVE_IF_CHANGED"])
    func locallyChangedRecordsFollowTheMergeMode(mergeMode: String) async throws {
        try await EngineHarness.with(schema: Self.schema()) { harness in
            let ids = try harness.createAccounts(["M1", "M2"], secondsApart: 1)
            let definition = try Self.down(mergeMode: mergeMode)
            let engine = harness.engine()
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

    @Test func aMissingEndpointFailsTheSyncWithTheServersMessage() async throws {
        try await EngineHarness.with(schema: Self.schema()) { harness in
            let definition = try Self.load(
                #"{"syncName": "gone", "syncType": "syncDown", "soupName": "accounts", "#
                    + #""target": {"type": "endpoint", "request": {"path": "/services/apexrest/nothing"}, "#
                    + #""recordsPath": "data.items"}, "options": {"mergeMode": "OVERWRITE"}}"#
            )
            let summary = try await harness.engine().syncDown(definition)
            #expect(summary.status == .failed)
            #expect(summary.error?.contains("NOT_FOUND") == true, "\(summary.error ?? "")")
            #expect(summary.error?.contains("/services/apexrest/nothing") == true)
        }
    }

    @Test func syncUpCreatesUpdatesAndDeletesAndLeavesServerChangesAsConflicts() async throws {
        try await EngineHarness.with(schema: Self.schema()) { harness in
            let ids = try harness.createAccounts(["Keep", "Edit", "Remove", "Contested"], secondsApart: 1)
            _ = try await harness.engine().syncDown(try Self.down())
            harness.clock.advance(seconds: 5)
            try harness.editLocally(ids[1], name: "Edited")
            try harness.markLocallyDeleted(ids[2])
            try harness.editLocally(ids[3], name: "Contested locally")
            harness.clock.advance(seconds: 5)
            try harness.updateAccount(ids[3], fields: ["Name": "Contested on the server"])
            let created = try harness.createLocalAccount(["Name": "New", "AccountNumber": "N-1"])

            let summary = try await harness.engine().syncUp(try Self.up(mergeMode: "LEAVE_IF_CHANGED"))

            #expect(summary.status == .done)
            #expect(summary.created == 1 && summary.updated == 1 && summary.deleted == 1 && summary.conflicts == 1)
            #expect(try harness.serverName(ids[1]) == "Edited")
            #expect(try harness.serverName(ids[2]) == nil)
            #expect(try harness.serverName(ids[3]) == "Contested on the server")
            let stored = try #require(try harness.storedEntry(created))
            let newID = try #require(stored["Id"]?.stringValue)
            #expect(!newID.hasPrefix("local_"))
            #expect(try harness.serverName(newID) == "New")
            #expect(stored["__local__"] == false)
            let contested = try #require(try harness.storedDocument(id: ids[3]))
            #expect(contested["__local__"] == true && contested["Name"] == "Contested locally")
            // The read-back date is the server's, so a second run sees no conflict of its own making.
            let again = try await harness.engine().syncUp(try Self.up(mergeMode: "LEAVE_IF_CHANGED"))
            #expect(again.conflicts == 1 && again.created == 0 && again.updated == 0)
        }
    }

    @Test func aRefusedWriteKeepsTheLocalChangeWithTheServersMessage() async throws {
        try await EngineHarness.with(schema: Self.schema()) { harness in
            let bad = try harness.createLocalAccount(["AccountNumber": "no name"])  // Name is required
            let summary = try await harness.engine().syncUp(try Self.up())
            #expect(summary.status == .done && summary.failed == 1 && summary.created == 0)
            let stored = try #require(try harness.storedEntry(bad))
            #expect(stored["__local__"] == true && stored["__locally_created__"] == true)
            let error = stored["__last_error__"]?.stringValue ?? ""
            #expect(error.contains("REQUIRED_FIELD_MISSING"), "\(error)")
        }
    }

    @Test func theBatchFormSendsSeveralWritesPerRequest() async throws {
        try await EngineHarness.with(schema: Self.schema()) { harness in
            for index in 1...3 { try harness.createLocalAccount(["Name": .string("Batch \(index)")]) }
            let summary = try await harness.engine().syncUp(try Self.up(batch: true))
            #expect(summary.status == .done && summary.created == 3, "\(summary.issues)")
            let batches = try harness.requestLog().filter { $0.path == "/services/apexrest/accounts/batch" }
            #expect(batches.count == 2)
            #expect(try harness.database.query("SELECT Id FROM Account", apiVersion: "62.0").totalSize == 3)
        }
    }

    @Test func placeholderValuesStayInsideTheirPathSegment() async throws {
        try await EngineHarness.with(schema: Self.schema()) { harness in
            let keys = ["a/b", "x?y=1&z", "..", ".", "O'Brien \"quoted\"", "Zürich 東京", "%2F..%2F"]
            var ids: [String] = []
            for key in keys {
                ids.append(
                    try harness.database.write {
                        try $0.create(
                            "Account",
                            fields: ["Name": .string("Old " + key), "AccountNumber": .string(key)]
                        )
                    }
                )
            }
            let decoy = try harness.database.write {
                try $0.create("Account", fields: ["Name": "decoy", "AccountNumber": "b"])
            }
            _ = try await harness.engine().syncDown(try Self.down())
            for (id, key) in zip(ids, keys) { try harness.editLocally(id, name: "New " + key) }

            let summary = try await harness.engine().syncUp(try Self.up(byNumber: true))

            #expect(
                summary.status == .done && summary.updated == keys.count && summary.failed == 0,
                "\(summary.issues)"
            )
            for (id, key) in zip(ids, keys) { #expect(try harness.serverName(id) == "New " + key) }
            #expect(try harness.serverName(decoy) == "decoy")
            let paths = try harness.requestLog().filter { $0.method == "PATCH" }.map(\.path)
            #expect(paths.contains("/services/apexrest/accounts-by-number/a%2Fb"))
            #expect(paths.contains("/services/apexrest/accounts-by-number/%2E%2E"))
            #expect(paths.allSatisfy { $0.hasPrefix("/services/apexrest/accounts-by-number/") && !$0.contains("?") })
        }
    }
}

extension EngineHarness {
    /// Marks the stored record `id` as locally deleted.
    func markLocallyDeleted(_ id: String) throws {
        try store.write { writer in
            guard let entry = try writer.reader.entries(in: "accounts", wherePath: "Id", isIn: [id]).first else {
                return
            }
            var fields = try OrgValue(parsing: entry.json).objectValue ?? [:]
            fields["__local__"] = .bool(true)
            fields["__locally_deleted__"] = .bool(true)
            try writer.upsert(OrgValue.object(fields).jsonText, into: "accounts")
        }
    }

    /// Adds a locally created Account and returns its entry id.
    @discardableResult
    func createLocalAccount(_ fields: [String: OrgValue]) throws -> Int64 {
        var record: [String: OrgValue] = [
            "attributes": ["type": "Account"], "Id": .string("local_\(UUID().uuidString)"), "__local__": true,
            "__locally_created__": true, "__locally_updated__": false, "__locally_deleted__": false,
        ]
        record.merge(fields) { $1 }
        return try store.write { try $0.upsert(OrgValue.object(record).jsonText, into: "accounts").entryID }
    }

    func storedEntry(_ entryID: Int64) throws -> [String: OrgValue]? {
        try store.read { try $0.entry(entryID, in: "accounts") }.flatMap { try OrgValue(parsing: $0.json).objectValue }
    }

    func storedDocument(id: String) throws -> [String: OrgValue]? {
        try store.read { try $0.entries(in: "accounts", wherePath: "Id", isIn: [id]) }.first
            .flatMap { try OrgValue(parsing: $0.json).objectValue }
    }

    /// The Name of the Account `id` on the server, or `nil` when it is gone.
    func serverName(_ id: String) throws -> String? {
        let page = try database.query("SELECT Name FROM Account WHERE Id = '\(id)'", apiVersion: "62.0")
        let records = try OrgValue(parsing: String(decoding: page.recordsJSON, as: UTF8.self))
        return records.arrayValue?.first?["Name"]?.stringValue
    }
}
