import Foundation
import SyncrunTestSupport
import Testing

/// Crash safety of `syncrun run`: the process is killed with SIGKILL at random instants during
/// sync up and sync down, local edits keep coming between the kills, and each kill is followed by
/// a rerun. At the end no local change is lost and no server record is duplicated. Sync up runs
/// with four requests in flight (`--max-requests 4`, the default made explicit).
///
/// `SYNCRUN_KILL_ITERATIONS` sets the number of kill points (default 20); `SYNCRUN_KILL_SEED`
/// the random seed (default: random, printed on failure).
@Suite(.serialized)
struct RunCrashTests {
    @Test func killedRunsLoseNoLocalChangeAndDuplicateNoServerRecord() async throws {
        let iterations = Int(ProcessInfo.processInfo.environment["SYNCRUN_KILL_ITERATIONS"] ?? "") ?? 20
        let seed =
            UInt64(ProcessInfo.processInfo.environment["SYNCRUN_KILL_SEED"] ?? "") ?? UInt64.random(in: 1...1_000_000)
        var random = SplitMix64(seed: seed)
        try await RunProject.with { project in
            #expect(try project.run().status == 0)
            // Small pages and a slow-ish plan so kills land inside sync up and sync down alike.
            let arguments = [
                "run", "--config", project.config, "--org", project.org, "--page-size", "5", "--format", "json",
                "--max-requests", "4",
            ]
            // How long a whole run takes here, to spread the kill points over it; it shrinks when
            // runs end before their kill point.
            let clock = ContinuousClock()
            var span = max(clock.measure { _ = try? SyncrunProcess.run(arguments) }, .milliseconds(150))

            var expectedPhones: [String: String] = [:]  // account name → phone set locally
            var createdNames: [String] = []
            var killed = 0
            let accounts = try project.storeRows("SELECT {accounts:Name} FROM {accounts} ORDER BY {accounts:Name}")
                .compactMap { $0.first as? String }
            var iteration = 0
            // Until `iterations` runs were really killed mid-run (bounded).
            while killed < iterations, iteration < iterations * 4 {
                defer { iteration += 1 }
                // New local changes before every run: an edit, and every other time a new account.
                let name = accounts[iteration % accounts.count]
                let phone = "555-\(seed % 1000)-\(iteration)"
                try project.syncrun([
                    "store", "mark", "accounts", "--updated", "--where", "Name=\(name)", "--set", "Phone=\(phone)",
                ])
                expectedPhones[name] = phone
                if iteration % 2 == 0 {
                    let created = "Crash \(seed) \(iteration)"
                    try project.syncrun(
                        ["store", "import", "accounts", "-"],
                        stdin: #"[{"attributes":{"type":"Account"},"Name":"\#(created)","Industry":"Testing"}]"#
                    )
                    try project.syncrun(["store", "mark", "accounts", "--created", "--where", "Name=\(created)"])
                    createdNames.append(created)
                }
                let fraction = Double(random.next() % 1000) / 1000
                let outcome = try await SyncrunProcess.runKilled(arguments, after: span * fraction)
                if outcome.killed { killed += 1 } else { span = span * 0.8 }
            }
            // Reruns until one ends clean.
            var final: SyncrunProcess.Result?
            for _ in 0..<3 {
                let run = try SyncrunProcess.run(arguments)
                final = run
                if run.status == 0 { break }
            }
            #expect(
                final?.status == 0,
                "seed \(seed): the run after the kills failed: \(final?.stderr ?? "") \(final?.stdout.split(separator: "\n").last ?? "")"
            )
            #expect(killed >= iterations, "seed \(seed): only \(killed) of \(iteration) runs were killed mid-run")

            // No duplicate: each locally created account exists exactly once on the org.
            for created in createdNames {
                let found = try project.orgRecords("SELECT Id FROM Account WHERE Name = '\(created)'")
                #expect(found.count == 1, "seed \(seed): '\(created)' is on the org \(found.count) time(s)")
            }
            #expect(try project.orgRecords("SELECT Id FROM Account").count == 20 + createdNames.count)
            // No lost change: every edit reached the org, and nothing is left marked local.
            for (name, phone) in expectedPhones {
                let found = try project.orgRecords("SELECT Phone FROM Account WHERE Name = '\(name)'")
                #expect(found.first?["Phone"] as? String == phone, "seed \(seed): '\(name)' lost its edit")
            }
            let dirty = try project.storeRows("SELECT count(*) FROM {accounts} WHERE {accounts:__local__} = 'true'")
            #expect(dirty.first?.first as? Int == 0, "seed \(seed)")
            let local = try project.storeRows("SELECT count(*) FROM {accounts} WHERE {accounts:Id} LIKE 'local_%'")
            #expect(local.first?.first as? Int == 0, "seed \(seed)")
            let stored = try project.storeRows("SELECT count(*) FROM {accounts}")
            #expect(stored.first?.first as? Int == 20 + createdNames.count, "seed \(seed)")
        }
    }
}

/// A small seeded generator, so a failing kill sequence can be replayed with `SYNCRUN_KILL_SEED`.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
