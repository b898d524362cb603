import Foundation
import LocalOrg
import OrgClient
import SoupStore
import SyncConfig
import SyncEngine
import SyncrunTestSupport
import Testing

/// The briefcase target end to end against the local org's priming-records API over HTTP: two
/// object types into two soups, priming pages and retrieve slices, resync from the watermark,
/// merge modes, ghost cleaning of every type, rule errors, and the dry run.
struct BriefcaseTests {
    /// Energy accounts and the contacts matching `contactFilter`.
    static func schema(contactFilter: String? = nil) -> OrgSchema {
        BriefcaseFixtures.schema(contactFilter: contactFilter)
    }

    static func definition(
        mergeMode: SyncConfig.MergeMode = .overwrite,
        countIdsPerRetrieve: Int = 2
    ) -> SyncDefinition {
        SyncDefinition(
            name: "briefcase",
            type: .syncDown,
            soupName: "",
            target: .down(
                .briefcase(
                    BriefcaseSyncDownTarget(
                        infos: [
                            BriefcaseObjectInfo(sobjectType: "Account", soupName: "accounts", fieldlist: ["Name"]),
                            BriefcaseObjectInfo(
                                sobjectType: "Contact",
                                soupName: "contacts",
                                fieldlist: ["LastName", "AccountId"]
                            ),
                        ],
                        countIdsPerRetrieve: countIdsPerRetrieve
                    )
                )
            ),
            options: SyncOptions(mergeMode: mergeMode)
        )
    }

    static func isPriming(_ entry: RequestLogEntry) -> Bool {
        entry.method == "GET" && entry.path.contains("/connect/briefcase/priming-records")
    }

    @Test func firstRunSavesEachTypeIntoItsSoupThroughPrimingPagesAndRetrieveSlices() async throws {
        try await EngineHarness.with(pageSize: 3, schema: Self.schema()) { harness in
            try await harness.registerContactsSoup()
            let energy = try harness.createAccounts(
                ["E1", "E2", "E3", "E4", "E5"],
                industry: "Energy",
                secondsApart: 1
            )
            try harness.createAccounts(["Other 1", "Other 2"], industry: "Banking")
            for name in ["C1", "C2", "C3"] { try harness.createChild(name, accountID: energy[0]) }

            let summary = try await harness.engine().syncDown(Self.definition())

            #expect(summary.status == .done, "\(summary.error ?? "")")
            #expect(try harness.storedNames() == ["E1", "E2", "E3", "E4", "E5"])
            #expect(try harness.contactNames() == ["C1", "C2", "C3"])
            #expect(summary.fetched == 8 && summary.saved == 8 && summary.created == 8)
            // Priming pages of 3 ids: [E1 E2 E3] [E4 E5 C1] [C2 C3]; retrieves of at most 2 ids per
            // type and page: 2 + (1 + 1) + 1.
            let log = try harness.requestLog()
            #expect(log.filter(Self.isPriming).count == 3)
            #expect(log.filter(EngineHarness.isCollectionRetrieve).count == 5)
            #expect(summary.pages == 5)
            // Sforce-Limit-Info of the last response: every request so far counted, of the default allocation.
            #expect(summary.apiUsage == APIUsage(used: log.count, max: 100_000))
            let state = try harness.engine().syncState(id: summary.syncID)
            #expect(state.status == .done)
            #expect(state.totalSize == 8)  // accumulated over the priming pages, not the first page's 3
            #expect(state.maxTimeStamp > 0)
            // Saved as sync down saves: server record with attributes, this sync's id, clean flags.
            #expect(try harness.storedValue("attributes.type", ofID: energy[0]) == .text("Account"))
            #expect(try harness.storedValue("__sync_id__", ofID: energy[0]) == .integer(summary.syncID))
            #expect(try harness.storedValue("__local__", ofID: energy[0]) == .text("false"))
        }
    }

    @Test func resyncFetchesOnlyWhatChangedSinceTheWatermarkIncludingRecordsStampedAtIt() async throws {
        try await EngineHarness.with(schema: Self.schema()) { harness in
            try await harness.registerContactsSoup()
            let ids = try harness.createAccounts(["E1", "E2", "E3", "E4"], industry: "Energy", secondsApart: 1)
            let engine = harness.engine()
            let first = try await engine.syncDown(Self.definition())
            #expect(first.status == .done && first.fetched == 4)
            let watermark = try engine.syncState(id: first.syncID).maxTimeStamp

            // Written after the run but stamped exactly at the watermark's instant (same millisecond).
            let tie = try harness.seedRecord(
                "Account",
                fields: ["Name": "Tie", "Industry": "Energy"],
                stampedAt: watermark
            )
            harness.clock.advance(seconds: 30)
            try harness.updateAccount(ids[1], fields: ["Name": .string("E2 renamed")])
            try harness.createAccounts(["Not in the briefcase"], industry: "Banking")
            let logged = try harness.requestLog().count

            let resync = try await engine.syncDown(Self.definition())

            #expect(resync.status == .done, "\(resync.error ?? "")")
            // The renamed record, the tie, and E4 (stamped at the watermark itself): nothing else.
            #expect(resync.fetched == 3)
            // E4 comes exactly as stored: unchanged, not updated (issue 31 item 2).
            #expect(resync.created == 1 && resync.updated == 1 && resync.unchanged == 1)
            #expect(try harness.storedNames() == ["E1", "E2 renamed", "E3", "E4", "Tie"])
            #expect(try harness.storedCount() == 5)  // upserted by id: nothing duplicated
            #expect(try harness.storedValue("Id", ofID: tie) == .text(tie))
            let requests = Array(try harness.requestLog().dropFirst(logged))
            #expect(requests.filter(Self.isPriming).count == 1)
            #expect(requests.filter(EngineHarness.isCollectionRetrieve).count == 2)  // 3 account ids, slices of 2
            #expect(try engine.syncState(id: resync.syncID).maxTimeStamp > watermark)
        }
    }

    @Test func leaveIfChangedProtectsLocallyChangedRecordsAndOverwriteReplacesThem() async throws {
        try await EngineHarness.with(schema: Self.schema()) { harness in
            try await harness.registerContactsSoup()
            let ids = try harness.createAccounts(["E1", "E2"], industry: "Energy")
            let contact = try harness.createChild("C1", accountID: ids[0])
            let engine = harness.engine()
            _ = try await engine.syncDown(Self.definition(mergeMode: .leaveIfChanged))
            try harness.editLocally(ids[0], name: "E1 edited here")
            try harness.editLocally(contact, lastName: "C1 edited here")
            harness.clock.advance(seconds: 10)
            try harness.updateAccount(ids[0], fields: ["Name": .string("E1 edited on the org")])
            try harness.database.write {
                try $0.update("Contact", id: contact, fields: ["LastName": .string("C1 edited on the org")])
            }

            let kept = try await engine.syncDown(Self.definition(mergeMode: .leaveIfChanged))
            #expect(kept.status == .done)
            #expect(kept.skippedLocallyChanged == 2)
            #expect(try harness.storedNames() == ["E1 edited here", "E2"])
            #expect(try harness.contactNames() == ["C1 edited here"])

            let replaced = try await engine.syncDown(Self.definition(mergeMode: .overwrite), replace: true)
            #expect(replaced.status == .done)
            #expect(replaced.skippedLocallyChanged == 0)
            #expect(try harness.storedNames() == ["E1 edited on the org", "E2"])
            #expect(try harness.contactNames() == ["C1 edited on the org"])
            #expect(try harness.storedValue("__local__", ofID: contact, in: "contacts") == .text("false"))
        }
    }

    @Test func cleanGhostsRemovesWhatTheBriefcaseNoLongerHoldsInEveryTypeButNeverLocalChanges() async throws {
        try await EngineHarness.with(schema: Self.schema()) { harness in
            try await harness.registerContactsSoup()
            let ids = try harness.createAccounts(["E1", "E2", "E3", "E4"], industry: "Energy")
            let contacts = try ["C1", "C2", "C3"].map { try harness.createChild($0, accountID: ids[0]) }
            let engine = harness.engine()
            _ = try await engine.syncDown(Self.definition())
            try harness.editLocally(contacts[2], lastName: "C3 edited here")

            try harness.deleteAccount(ids[1])  // deleted on the org
            try harness.updateAccount(ids[2], fields: ["Industry": .string("Banking")])  // left the briefcase
            // Every contact gone: the briefcase returns no Contact at all. The SDK skips such a type;
            // syncrun cleans it.
            try harness.database.write { writer in for id in contacts { try writer.delete("Contact", id: id) } }
            let logged = try harness.requestLog().count

            let summary = try await engine.cleanGhosts(Self.definition())

            #expect(summary.status == .done, "\(summary.error ?? "")")
            #expect(summary.deletedGhosts == 4)
            #expect(try harness.storedNames() == ["E1", "E4"])
            #expect(try harness.contactNames() == ["C3 edited here"])  // local changes are never ghosts
            let requests = Array(try harness.requestLog().dropFirst(logged))
            #expect(requests.allSatisfy(Self.isPriming))  // ids only: no record is retrieved
        }
    }

    @Test func aRuleTheOrgCannotRunFailsTheSyncAndRefusesGhostCleaning() async throws {
        // Priming pages of one id: E1, E2, then the page where the contact rule fails.
        try await EngineHarness.with(pageSize: 1, schema: Self.schema(contactFilter: "Nope__c = 'x'")) { harness in
            try await harness.registerContactsSoup()
            try harness.createAccounts(["E1", "E2"], industry: "Energy")
            let engine = harness.engine()

            let summary = try await engine.syncDown(Self.definition())

            #expect(summary.status == .failed)
            let error = try #require(summary.error)
            #expect(error.contains("'FieldSales:2'"))
            #expect(error.contains("the watermark was not advanced"))
            let state = try engine.syncState(id: summary.syncID)
            #expect(state.status == .failed && state.maxTimeStamp == -1)
            #expect(state.error == error)

            let ghosts = try await engine.cleanGhosts(Self.definition())
            #expect(ghosts.status == .failed)
            #expect(ghosts.deletedGhosts == 0)
            #expect(try harness.storedNames() == ["E1", "E2"])  // saved before the failing page, kept
        }
    }

    @Test func aStoppedRunIsCompletedByTheNextResync() async throws {
        try await EngineHarness.with(pageSize: 2, schema: Self.schema()) { harness in
            try await harness.registerContactsSoup()
            try harness.createAccounts(["E1", "E2", "E3", "E4", "E5"], industry: "Energy", secondsApart: 1)
            let engine = harness.engine()
            let stop = StopSignal()
            let recorder = EventRecorder()
            let watcher = Task {
                for await event in recorder.stream {
                    if case .page = event { stop.requestStop() }
                }
            }
            let stopped = try await engine.syncDown(Self.definition(), stop: stop, events: recorder.continuation)
            recorder.continuation.finish()
            await watcher.value
            #expect(stopped.status == .stopped)
            #expect(try harness.storedCount() < 5)

            let resumed = try await engine.syncDown(Self.definition())
            #expect(resumed.status == .done)
            #expect(try harness.storedNames() == ["E1", "E2", "E3", "E4", "E5"])
        }
    }

    @Test func dryRunWritesNothingAndMatchesTheRun() async throws {
        try await EngineHarness.with(pageSize: 3, schema: Self.schema()) { harness in
            try await harness.registerContactsSoup()
            let ids = try harness.createAccounts(["E1", "E2", "E3"], industry: "Energy", secondsApart: 1)
            try harness.createChild("C1", accountID: ids[0])
            let engine = harness.engine()
            _ = try await engine.syncDown(Self.definition())
            harness.clock.advance(seconds: 10)
            try harness.updateAccount(ids[0], fields: ["Name": .string("E1 renamed")])
            try harness.createAccounts(["E4"], industry: "Energy")
            try harness.deleteAccount(ids[2])
            let baseline = try harness.dryRunBaseline()

            let down = try await engine.preview(Self.definition(), operation: .syncDown)
            let ghosts = try await engine.preview(Self.definition(), operation: .cleanGhosts)

            try harness.expectNothingWritten(since: baseline)
            #expect(down.isIncremental)
            // E4 created; E1 renamed; C1 (created after E3, the watermark) fetched again unchanged.
            #expect(down.local == SyncPreview.Changes(created: 1, updated: 1))
            #expect(ghosts.local == SyncPreview.Changes(deleted: 1))
            #expect(ghosts.items.map(\.recordID) == [ids[2]])

            let resync = try await engine.syncDown(Self.definition())
            #expect(resync.created == down.local.created && resync.updated == down.local.updated)
            #expect(resync.unchanged == 1)
            let cleaned = try await engine.cleanGhosts(Self.definition())
            #expect(cleaned.deletedGhosts == ghosts.local.deleted)
        }
    }

    @Test func infosNamingOneTypeTwiceAreRefusedBeforeAnyRequest() async throws {
        try await EngineHarness.with(schema: Self.schema()) { harness in
            let definition = SyncDefinition(
                name: "twice",
                type: .syncDown,
                soupName: "accounts",
                target: .down(
                    .briefcase(
                        BriefcaseSyncDownTarget(infos: [
                            BriefcaseObjectInfo(sobjectType: "Account", soupName: "accounts", fieldlist: ["Name"]),
                            BriefcaseObjectInfo(sobjectType: "account", soupName: "accounts", fieldlist: ["Id"]),
                        ])
                    )
                )
            )
            let refusal = await #expect(throws: SyncEngineError.self) {
                try await harness.engine().syncDown(definition)
            }
            #expect(refusal?.code == .invalidTarget)
            #expect(refusal?.message.contains("keep one info per object type") == true)
            let requests = try harness.requestLog()
            #expect(requests.isEmpty)
        }
    }
}

extension EngineHarness {
    /// The `LastName`s of the `contacts` soup, sorted.
    func contactNames() throws -> [String] {
        var names: [String] = []
        try store.read { reader in
            try reader.query("SELECT {contacts:LastName} FROM {contacts} ORDER BY {contacts:LastName}") { row in
                if case .text(let name) = row.values[0] { names.append(name) }
            }
        }
        return names
    }

    /// Marks the stored contact `id` as locally updated with `lastName`.
    func editLocally(_ id: String, lastName: String) throws {
        try store.write { writer in
            guard let entry = try writer.reader.entries(in: "contacts", wherePath: "Id", isIn: [id]).first else {
                return
            }
            var fields = try OrgValue(parsing: entry.json).objectValue ?? [:]
            fields["LastName"] = .string(lastName)
            fields["__local__"] = .bool(true)
            fields["__locally_updated__"] = .bool(true)
            try writer.upsert(OrgValue.object(fields).jsonText, into: "contacts")
        }
    }

    /// Seeds one record whose `LastModifiedDate` and `SystemModstamp` are exactly `milliseconds`
    /// (through the seeder, which keeps given audit fields); returns its id.
    func seedRecord(_ type: String, fields: [String: String], stampedAt milliseconds: Int64) throws -> String {
        let stamp = SalesforceStamp.format(milliseconds)
        var members = fields.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \"\($0.value)\"" }
        members.append("\"LastModifiedDate\": \"\(stamp)\"")
        members.append("\"SystemModstamp\": \"\(stamp)\"")
        let reference = "Seed\(UUID().uuidString.prefix(8))"
        let record =
            "{\"attributes\": {\"type\": \"\(type)\", \"referenceId\": \"\(reference)\"}, "
            + members.joined(separator: ", ") + "}"
        let file = directory.appendingPathComponent("seed-\(reference).json")
        try Data("{\"records\": [\(record)]}".utf8).write(to: file)
        let report = try OrgSeeder(database: database).seed(files: [file])
        return try #require(report.references[reference])
    }
}

/// Salesforce date-times for seeding (`2026-01-01T00:00:03.000+0000`).
enum SalesforceStamp {
    static func format(_ milliseconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
}
