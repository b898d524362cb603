import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing

/// A migration never duplicates the target, whatever the user does after a kill (issue 27, item 2).
///
/// `syncrun migrate` copies accounts (in trees of ten: a nillable self-reference, written in two
/// passes) and their contacts from a local org into a target served in this process. The target's
/// request observer kills the child (SIGKILL) at the k-th collections write of a run (seeded
/// random k, sometimes a few milliseconds later), so kills land between an intent and its answer,
/// while the journal records an answer, or during the next decide. After each kill the user takes
/// one of four recoveries: `--resume`; a plain rerun (refused: the run did not finish; then
/// `--resume`, as the message says); deleting the staging store; deleting the whole `.syncrun`
/// (journal included). Accounts have no key (no external id, no `matchFields`), so only the journal
/// protects them; contacts are matched by `Email`. After every step: no account or contact is
/// there twice; at the end every record is there once with its references — or the run was
/// refused with nothing written (whole `.syncrun` deleted while the target holds accounts), after
/// which the fix the message names (`matchFields`) completes the migration.
///
/// CI size: 3 kills per recovery, 300 records. By hand (`scripts/migrate-kill.sh`): 10 kills over
/// 6,000 records. `SYNCRUN_MIGRATE_KILLS`, `SYNCRUN_MIGRATE_RECORDS` (a third accounts, two thirds
/// contacts), `SYNCRUN_KILL_SEED` (printed with every failure and in the summary line).
@Suite(.serialized)
struct MigrateKillRecoveryTests {
    enum Recovery: String, CaseIterable, Sendable {
        case resume
        case rerun
        case stagingStoreDeleted
        case syncrunDeleted
    }

    static let token = "migrate-kill-test-token"

    @Test(arguments: Recovery.allCases)
    func killedMigrationsNeverDuplicateTheTarget(recovery: Recovery) async throws {
        let environment = ProcessInfo.processInfo.environment
        let kills = Int(environment["SYNCRUN_MIGRATE_KILLS"] ?? "") ?? 3
        let total = Int(environment["SYNCRUN_MIGRATE_RECORDS"] ?? "") ?? 300
        let accounts = max(10, total / 3 / 10 * 10)
        let contacts = accounts * 2
        let seed = UInt64(environment["SYNCRUN_KILL_SEED"] ?? "") ?? UInt64.random(in: 1...1_000_000)
        var random = SplitMix64(seed: seed)
        let context = "\(recovery.rawValue), seed \(seed)"
        try await MigrateProject.with(
            sourceSeed: { [try MigrateCrashSeed.file(in: $0, accounts: accounts, contacts: contacts)] },
            targetAccount: false
        ) { project in
            // Accounts without a key; contacts matched by Email.
            try project.editSyncs {
                $0.replacingOccurrences(of: #""matchFields": ["Name"]"#, with: #""matchFields": []"#)
            }
            let database = try OrgDatabase(directory: URL(fileURLWithPath: project.targetDirectory))
            let killer = Killer()
            let requestLog = project.directory.appendingPathComponent("requests.jsonl")
            let server = try LocalOrgServer(
                configuration: LocalOrgConfiguration(
                    accessToken: Self.token,
                    requestLogURL: requestLog,
                    requestObserver: { method, target in killer.observe(method, target) }
                ),
                database: database
            )
            try await server.withRunningServer { endpoint in
                let target = Target(database: database)
                /// Runs a child, then waits until the target has answered every request it received
                /// (a killed client's last write may still be in progress).
                func child(_ arguments: [String], killer armed: Killer? = nil) async throws -> ChildRun {
                    let run = try await ChildRun.runOffThePool(arguments, killer: armed)
                    try killer.settle(requestLog: requestLog)
                    return run
                }
                let base =
                    [
                        "migrate", "--config", project.config, "--from", "local:" + project.sourceDirectory,
                        "--to", endpoint.baseURL.absoluteString, "--to-access-token", Self.token, "--format", "json",
                        "--only", "accountsUp", "--only", "contactsUp", "--max-requests", "4",
                    ]
                let syncrunDirectory = project.directory.appendingPathComponent(".syncrun")
                func deleteStagingStore() throws {
                    for name in (try? FileManager.default.contentsOfDirectory(atPath: syncrunDirectory.path)) ?? []
                    where name.hasPrefix("migrate-") {
                        try FileManager.default.removeItem(at: syncrunDirectory.appendingPathComponent(name))
                    }
                }
                var fixed = false
                var refusals = 0
                /// A run the user starts after a kill that must refuse or finish, writing nothing twice.
                func expectRefusalWroteNothing(_ result: ChildRun, before: Target.Counts, _ expected: String) throws {
                    #expect(result.status == 2, "\(context): \(result.stderr)")
                    #expect(result.stderr.contains(expected), "\(context): \(result.stderr)")
                    #expect(try target.counts() == before, "\(context): a refused run wrote to the target")
                    refusals += 1
                }
                /// After the kill: the recovery step, then the arguments of the next run.
                func recover() async throws -> [String] {
                    switch recovery {
                    case .resume:
                        return base + ["--resume"]
                    case .rerun:
                        let before = try target.counts()
                        let rerun = try await child(base)
                        if rerun.status == 0 { return base }
                        try expectRefusalWroteNothing(rerun, before: before, "--resume")
                        try target.expectNoDuplicates(context)
                        return base + ["--resume"]
                    case .stagingStoreDeleted:
                        try deleteStagingStore()
                        return base
                    case .syncrunDeleted:
                        try FileManager.default.removeItem(at: syncrunDirectory)
                        if !fixed, try target.counts().accounts > 0 {
                            // The journal is gone and the target holds accounts: refused, nothing written.
                            let before = try target.counts()
                            let refused = try await child(base)
                            try expectRefusalWroteNothing(refused, before: before, "Account (sync up 'accountsUp')")
                            for fix in ["matchFields", "externalIdFieldName", "--allow-duplicates"] {
                                #expect(refused.stderr.contains(fix), "\(context): \(refused.stderr)")
                            }
                            // The fix the message names.
                            try project.editSyncs {
                                $0.replacingOccurrences(
                                    of: #""matchFields": []"#,
                                    with: #""matchFields": ["Name"]"#
                                )
                            }
                            fixed = true
                        }
                        return base
                    }
                }

                var arguments = base
                var killed = 0
                var killsLeavingIntents = 0
                var attempts = 0
                while killed < kills, attempts < kills * 3 {
                    attempts += 1
                    let counts = try target.counts()
                    let writesLeft =
                        (accounts - counts.accounts + 199) / 200 + (contacts - counts.contacts + 199) / 200
                        + (accounts + 199) / 200
                    let at = 1 + Int(random.next() % UInt64(max(1, writesLeft / max(1, kills - killed))))
                    let delay = random.next() % 2 == 0 ? 0 : Int(random.next() % 40)
                    let run = try await child(arguments, killer: killer.arm(atWrite: at, delayMilliseconds: delay))
                    try target.expectNoDuplicates(context)
                    if run.killed {
                        killed += 1
                        // Whether the kill left creates sent but not answered (the journal's intents).
                        let journals = syncrunDirectory.appendingPathComponent("migrations")
                        for name in (try? FileManager.default.contentsOfDirectory(atPath: journals.path)) ?? []
                        where name.hasSuffix(".db") {
                            let path = journals.appendingPathComponent(name).path
                            let count = try SystemSQLite.lines(path, "SELECT count(*) FROM create_intent")
                            if count != ["0"] { killsLeavingIntents += 1 }
                        }
                    } else {
                        #expect(run.status == 0, "\(context): \(run.stderr)")
                        if run.status == 0 { break }
                    }
                    arguments = try await recover()
                }
                #expect(killed >= 1, "\(context): no run was killed mid-write")

                // Finish: the next run the recovery leads to, until it ends (a refusal is followed
                // by its fix inside recover()).
                var final = try await child(arguments)
                if final.status != 0, recovery == .rerun, final.stderr.contains("--resume") {
                    final = try await child(base + ["--resume"])
                }
                #expect(final.status == 0, "\(context): \(final.stderr)")
                try target.expectNoDuplicates(context)
                let counts = try target.counts()
                #expect(counts.accounts == accounts, "\(context): accounts missing")
                #expect(counts.contacts == contacts, "\(context): contacts missing")
                let source = Target(database: try OrgDatabase(directory: URL(fileURLWithPath: project.sourceDirectory)))
                for (soql, fields) in [
                    ("SELECT Name, Parent.Name FROM Account", ["Name", "Parent.Name"]),
                    ("SELECT Email, Account.Name FROM Contact", ["Email", "Account.Name"]),
                ] {
                    #expect(try target.graph(soql, fields) == source.graph(soql, fields), "\(context)")
                }
                // A run after the last one writes nothing.
                let again = try await child(base)
                #expect(again.status == 0, "\(context): \(again.stderr)")
                let report = try MigrateReport(stdout: again.stdout)
                #expect(report.total("created") == 0, "\(context)")
                #expect(report.total("updated") == 0, "\(context)")
                print(
                    "migrate kill test (\(context)): \(killed) kills (\(killsLeavingIntents) left creates unanswered), "
                        + "\(refusals) refusals, "
                        + "\(accounts + contacts) records: \(counts.accounts) accounts, \(counts.contacts) contacts, "
                        + "\(try target.duplicates()) duplicates"
                )
            }
        }
    }
}

/// The source records of the kill tests: accounts in trees of ten (one parent, nine children),
/// two contacts each.
enum MigrateCrashSeed {
    static func file(in directory: URL, accounts: Int, contacts: Int) throws -> String {
        var records: [String] = []
        for index in 0..<accounts {
            let parent = index % 10 == 0 ? "" : #", "ParentId": "@A\#(index - index % 10)""#
            records.append(
                #"{"attributes": {"type": "Account", "referenceId": "A\#(index)"}, "Name": "Account \#(index)", "#
                    + #""Industry": "I\#(index % 7)"\#(parent)}"#
            )
        }
        for index in 0..<contacts {
            records.append(
                #"{"attributes": {"type": "Contact", "referenceId": "C\#(index)"}, "LastName": "Person \#(index)", "#
                    + #""Email": "p\#(index)@example.com", "AccountId": "@A\#(index / 2)"}"#
            )
        }
        let url = directory.appendingPathComponent("many.json")
        try (#"{"records": ["# + records.joined(separator: ",\n") + "]}").write(
            to: url,
            atomically: true,
            encoding: .utf8
        )
        return url.path
    }
}

/// Kills the armed child at the k-th collections write it sends to the target (POST or PATCH of
/// `/composite/sobjects`), at once or a few milliseconds later. Called on the server's threads.
final class Killer: @unchecked Sendable {
    private let lock = NSLock()
    private var pid: pid_t = 0
    private var writesLeft = 0
    private var delayMilliseconds = 0
    private var fired = false
    private var observed = 0

    /// Arms the killer for the next run.
    func arm(atWrite write: Int, delayMilliseconds: Int) -> Killer {
        lock.withLock {
            pid = 0
            writesLeft = write
            self.delayMilliseconds = delayMilliseconds
            fired = false
        }
        return self
    }

    /// The child started.
    func started(_ process: pid_t) {
        let pending = lock.withLock { () -> Bool in
            pid = process
            return fired
        }
        if pending { kill(process, SIGKILL) }
    }

    /// The child ended: nothing more to kill.
    func ended() {
        lock.withLock {
            writesLeft = 0
            pid = 0
        }
    }

    /// Waits (10 s at most) until the request log holds a line for every request observed: the
    /// server logs a request once it has answered it.
    func settle(requestLog: URL) throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let expected = lock.withLock { observed }
            let text = (try? String(contentsOf: requestLog, encoding: .utf8)) ?? ""
            if text.utf8.reduce(0, { $0 + ($1 == 0x0A ? 1 : 0) }) >= expected { return }
            Thread.sleep(forTimeInterval: 0.005)
        }
        Issue.record("the target did not answer every request within 10 s")
    }

    func observe(_ method: String, _ target: String) {
        lock.withLock { observed += 1 }
        let path = target.split(separator: "?").first.map(String.init) ?? target
        guard method == "POST" || method == "PATCH", path.hasSuffix("/composite/sobjects") else { return }
        let (process, delay) =
            lock.withLock { () -> (pid_t, Int)? in
                guard writesLeft > 0 else { return nil }
                writesLeft -= 1
                guard writesLeft == 0 else { return nil }
                fired = true
                return (pid, delayMilliseconds)
            } ?? (0, -1)
        guard delay >= 0, process > 0 else { return }
        if delay == 0 {
            kill(process, SIGKILL)
        } else {
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(delay)) { [self] in
                // Only the child it was armed for (a pid is reused only after that one ended).
                if lock.withLock({ pid == process }) { kill(process, SIGKILL) }
            }
        }
    }
}

/// One `syncrun` child run, optionally killed by `killer`.
struct ChildRun {
    var status: Int32
    var killed: Bool
    var stdout: String
    var stderr: String

    /// `SyncrunProcess.runOffThePool` (the target is served by this process's pool), the child
    /// handed to `killer` while it runs.
    static func runOffThePool(_ arguments: [String], killer: Killer?) async throws -> ChildRun {
        let result = try await SyncrunProcess.runOffThePool(arguments, onStart: { killer?.started($0) })
        killer?.ended()
        return ChildRun(
            status: result.status,
            killed: result.signal == SIGKILL,
            stdout: result.stdout,
            stderr: result.stderr
        )
    }
}

/// The target org, read in this process.
struct Target {
    let database: OrgDatabase

    struct Counts: Equatable {
        var accounts: Int
        var contacts: Int
    }

    func rows(_ soql: String) throws -> [[String: Any]] {
        let page = try database.query(soql, pageSize: 100_000, apiVersion: "62.0")
        return try #require(try JSONSerialization.jsonObject(with: page.recordsJSON) as? [[String: Any]])
    }

    func counts() throws -> Counts {
        Counts(accounts: try rows("SELECT Id FROM Account").count, contacts: try rows("SELECT Id FROM Contact").count)
    }

    /// The accounts (by name) and contacts (by email) there more than once.
    func duplicateCounts() throws -> (accounts: Int, contacts: Int) {
        let names = try rows("SELECT Name FROM Account").compactMap { $0["Name"] as? String }
        let emails = try rows("SELECT Email FROM Contact").compactMap { $0["Email"] as? String }
        return (names.count - Set(names).count, emails.count - Set(emails).count)
    }

    /// The accounts and contacts there more than once (by name, by email).
    func duplicates() throws -> Int {
        let counts = try duplicateCounts()
        return counts.accounts + counts.contacts
    }

    func expectNoDuplicates(_ context: String) throws {
        let counts = try duplicateCounts()
        #expect(counts.accounts == 0, "\(context): \(counts.accounts) duplicate accounts")
        #expect(counts.contacts == 0, "\(context): \(counts.contacts) duplicate contacts")
    }

    func graph(_ soql: String, _ fields: [String]) throws -> [String] {
        fieldLines(try rows(soql), fields)
    }
}
