import AsyncHTTPClient
import Foundation
import NIOCore
import SoupStore
import SyncLedger
import SyncrunTestSupport
import Testing

/// `syncrun watch` end to end (issue 34): a local org in its own process (`org serve`), `watch`
/// running against it, 100 changes made through REST at random (seeded) intervals; each change is
/// in the store, the events applied are exactly the events made, and the store ends equal to a
/// fresh full sync into another store.
struct WatchCommandTests {
    static let syncs = """
        {"syncs": [
          {"syncName": "energyAccounts", "syncType": "syncDown", "soupName": "accounts",
           "target": {"type": "soql",
                      "query": "SELECT Id, Name, Industry, LastModifiedDate FROM Account WHERE Industry = 'Energy'"},
           "options": {"mergeMode": "LEAVE_IF_CHANGED"}},
          {"syncName": "contacts", "syncType": "syncDown", "soupName": "contacts",
           "target": {"type": "soql", "query": "SELECT Id, LastName, AccountId, LastModifiedDate FROM Contact"},
           "options": {"mergeMode": "LEAVE_IF_CHANGED"}}
        ]}
        """

    static let soups = """
        {"soups": [
          {"soupName": "accounts", "indexes": [{"path": "Id", "type": "string"}, {"path": "__local__", "type": "string"},
            {"path": "__sync_id__", "type": "integer"}]},
          {"soupName": "contacts", "indexes": [{"path": "Id", "type": "string"}, {"path": "__local__", "type": "string"},
            {"path": "__sync_id__", "type": "integer"}]}
        ]}
        """

    /// The org's REST API, as the test's writer.
    struct REST {
        let url: String
        let token: String

        enum Method { case post, patch, delete }

        @discardableResult
        func send(_ method: Method, _ path: String, _ body: String? = nil) async throws -> String {
            var request = HTTPClientRequest(url: url + "/services/data/v62.0/" + path)
            switch method {
            case .post: request.method = .POST
            case .patch: request.method = .PATCH
            case .delete: request.method = .DELETE
            }
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            if let body {
                request.headers.add(name: "Content-Type", value: "application/json")
                request.body = .bytes(ByteBuffer(string: body))
            }
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            let bytes = try await response.body.collect(upTo: 1 << 20)
            let text = String(buffer: bytes)
            #expect((200..<300).contains(Int(response.status.code)), "\(method) \(path): \(text)")
            return text
        }

        func create(_ object: String, _ fields: String) async throws -> String {
            let text = try await send(.post, "sobjects/\(object)", fields)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            return try #require(object["id"] as? String)
        }
    }

    /// A deterministic generator (SplitMix64), so a failing sequence can be replayed.
    struct Random: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// `SELECT … FROM {soup}` rows of the store at `path`, as `Id → the other values`.
    static func stored(_ path: String, soup: String, fields: [String]) throws -> [String: [String]] {
        let store = try SoupStore.ledgerReadOnly(path: path)
        var rows: [String: [String]] = [:]
        let columns = (["Id"] + fields).map { "{\(soup):\($0)}" }.joined(separator: ", ")
        try store.read { reader in
            try reader.query("SELECT \(columns) FROM {\(soup)}") { row in
                let values = row.values.map { value -> String in
                    if case .text(let text) = value { return text }
                    return "\(value)"
                }
                if let id = values.first { rows[id] = Array(values.dropFirst()) }
            }
        }
        return rows
    }

    /// The watched project in `directory` (its store and sync configs) and its local org, served in
    /// its own process with a Pub/Sub port: the server (stop it), REST access and the Pub/Sub port.
    static func project(in directory: URL) throws -> (server: OrgServeSafetyTests.Server, rest: REST, pubsubPort: Int) {
        try syncs.write(to: directory.appendingPathComponent("usersyncs.json"), atomically: true, encoding: .utf8)
        try soups.write(to: directory.appendingPathComponent("userstore.json"), atomically: true, encoding: .utf8)
        let server = try OrgServeSafetyTests.Server(
            ["--port", "0", "--pubsub-port", "0", "--format", "json"],
            in: directory
        )
        do {
            let line = try #require(
                try JSONSerialization.jsonObject(with: Data(server.startLine.utf8)) as? [String: Any],
                "start line: \(server.startLine)"
            )
            let rest = REST(
                url: try #require(line["url"] as? String),
                token: try #require(line["accessToken"] as? String)
            )
            return (server, rest, try #require(line["pubsubPort"] as? Int))
        } catch {
            _ = server.stop()
            throw error
        }
    }

    @Test func aHundredRESTChangesReachTheStoreAndEqualAFreshSync() async throws {
        try await TemporaryDirectory.with { directory in
            let (server, rest, pubsubPort) = try Self.project(in: directory)
            defer { _ = server.stop() }
            let org = ["--org", rest.url, "--access-token", rest.token]

            // Before the watch: accounts with contacts.
            var accounts: [String: (name: String, energy: Bool)] = [:]
            var contacts: [String: String] = [:]  // contact → account
            for index in 0..<4 {
                let id = try await rest.create("Account", #"{"Name": "Seed \#(index)", "Industry": "Energy"}"#)
                accounts[id] = ("Seed \(index)", true)
                for child in 0..<2 {
                    contacts[
                        try await rest.create(
                            "Contact",
                            #"{"LastName": "C\#(index)-\#(child)", "AccountId": "\#(id)"}"#
                        )
                    ] = id
                }
            }

            let outputFile = directory.appendingPathComponent("watch.jsonl")
            _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
            let watch = Process()
            watch.executableURL = RepositoryPaths.syncrunExecutable
            watch.arguments =
                [
                    "watch", "--config", directory.path, "--pubsub-url", "http://127.0.0.1:\(pubsubPort)", "--format",
                    "json",
                ]
                + org
            watch.standardOutput = try FileHandle(forWritingTo: outputFile)
            let errorFile = directory.appendingPathComponent("watch-stderr.txt")
            _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
            watch.standardError = try FileHandle(forWritingTo: errorFile)
            watch.standardInput = FileHandle.nullDevice
            try SyncrunProcess.spawn(watch)
            defer { if watch.isRunning { watch.terminate() } }
            func lines() -> [[String: Any]] {
                let text = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
                return text.split(separator: "\n").compactMap {
                    try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
                }
            }
            // Started: each sync subscribed, then resynced (no position stored yet).
            let startedUp = try await eventually {
                lines().filter { $0["event"] as? String == "watchResync" }.count >= 2
            }
            #expect(startedUp, "\((try? String(contentsOf: errorFile, encoding: .utf8)) ?? "")")
            let started = try #require(lines().first { $0["event"] as? String == "watchStarted" })
            #expect((started["syncs"] as? [[String: Any]])?.map { $0["mode"] as? String } == ["cdc", "cdc"])

            // 100 changes at random intervals; what each sync's events must add up to.
            var random = Random(state: 34)
            var accountEvents = 0
            var contactEvents = 0
            let clock = ContinuousClock()
            for step in 0..<100 {
                let live = accounts.keys.sorted()
                switch Int.random(in: 0..<10, using: &random) {
                case 0, 1:
                    let energy = Bool.random(using: &random)
                    let id = try await rest.create(
                        "Account",
                        #"{"Name": "A\#(step)", "Industry": "\#(energy ? "Energy" : "Other")"}"#
                    )
                    accounts[id] = ("A\(step)", energy)
                    accountEvents += 1
                case 2, 3:
                    guard let parent = live.randomElement(using: &random) else { continue }
                    contacts[
                        try await rest.create("Contact", #"{"LastName": "C\#(step)", "AccountId": "\#(parent)"}"#)
                    ] =
                        parent
                    contactEvents += 1
                case 4, 5:
                    guard let id = live.randomElement(using: &random), let account = accounts[id] else { continue }
                    try await rest.send(.patch, "sobjects/Account/\(id)", #"{"Name": "\#(account.name)+"}"#)
                    accounts[id] = (account.name + "+", account.energy)
                    accountEvents += 1
                case 6:
                    // Moved out of (or back into) the sync's WHERE.
                    guard let id = live.randomElement(using: &random), let account = accounts[id] else { continue }
                    let energy = !account.energy
                    try await rest.send(
                        .patch,
                        "sobjects/Account/\(id)",
                        #"{"Industry": "\#(energy ? "Energy" : "Other")"}"#
                    )
                    accounts[id] = (account.name, energy)
                    accountEvents += 1
                case 7:
                    guard let id = contacts.keys.sorted().randomElement(using: &random) else { continue }
                    try await rest.send(.delete, "sobjects/Contact/\(id)")
                    contacts[id] = nil
                    contactEvents += 1
                default:
                    // A cascade: the account's contacts go with it (one event per object).
                    guard let id = live.randomElement(using: &random) else { continue }
                    try await rest.send(.delete, "sobjects/Account/\(id)")
                    accounts[id] = nil
                    accountEvents += 1
                    let children = contacts.filter { $0.value == id }.map(\.key)
                    if !children.isEmpty { contactEvents += 1 }
                    for child in children { contacts[child] = nil }
                }
                try await clock.sleep(for: .milliseconds(Int.random(in: 0..<40, using: &random)))
            }

            let storePath = directory.appendingPathComponent(".syncrun/store.db").path
            let expectedAccounts = accounts.filter(\.value.energy).mapValues { [$0.name, "Energy"] }
            let expectedContacts = contacts.mapValues { [$0] }
            let converged = try await eventually {
                try Self.stored(storePath, soup: "accounts", fields: ["Name", "Industry"]) == expectedAccounts
                    && Self.stored(storePath, soup: "contacts", fields: ["AccountId"]) == expectedContacts
            }
            #expect(converged, "the store did not reach the org's state")
            // Every event applied once: the batches add up to the changes made.
            func applied(_ sync: String) -> Int {
                lines().filter { $0["event"] as? String == "watchBatch" && $0["sync"] as? String == sync }
                    .reduce(0) { $0 + ($1["events"] as? Int ?? 0) }
            }
            #expect(
                try await eventually {
                    applied("energyAccounts") == accountEvents && applied("contacts") == contactEvents
                }
            )
            #expect(applied("energyAccounts") == accountEvents)
            #expect(applied("contacts") == contactEvents)

            watch.terminate()
            watch.waitUntilExit()
            #expect(watch.terminationStatus == 0)
            #expect(lines().last?["event"] as? String == "watchStopped")

            // A fresh full sync into another store holds the same records.
            let freshPath = directory.appendingPathComponent("fresh.db").path
            let fresh = try await SyncrunProcess.runOffThePool(
                ["sync", "--config", directory.path, "--store", freshPath, "--format", "json"] + org
            )
            #expect(fresh.status == 0, "\(fresh.stderr)")
            #expect(
                try Self.stored(freshPath, soup: "accounts", fields: ["Name", "Industry"])
                    == Self.stored(storePath, soup: "accounts", fields: ["Name", "Industry"])
            )
            #expect(
                try Self.stored(freshPath, soup: "contacts", fields: ["LastName", "AccountId"])
                    == Self.stored(storePath, soup: "contacts", fields: ["LastName", "AccountId"])
            )
            // `status` shows each watched sync's position.
            let status = try SyncrunProcess.run(["status", "--config", directory.path, "--format", "json"])
            let states = try #require(
                try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [[String: Any]]
            )
            #expect(states.allSatisfy { ($0["watch"] as? [String: Any])?["replayId"] is String })
        }
    }

    /// The org's accounts and contacts as the test changed them, shared with the task that
    /// changes them.
    final class Model: @unchecked Sendable {
        // @unchecked: every access holds `lock`.
        private let lock = NSLock()
        private var accounts: [String: (name: String, energy: Bool)] = [:]
        private var contacts: [String: String] = [:]
        private var stopped = false

        func with<T>(_ body: (inout [String: (name: String, energy: Bool)], inout [String: String]) -> T) -> T {
            lock.withLock { body(&accounts, &contacts) }
        }

        /// Asks the writer to stop after the change in hand, which it records first.
        func stop() { lock.withLock { stopped = true } }
        var isStopped: Bool { lock.withLock { stopped } }
    }

    /// Issue 34's kill test: `watch` killed with SIGKILL at random moments while changes keep coming,
    /// restarted each time; at the end the store holds exactly the org's records and values
    /// (nothing lost), and each sync's stored position is the last event applied. `SYNCRUN_WATCH_KILLS`
    /// sets the number of kills (3 by default; 10 by hand).
    /// An org of the project file may name its Pub/Sub endpoint (`pubsubUrl`); `--pubsub-url` wins
    /// over it. A value that is no endpoint is refused naming the org, before any subscription.
    @Test func theProjectFilesPubSubURLIsTheOrgsEndpoint() async throws {
        try await TemporaryDirectory.with { directory in
            let (server, rest, _) = try Self.project(in: directory)
            defer { _ = server.stop() }
            let (url, token) = (rest.url, rest.token)
            try """
            orgs:
              ci: {url: "\(url)", accessTokenEnv: CI_TOKEN, pubsubUrl: "ftp://pubsub.example"}
            """.write(to: directory.appendingPathComponent("syncrun.yaml"), atomically: true, encoding: .utf8)
            let environment = ProcessInfo.processInfo.environment.merging(["CI_TOKEN": token]) { $1 }
            let refused = try SyncrunProcess.run(
                ["watch", "--config", directory.path, "--org", "ci"],
                environment: environment
            )
            #expect(refused.status == 1, "\(refused.stderr)")
            #expect(refused.stderr.contains("the project file's pubsubUrl of org 'ci'"), "\(refused.stderr)")
            #expect(refused.stderr.contains("unknown scheme"), "\(refused.stderr)")
            // The flag wins: its own (bad) value is the one refused, as a usage error.
            let flag = try SyncrunProcess.run(
                ["watch", "--config", directory.path, "--org", "ci", "--pubsub-url", "gopher://x"],
                environment: environment
            )
            #expect(flag.status == 2 && flag.stderr.contains("gopher://x"), "\(flag.stderr)")
        }
    }

    @Test func killedAtRandomMomentsAndRestartedItLosesNothing() async throws {
        let kills = Int(ProcessInfo.processInfo.environment["SYNCRUN_WATCH_KILLS"] ?? "") ?? 3
        try await TemporaryDirectory.with { directory in
            let (server, rest, pubsubPort) = try Self.project(in: directory)
            defer { _ = server.stop() }
            let arguments =
                [
                    "watch", "--config", directory.path, "--pubsub-url", "http://127.0.0.1:\(pubsubPort)", "--format",
                    "json",
                ]
                + ["--org", rest.url, "--access-token", rest.token]
            let model = Model()
            let changing = Task {
                var random = Random(state: 7)
                var step = 0
                // Stopped between changes, never cancelled: a request cancelled after the org applied
                // it would leave the model without the change (the org has it, so does the store).
                while !model.isStopped {
                    step += 1
                    let live = model.with { accounts, _ in accounts.keys.sorted() }
                    switch Int.random(in: 0..<6, using: &random) {
                    case 0, 1:
                        let energy = Bool.random(using: &random)
                        let id = try await rest.create(
                            "Account",
                            #"{"Name": "K\#(step)", "Industry": "\#(energy ? "Energy" : "Other")"}"#
                        )
                        model.with { accounts, _ in accounts[id] = ("K\(step)", energy) }
                    case 2:
                        guard let parent = live.randomElement(using: &random) else { continue }
                        let id = try await rest.create(
                            "Contact",
                            #"{"LastName": "C\#(step)", "AccountId": "\#(parent)"}"#
                        )
                        model.with { _, contacts in contacts[id] = parent }
                    case 3, 4:
                        guard let id = live.randomElement(using: &random) else { continue }
                        let energy = Bool.random(using: &random)
                        try await rest.send(
                            .patch,
                            "sobjects/Account/\(id)",
                            #"{"Name": "K\#(step)", "Industry": "\#(energy ? "Energy" : "Other")"}"#
                        )
                        model.with { accounts, _ in accounts[id] = ("K\(step)", energy) }
                    default:
                        guard let id = live.randomElement(using: &random) else { continue }
                        try await rest.send(.delete, "sobjects/Account/\(id)")
                        model.with { accounts, contacts in
                            accounts[id] = nil
                            contacts = contacts.filter { $0.value != id }
                        }
                    }
                    try await ContinuousClock().sleep(for: .milliseconds(Int.random(in: 5..<60, using: &random)))
                }
            }
            var random = Random(state: 99)
            for _ in 0..<kills {
                let result = try await SyncrunProcess.runKilled(
                    arguments,
                    after: .milliseconds(Int.random(in: 300..<2_500, using: &random)),
                    in: directory
                )
                #expect(result.killed, "watch ended on its own: status \(result.status.map(String.init) ?? "?")")
            }
            model.stop()
            try await changing.value
            // A last run, left to converge.
            let outputFile = directory.appendingPathComponent("watch.jsonl")
            _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
            let watch = Process()
            watch.executableURL = RepositoryPaths.syncrunExecutable
            watch.arguments = arguments
            watch.standardOutput = try FileHandle(forWritingTo: outputFile)
            watch.standardError = FileHandle.nullDevice
            watch.standardInput = FileHandle.nullDevice
            try SyncrunProcess.spawn(watch)
            defer { if watch.isRunning { watch.terminate() } }
            // Started (its signal handlers are installed before it says so), then left to converge.
            let startedUp = try await eventually {
                ((try? String(contentsOf: outputFile, encoding: .utf8)) ?? "").contains("watchStarted")
            }
            #expect(startedUp)
            let storePath = directory.appendingPathComponent(".syncrun/store.db").path
            let (expectedAccounts, expectedContacts) = model.with { accounts, contacts in
                (accounts.filter(\.value.energy).mapValues { [$0.name, "Energy"] }, contacts.mapValues { [$0] })
            }
            let converged = try await eventually {
                try Self.stored(storePath, soup: "accounts", fields: ["Name", "Industry"]) == expectedAccounts
                    && Self.stored(storePath, soup: "contacts", fields: ["AccountId"]) == expectedContacts
            }
            let storedAccounts = try Self.stored(storePath, soup: "accounts", fields: ["Name", "Industry"])
            let storedContacts = try Self.stored(storePath, soup: "contacts", fields: ["AccountId"])
            #expect(
                converged,
                """
                after \(kills) kills the store did not reach the org's state: accounts missing \(
                    expectedAccounts.filter { storedAccounts[$0.key] != $0.value }), extra \(
                    storedAccounts.filter { expectedAccounts[$0.key] == nil }); contacts missing \(
                    expectedContacts.filter { storedContacts[$0.key] != $0.value }), extra \(
                    storedContacts.filter { expectedContacts[$0.key] == nil }); watch output:
                \((try? String(contentsOf: outputFile, encoding: .utf8)) ?? "")
                """
            )
            watch.terminate()
            watch.waitUntilExit()
            #expect(watch.terminationStatus == 0)
        }
    }
}

/// Waits (up to 30 s, polling every 50 ms on the continuous clock) until `condition` holds.
private func eventually(_ condition: () throws -> Bool) async throws -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + .seconds(30)
    while clock.now < deadline {
        if try condition() { return true }
        try await clock.sleep(for: .milliseconds(50))
    }
    return try condition()
}
