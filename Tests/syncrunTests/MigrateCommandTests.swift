import Foundation
import LocalOrg
import SoupStore
import SyncLedger
import SyncrunTestSupport
import Testing

/// A copy of examples/migrate with two local orgs of different id spaces: the source seeded from
/// the example's data, the target empty but for one Account the migration must match by name.
struct MigrateProject {
    let directory: URL

    var config: String { directory.path }
    var sourceDirectory: String { directory.appendingPathComponent("orgs/source").path }
    var targetDirectory: String { directory.appendingPathComponent("orgs/target").path }

    static func with<T>(
        sourceSeed: ((URL) throws -> [String])? = nil,
        targetAccount: Bool = true,
        _ body: (MigrateProject) async throws -> T
    ) async throws -> T {
        try await TemporaryDirectory.with(prefix: "migrate") { directory in
            let project = directory.appendingPathComponent("migrate")
            try FileManager.default.copyItem(
                at: RepositoryPaths.examples.appendingPathComponent("migrate"),
                to: project
            )
            try? FileManager.default.removeItem(at: project.appendingPathComponent(".syncrun"))
            let migrate = MigrateProject(directory: project)
            let seed = try SyncrunProcess.run(
                [
                    "org", "seed", "--data", migrate.sourceDirectory, "--id-seed", "101",
                    "--schema", project.appendingPathComponent("source-schema.yaml").path,
                ] + (try sourceSeed?(directory) ?? [project.appendingPathComponent("data/plan.json").path])
            )
            #expect(seed.status == 0, "\(seed.stderr)")
            let existing = project.appendingPathComponent("target-records.json")
            try
                #"{"records": [{"attributes": {"type": "Account", "referenceId": "G"}, "Name": "Globex", "Industry": "Old"}]}"#
                .write(to: existing, atomically: true, encoding: .utf8)
            let target = try SyncrunProcess.run(
                [
                    "org", "seed", "--data", migrate.targetDirectory, "--id-seed", "202",
                    "--schema", project.appendingPathComponent("target-schema.yaml").path,
                ] + (targetAccount ? [existing.path] : [])
                    + [project.appendingPathComponent("data/target-users.json").path]
            )
            #expect(target.status == 0, "\(target.stderr)")
            return try await body(migrate)
        }
    }

    var arguments: [String] {
        [
            "migrate", "--config", config, "--from", "local:" + sourceDirectory, "--to", "local:" + targetDirectory,
            "--format", "json",
        ]
    }

    func migrate(_ extra: [String] = []) throws -> SyncrunProcess.Result {
        try SyncrunProcess.run(arguments + extra)
    }

    func records(_ side: String, _ soql: String) throws -> [[String: Any]] {
        let directory = side == "source" ? sourceDirectory : targetDirectory
        let result = try SyncrunProcess.run(["org", "query", "--data", directory, soql])
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    }

    /// The rows of `soql` on one side as sorted lines of `fields` (dotted paths), ids left out.
    func graph(_ side: String, _ soql: String, _ fields: [String]) throws -> [String] {
        fieldLines(try records(side, soql), fields)
    }

    /// Rewrites the config's `usersyncs.json`.
    func editSyncs(_ edit: (String) -> String) throws {
        let syncs = directory.appendingPathComponent("usersyncs.json")
        try edit(try String(contentsOf: syncs, encoding: .utf8)).write(to: syncs, atomically: true, encoding: .utf8)
    }

    /// Edits source records in place.
    func editSource(_ body: (OrgWriter) throws -> Void) throws {
        let database = try OrgDatabase(directory: URL(fileURLWithPath: sourceDirectory))
        try database.write { try body($0) }
    }
}

/// The final JSON report of `syncrun migrate`.
struct MigrateReport {
    let objects: [String: [String: Any]]
    let warnings: [String]

    init(_ result: SyncrunProcess.Result) throws {
        try self.init(stdout: result.stdout, stderr: result.stderr)
    }

    init(stdout: String, stderr: String = "") throws {
        let last = try #require(stdout.split(separator: "\n").last, "no output; stderr: \(stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        let list = try #require(object["objects"] as? [[String: Any]], "\(last)")
        objects = Dictionary(uniqueKeysWithValues: list.map { ($0["sobject"] as? String ?? "?", $0) })
        warnings = object["warnings"] as? [String] ?? []
    }

    func count(_ key: String, _ sobject: String) -> Int { objects[sobject]?[key] as? Int ?? -1 }
    func total(_ key: String) -> Int { objects.values.reduce(0) { $0 + ($1[key] as? Int ?? 0) } }
}

@Suite(.serialized)
struct MigrateCommandTests {
    static let graphQueries: [(String, [String])] = [
        (
            "SELECT Name, Industry, Parent.Name, RecordType.DeveloperName FROM Account",
            ["Name", "Industry", "Parent.Name", "RecordType.DeveloperName"]
        ),
        ("SELECT Email, Title, Account.Name FROM Contact", ["Email", "Title", "Account.Name"]),
        (
            "SELECT Name, StageName, CloseDate, Account.Name FROM Opportunity",
            ["Name", "StageName", "CloseDate", "Account.Name"]
        ),
        (
            "SELECT Code__c, Name, Account__r.Name, Contact__r.Email FROM Project__c",
            ["Code__c", "Name", "Account__r.Name", "Contact__r.Email"]
        ),
    ]

    @Test func theTargetGetsTheSourceGraphAndReRunsWriteOnlyWhatChanged() async throws {
        try await MigrateProject.with { project in
            // Record types have ids of each org's own: one account of the second record type.
            try project.editSource { writer in
                let type = try writer.query(
                    "SELECT Id FROM RecordType WHERE SobjectType = 'Account' AND DeveloperName = 'Partner'",
                    apiVersion: "62.0"
                )
                let account = try writer.query("SELECT Id FROM Account WHERE Name = 'Acme Spain'", apiVersion: "62.0")
                let typeID = try #require(
                    (try JSONSerialization.jsonObject(with: type.recordsJSON) as? [[String: Any]])?.first?["Id"]
                        as? String
                )
                let accountID = try #require(
                    (try JSONSerialization.jsonObject(with: account.recordsJSON) as? [[String: Any]])?.first?["Id"]
                        as? String
                )
                try writer.update("Account", id: accountID, fields: ["RecordTypeId": .string(typeID)])
            }
            let first = try project.migrate()
            #expect(first.status == 0, "\(first.stderr)\n\(first.stdout.suffix(2000))")
            let report = try MigrateReport(first)
            #expect(report.count("read", "Account") == 7)
            #expect(report.count("created", "Account") == 6)  // Globex was matched by Name
            #expect(report.count("updated", "Account") == 1)  // its Industry differed
            #expect(report.count("created", "Contact") == 8)
            #expect(report.count("created", "Opportunity") == 5)
            #expect(report.count("created", "Project__c") == 5)
            #expect(report.total("failed") == 0)
            #expect(report.warnings.contains { $0.contains("Legacy_Score__c") && $0.contains("left out") })

            // Same graph on both sides, compared by names and keys.
            for (soql, fields) in Self.graphQueries {
                #expect(try project.graph("target", soql, fields) == project.graph("source", soql, fields), "\(soql)")
            }
            let sourceIDs = Set(
                try project.records("source", "SELECT Id FROM Account").compactMap { $0["Id"] as? String }
            )
            let targetIDs = Set(
                try project.records("target", "SELECT Id FROM Account").compactMap { $0["Id"] as? String }
            )
            #expect(
                try project.graph(
                    "target",
                    "SELECT Name FROM Account WHERE RecordType.DeveloperName = 'Partner'",
                    ["Name"]
                ) == ["Acme Spain"]
            )
            #expect(sourceIDs.isDisjoint(with: targetIDs))

            // A second run creates and updates nothing.
            let second = try MigrateReport(try project.migrate())
            #expect(second.total("created") == 0)
            #expect(second.total("updated") == 0)
            #expect(second.total("unchanged") == 25)

            // Five edits in the source: exactly five updates.
            try project.editSource { writer in
                for (sobject, field, value, soql) in [
                    ("Account", "Industry", "Energy", "SELECT Id FROM Account WHERE Name = 'Initech'"),
                    ("Account", "Industry", "Retail", "SELECT Id FROM Account WHERE Name = 'Acme France'"),
                    ("Contact", "Title", "Chair", "SELECT Id FROM Contact WHERE LastName = 'Lovelace'"),
                    (
                        "Opportunity", "StageName", "Closed Lost",
                        "SELECT Id FROM Opportunity WHERE Account.Name = 'Initech'"
                    ),
                    ("Project__c", "Name", "Project One", "SELECT Id FROM Project__c WHERE Code__c = 'PRJ-001'"),
                ] {
                    let page = try writer.query(soql, apiVersion: "62.0")
                    let rows = try JSONSerialization.jsonObject(with: page.recordsJSON) as? [[String: Any]]
                    let id = try #require(rows?.first?["Id"] as? String, "\(soql)")
                    try writer.update(sobject, id: id, fields: [field: .string(value)])
                }
            }
            let third = try project.migrate()
            #expect(third.status == 0, "\(third.stderr)")
            let edited = try MigrateReport(third)
            #expect(edited.total("created") == 0)
            #expect(edited.total("updated") == 5)
            for (soql, fields) in Self.graphQueries {
                #expect(try project.graph("target", soql, fields) == project.graph("source", soql, fields), "\(soql)")
            }
        }
    }
}

extension MigrateCommandTests {
    /// Owners by username, sandbox suffix, email, else the running user; a namespace prefix only
    /// in the target (`Region__c` → `acme__Region__c`); one warning each, not one per record.
    @Test func ownersAndNamespacedFieldsAreMappedWithOneWarningEach() async throws {
        try await MigrateProject.with { project in
            let result = try project.migrate()
            #expect(result.status == 0, "\(result.stderr)\n\(result.stdout.suffix(2000))")
            let report = try MigrateReport(result)
            #expect(report.count("created", "Contact") == 8)
            #expect(report.total("failed") == 0)
            let ownerWarnings = report.warnings.filter { $0.contains("OwnerId") }
            #expect(ownerWarnings.count == 1, "\(report.warnings)")
            #expect(ownerWarnings.first?.contains("cat@acme.example") == true)
            #expect(
                report.warnings.filter { $0.contains("Contact.Region__c is written to acme__Region__c") }.count == 1,
                "\(report.warnings)"
            )

            let sourceUsers = Dictionary(
                uniqueKeysWithValues: try project.records("source", "SELECT Id, Username FROM User").compactMap {
                    row -> (String, String)? in
                    guard let id = row["Id"] as? String, let name = row["Username"] as? String else { return nil }
                    return (id, name)
                }
            )
            let targetUsers = Dictionary(
                uniqueKeysWithValues: try project.records("target", "SELECT Id, Username FROM User").compactMap {
                    row -> (String, String)? in
                    guard let id = row["Id"] as? String, let name = row["Username"] as? String else { return nil }
                    return (id, name)
                }
            )
            let expectedOwner = [
                "ann@acme.example": "ann@acme.example.uat",  // sandbox suffix
                "bob@acme.example": "robert@acme-sandbox.example",  // email
                "cat@acme.example": "admin@localorg.invalid",  // no counterpart: the running user
            ]
            var sourceContacts: [String: (owner: String, region: String)] = [:]
            for row in try project.records("source", "SELECT Email, OwnerId, Region__c FROM Contact") {
                let email = try #require(row["Email"] as? String)
                let owner = try #require(sourceUsers[row["OwnerId"] as? String ?? ""])
                sourceContacts[email] = (owner, row["Region__c"] as? String ?? "")
            }
            let targetContacts = try project.records("target", "SELECT Email, OwnerId, acme__Region__c FROM Contact")
            #expect(targetContacts.count == 8)
            for row in targetContacts {
                let email = try #require(row["Email"] as? String)
                let source = try #require(sourceContacts[email])
                #expect(targetUsers[row["OwnerId"] as? String ?? ""] == expectedOwner[source.owner], "\(email)")
                #expect(row["acme__Region__c"] as? String == source.region, "\(email)")
            }

            // A second run finds the owners and regions unchanged.
            let second = try MigrateReport(try project.migrate())
            #expect(second.total("updated") == 0)
            #expect(second.total("created") == 0)
        }
    }
}

@Suite(.serialized)
struct MigrateRefusalTests {
    @Test func aDryRunWritesNothingToTheTargetAndSaysWhatItWouldDo() async throws {
        try await MigrateProject.with { project in
            let before = try project.records("target", "SELECT Id, Name, Industry FROM Account")
            let result = try project.migrate(["--dry-run"])
            #expect(result.status == 0, "\(result.stderr)")
            let report = try MigrateReport(result)
            #expect(report.count("created", "Account") == 6)
            #expect(report.count("updated", "Account") == 1)
            #expect(report.count("created", "Project__c") == 5)
            #expect(try project.records("target", "SELECT Id, Name, Industry FROM Account").count == before.count)
            #expect(try project.records("target", "SELECT Id FROM Contact").isEmpty)
            #expect(try MigrateReport(result).objects.isEmpty == false)
        }
    }

    @Test func strictRefusesFieldsTheTargetCannotTakeBeforeWritingAnything() async throws {
        try await MigrateProject.with { project in
            let result = try project.migrate(["--strict"])
            #expect(result.status == 2)
            #expect(result.stderr.contains("Account.Legacy_Score__c does not exist in the target"), "\(result.stderr)")
            #expect(try project.records("target", "SELECT Id FROM Account").count == 1)
        }
    }

    /// Accounts without a key while the target holds an account the journal does not know: refused
    /// before anything is written; `--allow-duplicates` creates them (Globex twice, as asked); then
    /// the journal knows every source record, so a rerun, also after deleting the staging store,
    /// is not refused and creates nothing.
    @Test func anObjectWithoutAKeyIsRefusedWhenTheTargetHoldsRecordsTheJournalDoesNotKnow() async throws {
        try await MigrateProject.with { project in
            try project.editSyncs {
                $0.replacingOccurrences(of: #""matchFields": ["Name"]"#, with: #""matchFields": []"#)
            }
            let refused = try project.migrate()
            #expect(refused.status == 2, "\(refused.stderr)")
            for part in [
                "nothing was written", "Account (sync up 'accountsUp'): 7 record(s) have no counterpart in the journal",
                "matchFields", "externalIdFieldName", "--allow-duplicates",
                // The key offered is one the target has.
                #"suggested key: "matchFields": ["Name"] (Account.Name in the target)"#,
            ] {
                #expect(refused.stderr.contains(part), "\(part): \(refused.stderr)")
            }
            #expect(!refused.stderr.contains("Contact"), "\(refused.stderr)")
            #expect(try project.records("target", "SELECT Id FROM Account").count == 1)
            #expect(try project.records("target", "SELECT Id FROM Contact").isEmpty)

            // Not an unfinished run: the next run needs no --resume.
            let allowed = try project.migrate(["--allow-duplicates"])
            #expect(allowed.status == 0, "\(allowed.stderr)")
            let report = try MigrateReport(allowed)
            #expect(report.count("created", "Account") == 7)
            #expect(report.warnings.contains { $0.hasPrefix("Account: --allow-duplicates: 7 record(s)") })
            #expect(try project.graph("target", "SELECT Name FROM Account WHERE Name = 'Globex'", ["Name"]).count == 2)

            let journal = project.directory.appendingPathComponent(".syncrun/migrations")
            let files = try FileManager.default.contentsOfDirectory(atPath: journal.path)
            #expect(files.count == 1 && files[0].hasSuffix(".db"), "\(files)")
            let staging = project.directory.appendingPathComponent(".syncrun")
            for name in try FileManager.default.contentsOfDirectory(atPath: staging.path)
            where name.hasPrefix("migrate-") {
                try FileManager.default.removeItem(at: staging.appendingPathComponent(name))
            }
            let again = try project.migrate()
            #expect(again.status == 0, "\(again.stderr)")
            #expect(try MigrateReport(again).total("created") == 0)
            #expect(try project.records("target", "SELECT Id FROM Account").count == 8)
        }
    }

    @Test func aStagingStoreServesOnePairAndAnUnfinishedRunNeedsResume() async throws {
        try await MigrateProject.with { project in
            let store = project.directory.appendingPathComponent("staging.db").path
            #expect(
                try project.migrate([
                    "--store", store, "--id-map", project.config + "/ids.csv", "--junit", project.config + "/junit.xml",
                ]).status == 0
            )
            let csv = try String(contentsOfFile: project.config + "/ids.csv", encoding: .utf8)
            #expect(csv.hasPrefix("sobject,source_org,target_org,source_id,target_id\r\n"))
            #expect(csv.split(separator: "\r\n").count == 1 + 25)
            let junit = try String(contentsOfFile: project.config + "/junit.xml", encoding: .utf8)
            #expect(junit.contains(#"<testsuite name="syncrun migrate" tests="4" failures="0""#), "\(junit)")
            #expect(junit.contains(#"<testcase classname="migrate" name="Project__c""#))

            // The same store for the other direction is refused before anything is written.
            let swapped = try SyncrunProcess.run([
                "migrate", "--config", project.config, "--from", "local:" + project.targetDirectory,
                "--to", "local:" + project.sourceDirectory, "--store", store, "--format", "json",
            ])
            #expect(swapped.status == 2)
            #expect(swapped.stderr.contains("belongs to the migration from org"), "\(swapped.stderr)")

            // A run that did not finish: refused without --resume, continued with it.
            let soups = try SoupStore.ledger(path: store)
            try soups.write { try $0.recordPlanStep("write:Contact", status: .running, now: 0) }
            let refused = try project.migrate(["--store", store])
            #expect(refused.status == 2)
            #expect(refused.stderr.contains("--resume"), "\(refused.stderr)")
            let resumed = try project.migrate(["--store", store, "--resume"])
            #expect(resumed.status == 0, "\(resumed.stderr)")
            #expect(try MigrateReport(resumed).total("created") == 0)
        }
    }

    @Test func aReferenceToARecordNotMigratedFailsThatRecordOnlyWithExitStatusOne() async throws {
        try await MigrateProject.with { project in
            // Contacts of the Initech account only: the migration leaves Initech out (its query
            // excludes it), so its contacts cannot point anywhere in the target.
            let syncs = project.directory.appendingPathComponent("usersyncs.json")
            let text = try String(contentsOf: syncs, encoding: .utf8)
            try text.replacingOccurrences(
                of: "LastModifiedDate FROM Account\"",
                with: "LastModifiedDate FROM Account WHERE Name != 'Initech'\""
            ).write(to: syncs, atomically: true, encoding: .utf8)
            let result = try project.migrate(["--only", "accountsUp", "--only", "contactsUp"])
            #expect(result.status == 1, "\(result.stderr)")
            let report = try MigrateReport(result)
            #expect(report.count("failed", "Contact") == 2)
            #expect(report.count("created", "Contact") == 6)
            let failures = report.objects["Contact"]?["failures"] as? [[String: Any]] ?? []
            #expect(failures.allSatisfy { ($0["message"] as? String ?? "").contains("AccountId refers to Account") })
            #expect(try project.records("target", "SELECT Id FROM Contact").count == 6)
        }
    }
}

/// `records` as sorted lines of the values at `fields` (dotted paths, `null` when absent), joined
/// by ` | `: a record graph compared without its ids.
func fieldLines(_ records: [[String: Any]], _ fields: [String]) -> [String] {
    records.map { record in
        fields.map { path in
            var value: Any? = record
            for component in path.split(separator: ".") { value = (value as? [String: Any])?[String(component)] }
            return value.map { "\($0)" } ?? "null"
        }.joined(separator: " | ")
    }.sorted()
}
