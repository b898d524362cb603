import Foundation
import SyncrunTestSupport
import Testing

/// `syncrun run` end to end: the example project on its embedded local org, over HTTP.
@Suite(.serialized)
struct RunCommandTests {
    static let planOrder = [
        "syncUp:accountsUp", "syncDown:accountsDown", "cleanGhosts:accountsDown", "syncUp:contactsUp",
        "syncDown:contactsDown",
    ]

    @Test func runsTheExampleUpThenDownAndSendsLocalChangesOnTheNextRun() async throws {
        try await RunProject.with { project in
            let first = try project.run()
            #expect(first.status == 0, "\(first.stderr)")
            let summary = try RunSummary(first)
            #expect(summary.status == "DONE")
            #expect(summary.steps.map { $0["step"] as? String } == Self.planOrder)
            #expect(try summary.count("created", of: "syncDown:accountsDown") == 20)
            #expect(try summary.count("created", of: "syncDown:contactsDown") == 50)

            // Edit an account, create a contact, delete another, as an app would.
            try project.syncrun([
                "store", "mark", "accounts", "--updated", "--where", "Name=Aster Biotech", "--set", "Phone=555-0100",
            ])
            try project.syncrun(
                ["store", "import", "contacts", "-"],
                stdin:
                    #"[{"attributes":{"type":"Contact"},"FirstName":"Nina","LastName":"Newman","Email":"nina@example.com"}]"#
            )
            try project.syncrun(["store", "mark", "contacts", "--created", "--where", "LastName=Newman"])
            let victim = try #require(
                try project.orgRecords("SELECT Id, LastName FROM Contact ORDER BY LastName LIMIT 1").first
            )
            let victimID = try #require(victim["Id"] as? String)
            try project.syncrun(["store", "mark", "contacts", "--deleted", "--where", "Id=\(victimID)"])

            let second = try project.run()
            #expect(second.status == 0, "\(second.stderr)")
            let again = try RunSummary(second)
            #expect(try again.count("updated", of: "syncUp:accountsUp") == 1)
            #expect(try again.count("created", of: "syncUp:contactsUp") == 1)
            #expect(try again.count("deleted", of: "syncUp:contactsUp") == 1)

            #expect(
                try project.orgRecords("SELECT Phone FROM Account WHERE Name = 'Aster Biotech'").first?["Phone"]
                    as? String == "555-0100"
            )
            let created = try project.orgRecords("SELECT Id, Email FROM Contact WHERE LastName = 'Newman'")
            #expect(created.count == 1)
            #expect(try project.orgRecords("SELECT Id FROM Contact WHERE Id = '\(victimID)'").isEmpty)
            // The store holds the new contact under its server id, with no local change left.
            let newman = try project.storeRows(
                "SELECT {contacts:Id} FROM {contacts} WHERE {contacts:LastName} = 'Newman'"
            )
            #expect(newman.first?.first as? String == created.first?["Id"] as? String)
            let dirty = try project.storeRows(
                "SELECT count(*) FROM {contacts} WHERE {contacts:__local__} = 'true'"
            )
            #expect((dirty.first?.first as? Int) == 0)
        }
    }

    /// Issue 31 item 2: a rerun with nothing changed on either side reports nothing created or
    /// updated. The tie-safe resync re-reads the records stamped at the watermark, which come
    /// exactly as stored: counted as unchanged.
    @Test func aRerunWithNothingChangedReportsNothingUpdated() async throws {
        try await RunProject.with { project in
            let first = try project.run()
            #expect(first.status == 0, "\(first.stderr)")
            let second = try project.run()
            #expect(second.status == 0, "\(second.stderr)")
            let summary = try RunSummary(second)
            #expect(summary.status == "DONE")
            for step in Self.planOrder where !step.hasPrefix("cleanGhosts") {
                #expect(try summary.count("created", of: step) == 0, "\(step)")
                #expect(try summary.count("updated", of: step) == 0, "\(step)")
            }
            for step in ["syncDown:accountsDown", "syncDown:contactsDown"] {
                #expect(
                    (try summary.count("unchanged", of: step) ?? 0) >= 1,
                    "\(step): the watermark's records re-read"
                )
                #expect(try summary.count("unchanged", of: step) == summary.count("fetched", of: step))
            }
        }
    }

    @Test func theRequestLogFollowsThePlanOrder() async throws {
        try await RunProject.with { project in
            #expect(try project.run().status == 0)
            try project.syncrun([
                "store", "mark", "accounts", "--updated", "--where", "Name=Aster Biotech", "--set", "Phone=1",
            ])
            try project.syncrun([
                "store", "mark", "contacts", "--updated", "--where", "LastName=Thompson", "--set", "Title=CTO",
            ])
            let log = project.directory.appendingPathComponent("requests.jsonl")
            let run = try project.run(["--request-log", log.path])
            #expect(run.status == 0, "\(run.stderr)")

            var observed: [String] = []
            for line in try String(contentsOf: log, encoding: .utf8).split(separator: "\n") {
                let entry = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                let path = (entry["path"] as? String ?? "").removingPercentEncoding ?? ""
                guard let step = Self.step(of: path), observed.last != step else { continue }
                observed.append(step)
            }
            #expect(observed == Self.planOrder)
        }
    }

    /// The plan step a request belongs to, from its path; `nil` for requests that name no type.
    static func step(of path: String) -> String? {
        for (type, sync) in [("Account", "accounts"), ("Contact", "contacts")] {
            if path.hasSuffix("composite/sobjects/\(type)") || path.contains("FROM \(type) WHERE Id IN") {
                return "syncUp:\(sync)Up"
            }
            if path.contains("q=SELECT Id FROM \(type)") { return "cleanGhosts:\(sync)Down" }
            if path.contains("FROM \(type)") { return "syncDown:\(sync)Down" }
        }
        return nil
    }

    @Test func aFailedStepSkipsItsDependentsWhileIndependentStepsRun() async throws {
        try await RunProject.with { project in
            try project.editSyncs(
                replacing: "BillingCountry, LastModifiedDate FROM Account",
                with: "Bogus__c, LastModifiedDate FROM Account"
            )
            let junit = project.directory.appendingPathComponent("report.xml")
            let run = try project.run(["--junit", junit.path])
            #expect(run.status == 1)
            let summary = try RunSummary(run)
            #expect(
                summary.statuses == [
                    "syncUp:accountsUp=DONE", "syncDown:accountsDown=FAILED", "cleanGhosts:accountsDown=SKIPPED",
                    "syncUp:contactsUp=DONE", "syncDown:contactsDown=SKIPPED",
                ]
            )
            let message = try #require(try summary.step("syncDown:accountsDown")["message"] as? String)
            #expect(message.contains("Bogus__c"))
            #expect(
                try summary.step("cleanGhosts:accountsDown")["message"] as? String
                    == "skipped: it depends on syncDown:accountsDown, which failed"
            )
            #expect(
                try summary.step("syncDown:contactsDown")["message"] as? String
                    == "skipped: it depends on cleanGhosts:accountsDown, which was skipped because "
                    + "syncDown:accountsDown failed"
            )

            let xml = try String(contentsOf: junit, encoding: .utf8)
            #expect(xml.contains(#"<testsuites name="syncrun run" tests="5" failures="1" errors="0" skipped="2""#))
            #expect(xml.contains(#"<testcase classname="accountsDown" name="syncDown:accountsDown""#))
            #expect(xml.contains(#"<failure type="FAILED" message=""#))
            #expect(xml.components(separatedBy: "<skipped message=").count == 3)
        }
    }

    @Test func resumeRunsOnlyWhatTheInterruptedRunDidNotFinish() async throws {
        try await RunProject.with { project in
            // The org stops answering after 3 requests: accountsUp (none) and accountsDown (1 query) and
            // cleanGhosts (1 query) succeed, contactsDown's query is dropped.
            let broken = try project.run(["--fail-after", "2"])
            #expect(broken.status == 1)
            let first = try RunSummary(broken)
            #expect(try first.step("syncDown:accountsDown")["status"] as? String == "DONE")
            #expect(try first.step("syncDown:contactsDown")["status"] as? String == "FAILED")

            let resumed = try project.run(["--resume"])
            #expect(resumed.status == 0, "\(resumed.stderr)")
            let summary = try RunSummary(resumed)
            #expect(try summary.step("syncDown:accountsDown")["status"] as? String == "NOT_RUN")
            #expect(
                try summary.step("syncDown:accountsDown")["message"] as? String == "ended DONE in the run being resumed"
            )
            #expect(try summary.step("syncDown:contactsDown")["status"] as? String == "DONE")
            #expect(try summary.count("created", of: "syncDown:contactsDown") == 50)
            #expect(summary.status == "DONE")

            // The latest run finished every step: a resume has nothing to continue and runs the
            // whole plan (a run killed before it journaled anything is not silently skipped).
            let again = try project.run(["--resume"])
            #expect(again.status == 0, "\(again.stderr)")
            let rerun = try RunSummary(again)
            #expect(try rerun.step("syncDown:accountsDown")["status"] as? String == "DONE")
            #expect(try rerun.step("syncDown:contactsDown")["status"] as? String == "DONE")
            #expect(again.stdout.contains("nothing to resume: the latest run ended every step DONE"))
        }
    }

    @Test func aChangedDefinitionRefusesThePlanUntilReplaced() async throws {
        try await RunProject.with { project in
            #expect(try project.run().status == 0)
            try project.editSyncs(replacing: "\"maxBatchSize\": 500", with: "\"maxBatchSize\": 200")
            let log = project.directory.appendingPathComponent("requests.jsonl")
            let refused = try project.run(["--request-log", log.path])
            #expect(refused.status == 2)
            #expect(refused.stderr.contains("accountsDown"))
            #expect(refused.stderr.contains("target.maxBatchSize"))
            #expect(refused.stderr.contains("--replace"))
            // Nothing ran: the org saw no request.
            let requests = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            #expect(requests.isEmpty)

            let replaced = try project.run(["--replace"])
            #expect(replaced.status == 0, "\(replaced.stderr)")
        }
    }

    @Test func runsUnderInjectedServerErrorsFinishWithExactTotals() async throws {
        try await RunProject.with { project in
            try project.syncrun(["store", "init"])
            var entries: [String] = []
            for index in 0..<30 {
                entries.append(#"{"attributes":{"type":"Contact"},"LastName":"Retry\#(index)","Department":"Retry"}"#)
            }
            try project.syncrun(
                ["store", "import", "contacts", "-"],
                stdin: "[" + entries.joined(separator: ",") + "]"
            )
            try project.syncrun(["store", "mark", "contacts", "--created", "--where", "Department=Retry"])

            // Runs again until one ends clean, as a CI job would; a run's failed records stay
            // marked local for the next. Small pages make many requests for the faults to hit.
            var faultsSeen = 0
            var seed = 100
            func runUntilClean() throws -> [RunSummary] {
                var summaries: [RunSummary] = []
                for _ in 0..<8 {
                    seed += 1
                    let run = try project.run(["--fail-rate", "0.05", "--fail-seed", String(seed), "--page-size", "4"])
                    let summary = try RunSummary(run)
                    summaries.append(summary)
                    faultsSeen += summary.steps.reduce(0) { $0 + ($1["retries"] as? Int ?? 0) }
                    faultsSeen += run.status == 0 ? 0 : 1
                    if run.status == 0 { return summaries }
                }
                Issue.record("no clean run in 8 attempts")
                return summaries
            }
            let first = try runUntilClean()
            let created = try first.reduce(0) { $0 + (try $1.count("created", of: "syncUp:contactsUp") ?? 0) }
            #expect(created == 30)

            let names = ["Aster Biotech", "Blue Harbor Logistics", "Bright Path Education"]
            for name in names {
                try project.syncrun([
                    "store", "mark", "accounts", "--updated", "--where", "Name=\(name)", "--set",
                    "Website=https://retry.example",
                ])
            }
            let second = try runUntilClean()
            let updated = try second.reduce(0) { $0 + (try $1.count("updated", of: "syncUp:accountsUp") ?? 0) }
            #expect(updated == 3)

            #expect(faultsSeen > 0, "the injected failures never hit; pick other seeds")
            #expect(try project.orgRecords("SELECT Id FROM Contact WHERE LastName LIKE 'Retry%'").count == 30)
            #expect(try project.orgRecords("SELECT Id FROM Contact").count == 80)
            #expect(try project.orgRecords("SELECT Id FROM Account WHERE Website = 'https://retry.example'").count == 3)
            let stored = try project.storeRows("SELECT count(*) FROM {contacts}")
            #expect(stored.first?.first as? Int == 80)
        }
    }

    @Test func dryRunPrintsWhatTheRunThenDoesAndWritesNothing() async throws {
        try await RunProject.with { project in
            #expect(try project.run().status == 0)
            try project.syncrun([
                "store", "mark", "accounts", "--updated", "--where", "Name=Aster Biotech", "--set", "Phone=555-0199",
            ])
            try project.syncrun(
                ["store", "import", "contacts", "-"],
                stdin: #"[{"attributes":{"type":"Contact"},"LastName":"Dry"}]"#
            )
            try project.syncrun(["store", "mark", "contacts", "--created", "--where", "LastName=Dry"])

            // The store's bytes, and every record of the org (its query cursors are the server's own
            // bookkeeping, as on a real org, so the org's file is compared by its records).
            // (SQLite may create an empty WAL and its index beside the file to read it: no data.)
            let storeFile = project.directory.appendingPathComponent(".syncrun/store.db")
            let wal = project.directory.appendingPathComponent(".syncrun/store.db-wal")
            let before = try Data(contentsOf: storeFile)
            #expect(((try? Data(contentsOf: wal)) ?? Data()).isEmpty)
            let orgQueries = [
                "SELECT Id, Name, Phone, LastModifiedDate, SystemModstamp, IsDeleted FROM Account",
                "SELECT Id, LastName, AccountId, LastModifiedDate, SystemModstamp, IsDeleted FROM Contact",
            ]
            func orgSnapshot() throws -> [String] {
                try orgQueries.flatMap { soql in
                    try project.orgRecords(soql).map { record in
                        String(
                            decoding: try JSONSerialization.data(withJSONObject: record, options: .sortedKeys),
                            as: UTF8.self
                        )
                    }
                }
            }
            let orgBefore = try orgSnapshot()
            let log = project.directory.appendingPathComponent("requests.jsonl")
            let dry = try project.run(["--dry-run", "--request-log", log.path])
            #expect(dry.status == 0, "\(dry.stderr)")
            let preview = try RunSummary(dry)
            func previewed(_ step: String, _ side: String, _ key: String) throws -> Int? {
                let object = try #require(try preview.step(step)["preview"] as? [String: Any])
                return (object[side] as? [String: Any])?[key] as? Int
            }
            #expect(try previewed("syncUp:accountsUp", "org", "updated") == 1)
            #expect(try previewed("syncUp:contactsUp", "org", "created") == 1)
            // The step's counts stand at the top level of the preview, beside the preview's own keys.
            let previewKeys = Set(try #require(try preview.step("syncUp:accountsUp")["preview"] as? [String: Any]).keys)
            let countKeys = ["org", "local", "conflicts", "skippedLocallyChanged", "skipped", "keptForOtherSyncs"]
            let ownKeys = [
                "failed", "fetched", "selected", "pages", "requests", "incremental", "items", "itemsTruncated",
            ]
            #expect(previewKeys.isSuperset(of: countKeys + ownKeys), "\(previewKeys.sorted())")
            #expect(!previewKeys.contains("counts"))
            #expect(try Data(contentsOf: storeFile) == before, "the dry run changed the store")
            #expect(((try? Data(contentsOf: wal)) ?? Data()).isEmpty, "the dry run wrote to the store's WAL")
            #expect(try orgSnapshot() == orgBefore, "the dry run changed the org's records")
            for line in try String(contentsOf: log, encoding: .utf8).split(separator: "\n") {
                let entry = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                let method = entry["method"] as? String
                let path = entry["path"] as? String ?? ""
                // Reads only: GETs, and the collection retrieve (a POST that reads) of the conflict check.
                #expect(method == "GET" || (method == "POST" && path.contains("/composite/sobjects/")), "\(line)")
            }

            let real = try project.run()
            #expect(real.status == 0, "\(real.stderr)")
            let summary = try RunSummary(real)
            #expect(try summary.count("updated", of: "syncUp:accountsUp") == 1)
            #expect(try summary.count("created", of: "syncUp:contactsUp") == 1)
        }
    }

    @Test func dryRunRefusesToCreateALocalOrg() async throws {
        try await RunProject.with { project in
            let dry = try project.run(["--dry-run"])
            #expect(dry.status == 2)
            #expect(dry.stderr.contains("a dry run creates nothing"))
            #expect(!FileManager.default.fileExists(atPath: project.orgDirectory))
            #expect(
                !FileManager.default.fileExists(
                    atPath: project.directory.appendingPathComponent(".syncrun/store.db").path
                )
            )
        }
    }
}
