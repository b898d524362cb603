import Foundation
import SyncrunTestSupport
import Testing

/// `migrate` with masks (a sync up's `options.mask`) over two local orgs: no source value of a
/// masked field reaches the target, a rerun writes nothing, and the same secret masks the same way
/// into another fresh org.
@Suite(.serialized)
struct MigrateMaskTests {
    private static let masks = #""mask": {"Email": "email", "LastName": "lastName", "Title": {"fixed": "Redacted"}}"#

    private func maskContacts(_ project: MigrateProject) throws {
        try project.editSyncs { syncs in
            // contactsUp is the only sync up whose options follow its matchFields.
            syncs.replacingOccurrences(
                of: #""matchFields": ["Email"]"# + "\n      },\n      \"options\": { \"mergeMode\": \"OVERWRITE\" }",
                with: #""matchFields": ["Email"]"# + "\n      },\n      \"options\": { \"mergeMode\": \"OVERWRITE\", "
                    + Self.masks + " }"
            )
        }
        let syncs = try String(contentsOf: project.directory.appendingPathComponent("usersyncs.json"), encoding: .utf8)
        #expect(syncs.contains(#""Title": {"fixed": "Redacted"}"#))
    }

    @Test func maskedFieldsLeaveNothingOfTheSourceAndMaskAlikeForOneSecret() async throws {
        try await MigrateProject.with { project in
            try maskContacts(project)
            let secret = project.directory.appendingPathComponent("mask.key")
            try Data("a secret of thirty-two bytes....".utf8).write(to: secret)
            let first = try project.migrate(["--mask-secret-file", secret.path])
            #expect(first.status == 0, "\(first.stderr)")
            #expect(!first.stdout.contains("thirty-two") && !first.stderr.contains("thirty-two"))
            let report = try MigrateReport(first)
            #expect(report.count("created", "Contact") == 8)
            #expect(report.total("failed") == 0)

            let source = try project.records("source", "SELECT Email, LastName, Title FROM Contact")
            let target = try project.records("target", "SELECT Email, LastName, Title FROM Contact")
            #expect(target.count == 8)
            let sourceValues = source.flatMap { record in
                ["Email", "LastName", "Title"].compactMap { record[$0] as? String }.filter { !$0.isEmpty }
            }
            var sourceParts: Set<String> = []
            for value in sourceValues {
                for part in value.split(whereSeparator: { $0 == "@" || $0 == "." || $0 == " " }) where part.count > 3 {
                    sourceParts.insert(String(part))
                }
            }
            sourceParts.remove("Redacted")
            let targetText = fieldLines(target, ["Email", "LastName", "Title"]).joined(separator: "\n")
            for part in sourceParts { #expect(!targetText.contains(part), "'\(part)' reached the target") }
            let emails = target.compactMap { $0["Email"] as? String }
            #expect(Set(emails).count == 8)
            #expect(emails.allSatisfy { $0.hasSuffix("@masked.invalid") })
            #expect(target.allSatisfy { $0["Title"] as? String == "Redacted" })
            // Links kept: every masked contact still points at its migrated account.
            let linked = try project.records("target", "SELECT Account.Name FROM Contact WHERE AccountId != null")
            let sourceLinked = try project.records("source", "SELECT Account.Name FROM Contact WHERE AccountId != null")
            #expect(fieldLines(linked, ["Account.Name"]) == fieldLines(sourceLinked, ["Account.Name"]))

            // A rerun matches on the masked Email and writes nothing.
            let again = try project.migrate(["--mask-secret-file", secret.path])
            #expect(again.status == 0, "\(again.stderr)")
            let rerun = try MigrateReport(again)
            #expect(rerun.count("created", "Contact") == 0 && rerun.count("updated", "Contact") == 0)

            // Another fresh org, the same secret: the same masked values.
            let other = project.directory.appendingPathComponent("orgs/other").path
            let seeded = try SyncrunProcess.run(
                [
                    "org", "seed", "--data", other, "--id-seed", "303", "--schema",
                    project.directory.appendingPathComponent("target-schema.yaml").path,
                    project.directory.appendingPathComponent("data/target-users.json").path,
                ]
            )
            #expect(seeded.status == 0, "\(seeded.stderr)")
            let second = try SyncrunProcess.run(
                [
                    "migrate", "--config", project.config, "--from", "local:" + project.sourceDirectory,
                    "--to", "local:" + other, "--format", "json", "--mask-secret-file", secret.path,
                ]
            )
            #expect(second.status == 0, "\(second.stderr)")
            let query = try SyncrunProcess.run([
                "org", "query", "--data", other, "SELECT Email, LastName, Title FROM Contact",
            ])
            let otherRecords = try #require(
                try JSONSerialization.jsonObject(with: Data(query.stdout.utf8)) as? [[String: Any]]
            )
            #expect(
                fieldLines(otherRecords, ["Email", "LastName", "Title"])
                    == fieldLines(target, ["Email", "LastName", "Title"])
            )
        }
    }

    @Test func aShortSecretFileIsRefusedBeforeAnythingIsWritten() async throws {
        try await MigrateProject.with { project in
            try maskContacts(project)
            let secret = project.directory.appendingPathComponent("short.key")
            try Data("short\n".utf8).write(to: secret)
            let result = try project.migrate(["--mask-secret-file", secret.path])
            #expect(result.status == 2)
            #expect(result.stderr.contains("fewer than 16"))
            #expect(!result.stderr.contains("short\n"))
            #expect(try project.records("target", "SELECT Id FROM Contact").isEmpty)
        }
    }

    /// `org check` reports a mask the target's field cannot hold, by the rule `migrate` refuses it
    /// with (one rule: `FieldMask.problem`), and leaves the masks a field can hold alone.
    @Test func orgCheckReportsMasksTheTargetCannotHoldAsMigrateRefusesThem() async throws {
        try await MigrateProject.with { project in
            let options = #""matchFields": ["Email"]"# + "\n      },\n      \"options\": { \"mergeMode\": \"OVERWRITE\""
            try project.editSyncs { syncs in
                syncs.replacingOccurrences(
                    of: options + " }",
                    with: options + #", "mask": {"AccountId": "hash", "Email": "email"} }"#
                )
            }
            let check = try SyncrunProcess.run([
                "org", "check", "--config", project.config, "--org", "local:" + project.targetDirectory,
            ])
            #expect(check.status == 1, "\(check.stdout)\(check.stderr)")
            let lines = check.stdout.split(separator: "\n").filter { $0.contains("[mask-not-holdable]") }
            #expect(lines.count == 1, "\(check.stdout)")
            #expect(
                lines.first?.contains(
                    "syncs[3].options.mask.AccountId: 'Contact.AccountId' cannot hold the 'hash' mask in this org: a "
                        + "reference cannot be masked (the ids are remapped, not copied)"
                ) == true,
                "\(check.stdout)"
            )
            let refused = try project.migrate()
            #expect(refused.status == 2)
            #expect(
                refused.stderr.contains(
                    "Contact.AccountId (sync up 'contactsUp'): a reference cannot be masked (the ids are remapped, not "
                        + "copied)"
                ),
                "\(refused.stderr)"
            )
        }
    }
}
