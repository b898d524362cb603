import Foundation
import LocalOrg
import OrgClient
import SyncConfig
import SyncEngine
import Testing

/// Sync up through Bulk API 2.0 ingest jobs.
struct IngestSyncUpTests {
    static func definition(api: SyncAPI, threshold: Int = 10_000, mergeMode: MergeMode = .overwrite) -> SyncDefinition {
        var definition = UpDefinitions.accounts(
            mergeMode: mergeMode,
            createFields: ["Name", "NumberOfEmployees", EngineHarness.externalIDField],
            updateFields: ["Name", "NumberOfEmployees"],
            externalIDField: EngineHarness.externalIDField
        )
        if case .up(var target) = definition.target {
            target.api = api
            target.bulkThreshold = threshold
            definition.target = .up(target)
        }
        return definition
    }

    /// Creates without an external id go through sObject Collections even when the batch goes
    /// through Bulk: a batch of more than 200 of them is split into calls of 200 (it used to be
    /// sent as one call, which the org refuses).
    @Test func moreThanTwoHundredCreatesBesideAJobAreSentTwoHundredPerCall() async throws {
        try await EngineHarness.withSyncUp { harness in
            for index in 1...450 { try harness.createLocally(["Name": .string("Bulk \(index)")]) }
            var definition = UpDefinitions.accounts()
            if case .up(var target) = definition.target {
                target.api = .bulk
                definition.target = .up(target)
            }

            let summary = try await harness.engine().syncUp(definition)

            #expect(summary.status == .done && summary.created == 450 && summary.failed == 0)
            let creates = try harness.writeRequests().filter {
                $0.method == "POST" && $0.path.hasSuffix("/composite/sobjects")
            }
            #expect(creates.count == 3)
            #expect(try await harness.store.read { try $0.dirtyEntryCount(in: "accounts") } == 0)
        }
    }

    @Test func anUpsertJobLeavesFailingRowsLocalAndCleansTheOthersWithTheirServerIDs() async throws {
        try await EngineHarness.withSyncUp { harness in
            var good: [Int64] = []
            for index in 1...6 {
                good.append(
                    try harness.createLocally([
                        "Name": .string("Bulk \(index)"), "External_Id__c": .string("EXT-\(index)"),
                        "NumberOfEmployees": .integer(Int64(index)),
                    ])
                )
            }
            // Refused by the org: the employee count is not a number.
            let bad = try harness.createLocally([
                "Name": "Broken", "External_Id__c": "EXT-BAD", "NumberOfEmployees": "many",
            ])
            let summary = try await harness.engine().syncUp(Self.definition(api: .auto, threshold: 7))
            #expect(summary.failed == 1)
            #expect(summary.created == 6)
            for entryID in good {
                let record = try #require(try harness.storedRecord(entryID: entryID))
                let id = try #require(record["Id"]?.stringValue)
                #expect(!id.hasPrefix("local_"))
                #expect(record["__local__"] == false)
                let server = try #require(try harness.serverAccount(id))
                #expect(server["External_Id__c"] == record["External_Id__c"])
                #expect(server["Name"] == record["Name"])
            }
            let failed = try #require(try harness.storedRecord(entryID: bad))
            #expect(failed["__local__"] == true)
            #expect(failed["Id"]?.stringValue?.hasPrefix("local_") == true)
            #expect(failed["__last_error__"]?.stringValue?.contains("JSON_PARSER_ERROR") == true)
            let log = try harness.requestLog()
            #expect(log.contains { $0.method == "POST" && $0.path.hasSuffix("/jobs/ingest") })
            #expect(log.contains { $0.method == "PUT" && $0.path.hasSuffix("/batches") })
            #expect(!log.contains { $0.method == "POST" && $0.path.hasSuffix("/composite/sobjects") })
        }
    }

    @Test func updatesAndDeletesGoByIdAndConflictChecksStillRunFirst() async throws {
        try await EngineHarness.withSyncUp { harness in
            let ids = try harness.createAccounts(["One", "Two", "Three", "Four"])
            try await harness.syncDownAccounts()
            try harness.changeLocally(ids[0], ["Name": "One changed"])
            try harness.changeLocally(ids[1], ["Name": "Two changed"])
            try harness.changeLocally(ids[2], [:], flag: "__locally_deleted__")
            try harness.changeLocally(ids[3], ["Name": "Four changed"])
            // Changed on the server since the sync down: LEAVE_IF_CHANGED keeps it as a conflict.
            try harness.updateAccount(ids[3], fields: ["Name": "Four on the server"])
            let summary = try await harness.engine().syncUp(
                Self.definition(api: .bulk, mergeMode: .leaveIfChanged)
            )
            #expect(summary.updated == 2)
            #expect(summary.deleted == 1)
            #expect(summary.conflicts == 1)
            #expect(try harness.serverAccount(ids[0])?["Name"] == "One changed")
            #expect(try harness.serverAccount(ids[2])?["IsDeleted"] == true || harness.serverAccount(ids[2]) == nil)
            #expect(try harness.serverAccount(ids[3])?["Name"] == "Four on the server")
            let jobs = try harness.requestLog().filter { $0.method == "POST" && $0.path.hasSuffix("/jobs/ingest") }
            #expect(jobs.count == 2)  // one update job, one delete job
        }
    }

    @Test func belowTheThresholdAutoStaysOnCollections() async throws {
        try await EngineHarness.withSyncUp { harness in
            for index in 1...3 {
                try harness.createLocally(["Name": .string("Small \(index)"), "External_Id__c": .string("S-\(index)")])
            }
            let summary = try await harness.engine().syncUp(Self.definition(api: .auto, threshold: 4))
            #expect(summary.created == 3)
            #expect(try !harness.requestLog().contains { $0.path.contains("/jobs/") })
        }
    }
}
