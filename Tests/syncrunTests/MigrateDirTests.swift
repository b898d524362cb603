import Foundation
import SyncrunTestSupport
import Testing

/// `migrate --to dir:` and `--from dir:` (issue 32 item 4) over local orgs: org → files → org gives
/// what org → org gives, reruns write nothing, masks reach no file, bad files are refused at
/// file:line before anything is written, and a dry run lists what a load would write.
@Suite(.serialized)
struct MigrateDirTests {
    /// What both routes must agree on, lookups by name (record types and owners are org ids a
    /// set cannot map: the config below leaves them out of the sync ups).
    static let graphQueries: [(String, [String])] = [
        ("SELECT Name, Industry, Parent.Name FROM Account", ["Name", "Industry", "Parent.Name"]),
        (
            "SELECT FirstName, LastName, Email, Title, acme__Region__c, Account.Name FROM Contact",
            ["FirstName", "LastName", "Email", "Title", "acme__Region__c", "Account.Name"]
        ),
        (
            "SELECT Name, StageName, CloseDate, Amount, Account.Name FROM Opportunity",
            ["Name", "StageName", "CloseDate", "Amount", "Account.Name"]
        ),
        (
            "SELECT Code__c, Name, Account__r.Name, Contact__r.Email FROM Project__c",
            ["Code__c", "Name", "Account__r.Name", "Contact__r.Email"]
        ),
    ]

    /// The example's config without `RecordTypeId` and `OwnerId` in its sync ups.
    private func withoutOrgIDs(_ project: MigrateProject) throws {
        try project.editSyncs { syncs in
            syncs.replacingOccurrences(of: #", "RecordTypeId""#, with: "")
                .replacingOccurrences(of: #", "OwnerId""#, with: "")
        }
    }

    /// A fresh org like the project's target (same schema, users and pre-existing account).
    private func freshTarget(_ project: MigrateProject, _ name: String, seed: String) throws -> String {
        let directory = project.directory.appendingPathComponent("orgs/\(name)").path
        let seeded = try SyncrunProcess.run([
            "org", "seed", "--data", directory, "--id-seed", seed, "--schema",
            project.directory.appendingPathComponent("target-schema.yaml").path,
            project.directory.appendingPathComponent("target-records.json").path,
            project.directory.appendingPathComponent("data/target-users.json").path,
        ])
        #expect(seeded.status == 0, "\(seeded.stderr)")
        return directory
    }

    private func migrate(_ project: MigrateProject, from: String, to: String, _ extra: [String] = []) throws
        -> SyncrunProcess.Result
    {
        try SyncrunProcess.run(
            ["migrate", "--config", project.config, "--from", from, "--to", to, "--format", "json"] + extra
        )
    }

    private func graph(_ directory: String, _ soql: String, _ fields: [String]) throws -> [String] {
        let result = try SyncrunProcess.run(["org", "query", "--data", directory, soql])
        #expect(result.status == 0, "\(result.stderr)")
        let records = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        return fieldLines(records, fields)
    }

    private func files(_ set: URL) throws -> [String: Data] {
        var contents: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: set.path) {
            contents[name] = try Data(contentsOf: set.appendingPathComponent(name))
        }
        return contents
    }

    @Test func orgToFilesToOrgGivesWhatOrgToOrgGivesAndRerunsWriteNothing() async throws {
        try await MigrateProject.with { project in
            try withoutOrgIDs(project)
            let set = project.directory.appendingPathComponent("exported")
            let source = "local:" + project.sourceDirectory
            let exported = try migrate(project, from: source, to: "dir:" + set.path)
            #expect(exported.status == 0, "\(exported.stderr)")
            let report = try MigrateReport(exported)
            #expect(report.count("created", "Account") == 7 && report.count("created", "Contact") == 8)
            let written = try files(set)
            #expect(
                Set(written.keys) == [
                    "Account.csv", "Contact.csv", "Opportunity.csv", "Project__c.csv", "syncrun-id-map.csv",
                ]
            )
            let opportunities = try #require(String(data: written["Opportunity.csv"] ?? Data(), encoding: .utf8))
            #expect(
                opportunities.hasPrefix(
                    "\"Id\",\"Name\",\"StageName\",\"CloseDate\",\"Amount\",\"AccountId\",\"Account.Name\"\r\n"
                ),
                "\(opportunities)"
            )
            // Lookups hold source ids: every AccountId of the set is an Id of Account.csv.
            let accountIDs = Set(
                try project.records("source", "SELECT Id FROM Account").compactMap { $0["Id"] as? String }
            )
            let accountFile = try #require(String(data: written["Account.csv"] ?? Data(), encoding: .utf8))
            for id in accountIDs { #expect(accountFile.contains("\r\n\"\(id)\",")) }
            for attributes in [
                try FileManager.default.attributesOfItem(atPath: set.appendingPathComponent("Contact.csv").path),
                try FileManager.default.attributesOfItem(atPath: set.path),
            ] {
                let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? 0
                #expect(mode & 0o077 == 0, "mode \(String(mode, radix: 8))")
            }

            // A second export: the same bytes, nothing written.
            let again = try migrate(project, from: source, to: "dir:" + set.path)
            #expect(again.status == 0, "\(again.stderr)")
            #expect(try MigrateReport(again).total("created") == 0)
            #expect(again.stdout.contains(#""files":[]"#), "\(again.stdout.suffix(600))")
            #expect(try files(set) == written)

            // Files → org B, org → org C: the same records and links.
            let viaFiles = try migrate(project, from: "dir:" + set.path, to: "local:" + project.targetDirectory)
            #expect(viaFiles.status == 0, "\(viaFiles.stderr)\n\(viaFiles.stdout.suffix(2000))")
            let loaded = try MigrateReport(viaFiles)
            #expect(loaded.count("created", "Account") == 6 && loaded.count("updated", "Account") == 1)
            #expect(loaded.total("failed") == 0)
            let direct = try freshTarget(project, "direct", seed: "404")
            let straight = try migrate(project, from: source, to: "local:" + direct)
            #expect(straight.status == 0, "\(straight.stderr)")
            for (soql, fields) in Self.graphQueries {
                let viaSet = try graph(project.targetDirectory, soql, fields)
                #expect(viaSet.count > 1, "\(soql)")
                let viaOrg = try graph(direct, soql, fields)
                #expect(viaSet == viaOrg, "\(soql)")
            }

            // A rerun of the load writes nothing.
            let rerun = try migrate(project, from: "dir:" + set.path, to: "local:" + project.targetDirectory)
            #expect(rerun.status == 0, "\(rerun.stderr)")
            let second = try MigrateReport(rerun)
            #expect(second.total("created") == 0 && second.total("updated") == 0)
            #expect(second.total("unchanged") == 25)
        }
    }

    /// The source org is seeded from the example's data-tree plan (`data/plan.json`, what
    /// `sf data export tree --plan` writes): loading that folder through `--from dir:` gives the
    /// records and links a migration from the seeded org gives, and a rerun writes nothing.
    @Test func aDataTreePlanLoadsThroughFromDirAsTheSeededOrgMigrates() async throws {
        try await MigrateProject.with { project in
            try withoutOrgIDs(project)
            let plan = project.directory.appendingPathComponent("data")
            let viaPlan = try freshTarget(project, "tree", seed: "505")
            let loaded = try migrate(project, from: "dir:" + plan.path, to: "local:" + viaPlan)
            #expect(loaded.status == 0, "\(loaded.stderr)\n\(loaded.stdout.suffix(2000))")
            let report = try MigrateReport(loaded)
            #expect(report.count("created", "Contact") == 8 && report.total("failed") == 0)
            let direct = try freshTarget(project, "direct", seed: "606")
            let straight = try migrate(project, from: "local:" + project.sourceDirectory, to: "local:" + direct)
            #expect(straight.status == 0, "\(straight.stderr)")
            for (soql, fields) in Self.graphQueries {
                let fromPlan = try graph(viaPlan, soql, fields)
                #expect(fromPlan.count > 1, "\(soql)")
                #expect(fromPlan == (try graph(direct, soql, fields)), "\(soql)")
            }
            let rerun = try migrate(project, from: "dir:" + plan.path, to: "local:" + viaPlan)
            #expect(rerun.status == 0, "\(rerun.stderr)")
            #expect(try MigrateReport(rerun).total("created") == 0 && MigrateReport(rerun).total("updated") == 0)
        }
    }

    @Test func maskedFieldsLeaveNoSourceValueInAnyFile() async throws {
        try await MigrateProject.with { project in
            try withoutOrgIDs(project)
            try project.editSyncs { syncs in
                syncs.replacingOccurrences(
                    of: #""matchFields": ["Email"]"#
                        + "\n      },\n      \"options\": { \"mergeMode\": \"OVERWRITE\" }",
                    with: #""matchFields": ["Email"]"#
                        + "\n      },\n      \"options\": { \"mergeMode\": \"OVERWRITE\", "
                        + #""mask": {"Email": "email", "LastName": "lastName", "Title": {"fixed": "Redacted"}} }"#
                )
            }
            let set = project.directory.appendingPathComponent("masked")
            let result = try migrate(project, from: "local:" + project.sourceDirectory, to: "dir:" + set.path)
            #expect(result.status == 0, "\(result.stderr)")
            let written = try files(set)
            let text = written.values.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n")
            #expect(text.contains("@masked.invalid") && text.contains("\"Redacted\""))
            let source = try project.records("source", "SELECT Email, LastName, Title FROM Contact")
            let values = source.flatMap { record in
                ["Email", "LastName", "Title"].compactMap { record[$0] as? String }.filter { !$0.isEmpty }
            }
            #expect(values.count == 24)
            // No cell of any file holds a source value of a masked field (every cell is quoted)…
            for value in values { #expect(!text.contains("\"\(value)\""), "'\(value)' is in a file") }
            // …nor does any part of one appear in the contacts' file.
            let contacts = String(decoding: written["Contact.csv"] ?? Data(), as: UTF8.self)
            var parts: Set<String> = []
            for value in values {
                for part in value.split(whereSeparator: { "@. ".contains($0) }) where part.count > 3 {
                    parts.insert(String(part))
                }
            }
            #expect(parts.count > 10)
            for part in parts.subtracting(["example", "Redacted"]) {
                #expect(!contacts.contains(part), "'\(part)' is in Contact.csv")
            }
        }
    }

    @Test func aMalformedOrMissingFileIsRefusedAtFileAndLineBeforeAnythingIsWritten() async throws {
        try await MigrateProject.with(targetAccount: false) { project in
            try withoutOrgIDs(project)
            let set = project.directory.appendingPathComponent("broken")
            let exported = try migrate(project, from: "local:" + project.sourceDirectory, to: "dir:" + set.path)
            #expect(exported.status == 0, "\(exported.stderr)")
            let contacts = set.appendingPathComponent("Contact.csv")
            var lines = try String(contentsOf: contacts, encoding: .utf8).components(separatedBy: "\r\n")
            lines[3] += ",\"one too many\""
            try lines.joined(separator: "\r\n").write(to: contacts, atomically: true, encoding: .utf8)
            let refused = try migrate(project, from: "dir:" + set.path, to: "local:" + project.targetDirectory)
            #expect(refused.status == 2, "\(refused.stderr)")
            #expect(refused.stderr.contains("\(contacts.lastPathComponent):4: "), "\(refused.stderr)")
            #expect(refused.stderr.contains("the header has"), "\(refused.stderr)")
            #expect(try project.records("target", "SELECT Id FROM Account").isEmpty)

            try FileManager.default.removeItem(at: contacts)
            let missing = try migrate(project, from: "dir:" + set.path, to: "local:" + project.targetDirectory)
            #expect(missing.status == 2, "\(missing.stderr)")
            #expect(missing.stderr.contains("has no file Contact.csv"), "\(missing.stderr)")
            #expect(missing.stderr.contains("sync up 'contactsUp'"), "\(missing.stderr)")
            #expect(try project.records("target", "SELECT Id FROM Account").isEmpty)
        }
    }

    @Test func aDryRunFromFilesListsWhatItWouldWriteAndWritesNothing() async throws {
        try await MigrateProject.with(targetAccount: false) { project in
            try withoutOrgIDs(project)
            let set = project.directory.appendingPathComponent("planned")
            let exported = try migrate(project, from: "local:" + project.sourceDirectory, to: "dir:" + set.path)
            #expect(exported.status == 0, "\(exported.stderr)")
            let accountID = try #require(
                try project.records("source", "SELECT Id FROM Account WHERE Name = 'Initech'").first?["Id"] as? String
            )
            let dryRun = try SyncrunProcess.run([
                "migrate", "--config", project.config, "--from", "dir:" + set.path, "--to",
                "local:" + project.targetDirectory, "--dry-run", "--format", "json",
            ])
            #expect(dryRun.status == 0, "\(dryRun.stderr)")
            let report = try MigrateReport(dryRun)
            #expect(report.count("created", "Account") == 7 && report.count("created", "Contact") == 8)
            let planned = report.objects["Account"]?["planned"] as? [[String: Any]] ?? []
            #expect(planned.count == 7)
            #expect(
                planned.contains { $0["action"] as? String == "create" && $0["sourceId"] as? String == accountID },
                "\(planned)"
            )
            #expect(try project.records("target", "SELECT Id FROM Account").isEmpty)
            #expect(try project.records("target", "SELECT Id FROM Contact").isEmpty)
        }
    }
}

/// `--from dir:` killed (SIGKILL) mid-load, then `--resume`: every record once, linked, and a rerun
/// writes nothing. Accounts have no key (no external id, no `matchFields`): only the journal keyed
/// by the set's ids keeps them from being created twice.
@Suite(.serialized)
struct MigrateDirKillTests {
    @Test func aKilledLoadResumesWithoutDuplicates() async throws {
        try await TemporaryDirectory.with(prefix: "migrate-dir-kill") { directory in
            let config = directory.appendingPathComponent("config")
            try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
            for name in ["usersyncs.json", "userstore.json"] {
                try FileManager.default.copyItem(
                    at: RepositoryPaths.root.appendingPathComponent("Benchmarks/migrate/\(name)"),
                    to: config.appendingPathComponent(name)
                )
            }
            let accounts = 400
            var records: [String] = []
            for index in 0..<accounts {
                records.append(
                    #"{"attributes": {"type": "Account", "referenceId": "A\#(index)"}, "Name": "Account \#(index)"}"#
                )
            }
            for index in 0..<(2 * accounts) {
                records.append(
                    #"{"attributes": {"type": "Contact", "referenceId": "C\#(index)"}, "LastName": "Person \#(index)", "#
                        + #""Email": "p\#(index)@example.com", "AccountId": "@A\#(index % accounts)"}"#
                )
            }
            let seed = directory.appendingPathComponent("seed.json")
            try (#"{"records": ["# + records.joined(separator: ",") + "]}").write(
                to: seed,
                atomically: true,
                encoding: .utf8
            )
            let empty = directory.appendingPathComponent("empty.json")
            try #"{"records": []}"#.write(to: empty, atomically: true, encoding: .utf8)
            let source = directory.appendingPathComponent("source").path
            let target = directory.appendingPathComponent("target").path
            for (org, file, idSeed) in [(source, seed, "1"), (target, empty, "2")] {
                let seeded = try SyncrunProcess.run(["org", "seed", "--data", org, "--id-seed", idSeed, file.path])
                #expect(seeded.status == 0, "\(seeded.stderr)")
            }
            let set = "dir:" + directory.appendingPathComponent("set").path
            let base = ["migrate", "--config", config.path, "--format", "json"]
            let exported = try SyncrunProcess.run(base + ["--from", "local:" + source, "--to", set])
            #expect(exported.status == 0, "\(exported.stderr)")

            let load = base + ["--from", set, "--to", "local:" + target]
            let (killed, status) = try await SyncrunProcess.runKilled(load, after: .milliseconds(900))
            if !killed { #expect(status == 0) }
            let resumed = try SyncrunProcess.run(load + (killed ? ["--resume"] : []))
            #expect(resumed.status == 0, "killed: \(killed)\n\(resumed.stderr)")

            func rows(_ soql: String) throws -> [[String: Any]] {
                let result = try SyncrunProcess.run(["org", "query", "--data", target, soql])
                #expect(result.status == 0, "\(result.stderr)")
                return try #require(
                    try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
                )
            }
            let names = try rows("SELECT Name FROM Account").compactMap { $0["Name"] as? String }
            #expect(names.count == accounts && Set(names).count == accounts, "killed: \(killed)")
            let contacts = try rows("SELECT LastName, Account.Name FROM Contact")
            #expect(contacts.count == 2 * accounts, "killed: \(killed)")
            let links = fieldLines(contacts, ["LastName", "Account.Name"])
            #expect(links.contains("Person 401 | Account 1"))
            #expect(!links.contains { $0.hasSuffix("| null") })

            let rerun = try SyncrunProcess.run(load)
            #expect(rerun.status == 0, "\(rerun.stderr)")
            let report = try MigrateReport(rerun)
            #expect(report.total("created") == 0 && report.total("updated") == 0)
            #expect(report.total("unchanged") == 3 * accounts)
        }
    }
}
