import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing

extension MigrateProject {
    /// Edits target records in place (records created "by hand", not by a migration).
    func editTarget(_ body: (OrgWriter) throws -> Void) throws {
        let database = try OrgDatabase(directory: URL(fileURLWithPath: targetDirectory))
        try database.write { try body($0) }
    }

    /// The id of the one record `soql` returns on one side.
    func id(_ side: String, _ soql: String) throws -> String {
        let rows = try records(side, soql)
        #expect(rows.count == 1, "\(soql): \(rows.count) rows")
        return try #require(rows.first?["Id"] as? String, "\(soql)")
    }
}

extension MigrateReport {
    /// `--delete-missing`: the target ids listed as deleted (or, in a dry run, to delete) per object.
    func deletions(_ sobject: String) -> Set<String> {
        Set((objects[sobject]?["deletions"] as? [[String: Any]] ?? []).compactMap { $0["targetId"] as? String })
    }
}

@Suite(.serialized)
struct MigrateDeleteMissingTests {
    /// Issue 32 item 2: records deleted in the source, and one moved out of its sync down's query,
    /// are deleted in the target by `--delete-missing` (listed exactly by a dry run first); a
    /// record created in the target by hand is left alone, and a run without the flag deletes nothing.
    @Test func recordsTheSourceNoLongerReturnsAreDeletedAndNothingElse() async throws {
        try await MigrateProject.with { project in
            try project.editSyncs {
                $0.replacingOccurrences(
                    of: "AccountId, Account.Name, LastModifiedDate FROM Opportunity\"",
                    with: "AccountId, Account.Name, LastModifiedDate FROM Opportunity WHERE Amount < 10000\""
                )
            }
            let first = try project.migrate()
            #expect(first.status == 0, "\(first.stderr)")
            #expect(try MigrateReport(first).count("created", "Opportunity") == 5)

            let ritchie = try project.id("target", "SELECT Id FROM Contact WHERE LastName = 'Ritchie'")
            let project4 = try project.id("target", "SELECT Id FROM Project__c WHERE Code__c = 'PRJ-004'")
            let moved = try project.id("target", "SELECT Id FROM Opportunity WHERE Amount = 5000")
            try project.editSource { writer in
                for (sobject, soql) in [
                    ("Contact", "SELECT Id FROM Contact WHERE LastName = 'Ritchie'"),
                    ("Project__c", "SELECT Id FROM Project__c WHERE Code__c = 'PRJ-004'"),
                ] {
                    let rows =
                        try JSONSerialization.jsonObject(
                            with: try writer.query(soql, apiVersion: "62.0").recordsJSON
                        ) as? [[String: Any]]
                    try writer.delete(sobject, id: try #require(rows?.first?["Id"] as? String))
                }
                let rows =
                    try JSONSerialization.jsonObject(
                        with: try writer.query("SELECT Id FROM Opportunity WHERE Amount = 5000", apiVersion: "62.0")
                            .recordsJSON
                    ) as? [[String: Any]]
                // Outside the query now: an incremental read does not return it.
                try writer.update(
                    "Opportunity",
                    id: try #require(rows?.first?["Id"] as? String),
                    fields: ["Amount": .integer(50000)]
                )
            }
            var handMade = ""
            try project.editTarget { writer in
                handMade = try writer.create(
                    "Contact",
                    fields: ["LastName": .string("Byhand"), "Email": .string("by.hand@example.com")]
                )
            }
            let counts = {
                (
                    try project.records("target", "SELECT Id FROM Contact").count,
                    try project.records("target", "SELECT Id FROM Opportunity").count,
                    try project.records("target", "SELECT Id FROM Project__c").count
                )
            }
            #expect(try counts() == (9, 5, 5))

            // Without the flag nothing is deleted.
            let plain = try project.migrate()
            #expect(plain.status == 0, "\(plain.stderr)")
            #expect(try MigrateReport(plain).objects["Contact"]?["deleted"] == nil)
            #expect(try counts() == (9, 5, 5))

            // The dry run lists exactly those, and deletes nothing.
            let dry = try project.migrate(["--delete-missing", "--dry-run"])
            #expect(dry.status == 0, "\(dry.stderr)")
            let listed = try MigrateReport(dry)
            #expect(listed.deletions("Contact") == [ritchie])
            #expect(listed.deletions("Project__c") == [project4])
            #expect(listed.deletions("Opportunity") == [moved])
            #expect(listed.deletions("Account").isEmpty)
            #expect(listed.count("deleted", "Account") == 0)
            #expect(try counts() == (9, 5, 5))

            let real = try project.migrate(["--delete-missing"])
            #expect(real.status == 0, "\(real.stderr)")
            let report = try MigrateReport(real)
            #expect(report.count("deleted", "Contact") == 1)
            #expect(report.count("deleted", "Opportunity") == 1)
            #expect(report.count("deleted", "Project__c") == 1)
            #expect(report.count("deleted", "Account") == 0)
            #expect(report.deletions("Contact") == [ritchie])
            #expect(try counts() == (8, 4, 4))
            let left = Set(try project.records("target", "SELECT Id FROM Contact").compactMap { $0["Id"] as? String })
            #expect(left.contains(handMade))
            #expect(!left.contains(ritchie))
            #expect(
                try project.graph("target", "SELECT Code__c FROM Project__c", ["Code__c"])
                    == ["PRJ-001", "PRJ-002", "PRJ-003", "PRJ-005"]
            )
            // The rest is the source's graph (the hand-made contact aside).
            #expect(
                try project.graph("target", "SELECT Email FROM Contact WHERE LastName != 'Byhand'", ["Email"])
                    == project.graph("source", "SELECT Email FROM Contact", ["Email"])
            )

            // Done once: a rerun deletes, creates and updates nothing.
            let again = try MigrateReport(try project.migrate(["--delete-missing"]))
            #expect(again.total("deleted") == 0)
            #expect(again.total("created") == 0)
            #expect(again.total("updated") == 0)
            #expect(try counts() == (8, 4, 4))
        }
    }
}
