import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing

/// Issue 32 item 1: every polymorphic reference a migration meets. Tasks and Events whose `WhatId`
/// points at Accounts and Opportunities (and one Task at a Case, which the migration does not
/// write) and whose `WhoId` points at Contacts and Leads; Task owners split between a user and a
/// queue (matched by `DeveloperName`, with its `QueueSobject`).
@Suite(.serialized)
struct MigratePolymorphicTests {
    /// The extra sync downs and ups: leads, tasks, events.
    static let syncs = """
        "syncs": [
            {"syncName": "leadsDown", "syncType": "syncDown", "soupName": "leads", "target": {"type": "soql",
             "query": "SELECT Id, LastName, Company, Email, LastModifiedDate FROM Lead"},
             "options": {"mergeMode": "OVERWRITE"}},
            {"syncName": "leadsUp", "syncType": "syncUp", "soupName": "leads",
             "target": {"createFieldlist": ["LastName", "Company", "Email"], "matchFields": ["Email"]},
             "options": {"mergeMode": "OVERWRITE"}},
            {"syncName": "tasksDown", "syncType": "syncDown", "soupName": "tasks", "target": {"type": "soql",
             "query": "SELECT Id, Subject, WhatId, WhoId, OwnerId, LastModifiedDate FROM Task"},
             "options": {"mergeMode": "OVERWRITE"}},
            {"syncName": "tasksUp", "syncType": "syncUp", "soupName": "tasks",
             "target": {"createFieldlist": ["Subject", "WhatId", "WhoId", "OwnerId"], "matchFields": ["Subject"]},
             "options": {"mergeMode": "OVERWRITE"}},
            {"syncName": "eventsDown", "syncType": "syncDown", "soupName": "events", "target": {"type": "soql",
             "query": "SELECT Id, Subject, WhatId, WhoId, OwnerId, StartDateTime, LastModifiedDate FROM Event"},
             "options": {"mergeMode": "OVERWRITE"}},
            {"syncName": "eventsUp", "syncType": "syncUp", "soupName": "events",
             "target": {"createFieldlist": ["Subject", "WhatId", "WhoId", "OwnerId", "StartDateTime"]},
             "options": {"mergeMode": "OVERWRITE"}},
        """

    /// The links of every activity, by subject: what and who (object and name), owner (object and name).
    static let linkQueries = [
        "SELECT Subject, What.Type, What.Name, Who.Type, Who.Name, Owner.Type, Owner.Name FROM Task",
        "SELECT Subject, What.Type, What.Name, Who.Type, Who.Name, Owner.Name FROM Event",
    ]
    static let linkFields = [
        ["Subject", "What.Type", "What.Name", "Who.Type", "Who.Name", "Owner.Type", "Owner.Name"],
        ["Subject", "What.Type", "What.Name", "Who.Type", "Who.Name", "Owner.Name"],
    ]

    /// Seeds the activities in the source and the queue in both orgs (the target's without records).
    static func seed(_ project: MigrateProject, activities: Int) throws {
        func ids(_ writer: OrgWriter, _ soql: String) throws -> [String] {
            let rows = try JSONSerialization.jsonObject(with: try writer.query(soql, apiVersion: "62.0").recordsJSON)
            return ((rows as? [[String: Any]]) ?? []).compactMap { $0["Id"] as? String }
        }
        func queue(_ writer: OrgWriter) throws -> String {
            let id = try writer.create(
                "Group",
                fields: [
                    "Name": .string("Support"), "DeveloperName": .string("Support_Queue"), "Type": .string("Queue"),
                ]
            )
            try writer.create("QueueSobject", fields: ["QueueId": .string(id), "SobjectType": .string("Task")])
            return id
        }
        try project.editTarget { writer in _ = try queue(writer) }
        try project.editSource { writer in
            let queueID = try queue(writer)
            let ann = try ids(writer, "SELECT Id FROM User WHERE Username = 'ann@acme.example'")[0]
            let accounts = try ids(writer, "SELECT Id FROM Account ORDER BY Name")
            let opportunities = try ids(writer, "SELECT Id FROM Opportunity ORDER BY Amount")
            let contacts = try ids(writer, "SELECT Id FROM Contact ORDER BY Email")
            var leads: [String] = []
            for index in 0..<3 {
                leads.append(
                    try writer.create(
                        "Lead",
                        fields: [
                            "LastName": .string("Lead \(index)"), "Company": .string("Co \(index)"),
                            "Email": .string("lead\(index)@example.com"),
                        ]
                    )
                )
            }
            let caseID = try writer.create("Case", fields: ["Subject": .string("Broken")])
            for index in 0..<activities {
                // A real org refuses a WhatId on an activity whose WhoId is a Lead
                // (FIELD_INTEGRITY_EXCEPTION), so those have none.
                let isLead = index % 3 == 0
                let what: OrgJSONValue =
                    isLead
                    ? .null
                    : .string(index.isMultiple(of: 2) ? accounts[index % accounts.count] : opportunities[index % 5])
                let who = isLead ? leads[index % leads.count] : contacts[index % contacts.count]
                try writer.create(
                    "Task",
                    fields: [
                        "Subject": .string("Task \(index)"), "WhatId": what, "WhoId": .string(who),
                        "OwnerId": .string(index.isMultiple(of: 3) ? queueID : ann),
                    ]
                )
                try writer.create(
                    "Event",
                    fields: [
                        "Subject": .string("Event \(index)"), "WhatId": what, "WhoId": .string(who),
                        "OwnerId": .string(ann), "StartDateTime": .string("2026-03-0\(index % 9 + 1)T10:00:00.000Z"),
                    ]
                )
            }
            try writer.create(
                "Task",
                fields: ["Subject": .string("Case task"), "WhatId": .string(caseID), "OwnerId": .string(ann)]
            )
        }
        try project.editSyncs { $0.replacingOccurrences(of: #""syncs": ["#, with: syncs) }
        let store = project.directory.appendingPathComponent("userstore.json")
        let soups = ["leads", "tasks", "events"].map {
            #"{"soupName": "\#($0)", "indexes": [{"path": "Id", "type": "string"}, {"path": "__local__", "type": "string"}]},"#
        }
        try String(contentsOf: store, encoding: .utf8)
            .replacingOccurrences(of: #""soups": ["#, with: #""soups": ["# + soups.joined())
            .write(to: store, atomically: true, encoding: .utf8)
    }

    static func expectLinksMatch(_ project: MigrateProject, _ context: String) throws {
        for (soql, fields) in zip(linkQueries, linkFields) {
            let source = try project.graph("source", soql + " WHERE Subject != 'Case task'", fields)
            let target = try project.graph("target", soql + " WHERE Subject != 'Case task'", fields)
            #expect(!source.isEmpty)
            #expect(target == source, "\(context): \(soql)")
        }
    }

    @Test func everyLinkIsRightAfterAMigrationAndARerunWritesNothing() async throws {
        try await MigrateProject.with { project in
            try Self.seed(project, activities: 12)
            let first = try project.migrate()
            #expect(first.status == 0, "\(first.stderr)\n\(first.stdout.suffix(3000))")
            let report = try MigrateReport(first)
            #expect(report.count("created", "Task") == 13)
            #expect(report.count("created", "Event") == 12)
            #expect(report.count("created", "Lead") == 3)
            #expect(report.total("failed") == 0)
            try Self.expectLinksMatch(project, "first run")
            // The queue owns the same tasks in the target.
            #expect(
                try project.graph("target", "SELECT Subject FROM Task WHERE Owner.Type = 'Group'", ["Subject"])
                    == ["Task 0", "Task 3", "Task 6", "Task 9"]
            )
            // The Case is not migrated and has no key: the link is left out, once, with a warning.
            let caseTask = try project.records("target", "SELECT WhatId FROM Task WHERE Subject = 'Case task'")
            #expect(caseTask.count == 1)
            #expect(caseTask.first.map { $0["WhatId"] == nil || $0["WhatId"] is NSNull } == true, "\(caseTask)")
            #expect(
                report.warnings.contains { $0.hasPrefix("Task.WhatId: 1 value(s) refer to Case records") },
                "\(report.warnings)"
            )
            #expect(!report.warnings.contains { $0.contains("queue") }, "\(report.warnings)")

            // The polymorphic queries real orgs answer: TYPEOF picks each record's own fields.
            let typed = try project.records(
                "target",
                "SELECT Subject, TYPEOF What WHEN Account THEN Name, Industry WHEN Opportunity THEN Name, Amount END "
                    + "FROM Task WHERE Subject IN ('Task 1', 'Task 2') ORDER BY Subject"
            )
            // Task 1 is on an Opportunity, Task 2 on an Account (Task 0, on a Lead, has no What).
            let whats = typed.compactMap { $0["What"] as? [String: Any] }
            #expect(whats.count == 2, "\(typed)")
            #expect((whats.first?["attributes"] as? [String: Any])?["type"] as? String == "Opportunity")
            #expect(whats.first.map { $0.keys.sorted() } == ["Amount", "Name", "attributes"])
            #expect((whats.last?["attributes"] as? [String: Any])?["type"] as? String == "Account")
            #expect(whats.last.map { $0.keys.sorted() } == ["Industry", "Name", "attributes"])

            let second = try project.migrate()
            #expect(second.status == 0, "\(second.stderr)")
            let again = try MigrateReport(second)
            #expect(again.total("created") == 0)
            #expect(again.total("updated") == 0)
            try Self.expectLinksMatch(project, "rerun")

            // --strict fails the record whose link cannot be kept.
            let strict = try project.migrate(["--strict", "--only", "tasksUp"])
            #expect(strict.status == 1, "\(strict.stderr)")
            let failures = try MigrateReport(strict).objects["Task"]?["failures"] as? [[String: Any]] ?? []
            #expect(failures.count == 1)
            let message = failures.first?["message"] as? String ?? ""
            #expect(message.contains("refers to Case"), "\(failures)")
        }
    }

    /// Killed (SIGKILL) at a collections write, then `--resume`d (killed once more at its first
    /// write, when it has one), then `--resume`d to the end: every activity once, every link right.
    @Test func aKilledMigrationResumesWithEveryLinkRight() async throws {
        try await MigrateProject.with { project in
            try Self.seed(project, activities: 30)
            let token = "migrate-polymorphic-test-token"
            let database = try OrgDatabase(directory: URL(fileURLWithPath: project.targetDirectory))
            let killer = Killer()
            let requestLog = project.directory.appendingPathComponent("requests.jsonl")
            let server = try LocalOrgServer(
                configuration: LocalOrgConfiguration(
                    accessToken: token,
                    requestLogURL: requestLog,
                    requestObserver: { method, target in killer.observe(method, target) }
                ),
                database: database
            )
            try await server.withRunningServer { endpoint in
                let base = [
                    "migrate", "--config", project.config, "--from", "local:" + project.sourceDirectory,
                    "--to", endpoint.baseURL.absoluteString, "--to-access-token", token, "--format", "json",
                ]
                func child(_ arguments: [String], killAt write: Int?) async throws -> ChildRun {
                    let run = try await ChildRun.runOffThePool(
                        arguments,
                        killer: write.map { killer.arm(atWrite: $0, delayMilliseconds: 0) }
                    )
                    try killer.settle(requestLog: requestLog)
                    return run
                }
                // Writes: accounts (create, update), contacts, opportunities, leads, then the activities.
                let first = try await child(base, killAt: 6)
                #expect(first.killed, "not killed: \(first.status) \(first.stderr)")
                let second = try await child(base + ["--resume"], killAt: 1)
                if !second.killed { #expect(second.status == 0, "\(second.stderr)") }
                let last = try await child(base + ["--resume"], killAt: nil)
                #expect(last.status == 0, "\(last.stderr)")
            }
            for sobject in ["Task", "Event", "Lead"] {
                let source = try project.records("source", "SELECT Id FROM \(sobject)").count
                #expect(try project.records("target", "SELECT Id FROM \(sobject)").count == source, "\(sobject)")
            }
            try Self.expectLinksMatch(project, "after the kills")
            let again = try MigrateReport(try project.migrate())
            #expect(again.total("created") == 0)
            #expect(again.total("updated") == 0)
        }
    }
}
