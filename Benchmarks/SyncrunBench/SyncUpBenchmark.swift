import ArgumentParser
import Foundation
import LocalOrg
import Logging
import OrgClient
import SoupStore
import SyncConfig
import SyncEngine
import SyncLedger

/// `syncrun-bench sync-up`: sync up of N locally updated Accounts, with the `collection` target
/// (200 records per call) and the `single` target (one call per record), and optionally the
/// Python baselines (simple-salesforce, one `Account.update` per record; and a short script that
/// PATCHes sObject Collections 200 at a time), each on its own copy of the same state; then sync
/// up of N locally created Accounts with the `collection` target, and optionally the Python create
/// baseline (POST sObject Collections 200 at a time, ids written back). Prints one table each.
///
/// ```sh
/// syncrun-bench sync-up --records 10000 --baseline Benchmarks/sync-up/baseline.py \
///     --collections-baseline Benchmarks/sync-up/collections_baseline.py \
///     --create-baseline Benchmarks/sync-up/create_baseline.py
/// ```
///
/// The state is made once, untimed: `seed-accounts` writes N Accounts into a local org, a sync
/// down stores them in the soup `accounts`, and every entry is marked updated with a new `Phone`.
/// Each row then gets a fresh copy of the org and the store and its own `syncrun org serve`
/// process, so CPU time and peak memory are the client's alone. After each row the benchmark
/// checks that the org holds the new `Phone` on all N Accounts and that no entry is left
/// `__local__`, and fails otherwise. Write requests are counted in each org's request log.
struct SyncUpBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync-up",
        abstract: "Sync up N locally updated Accounts: collection vs single target (vs a Python baseline)."
    )

    @Option(help: "Accounts to seed, sync down, update locally and sync up.") var records = 10_000

    @Option(
        help: ArgumentHelp("The syncrun executable serving the org (default: next to this one).", valueName: "path")
    )
    var syncrun: String?

    @Option(help: ArgumentHelp("The Python baseline script to run as a third row.", valueName: "file"))
    var baseline: String?

    @Option(
        help: ArgumentHelp(
            "The Python collections baseline (PATCH 200 records per call) to run as a fourth row.",
            valueName: "file"
        )
    )
    var collectionsBaseline: String?

    @Option(
        help: ArgumentHelp(
            "The Python create baseline (POST 200 new records per call, ids written back) for the create table.",
            valueName: "file"
        )
    )
    var createBaseline: String?

    @Option(help: "The Python interpreter for the baselines.") var python = "python3"

    @Flag(help: "Skip the one-record-per-call rows (single target, Account.update per record).")
    var collectionsOnly = false

    @Flag(help: "Skip the create table.") var skipCreates = false

    @Flag(help: "Skip the 'api auto' rows (Bulk API 2.0 from 10k records): the latency runs compare 'api rest'.")
    var skipAuto = false

    @Flag(help: "Keep the temp directory (org copies, stores, request logs).") var keep = false

    @Option(
        name: .customLong("latency-ms"),
        help: "Milliseconds the org adds before every response of the measured rows (a real org: 100-300)."
    )
    var latencyMilliseconds = 0

    @Option(
        name: .customLong("max-requests"),
        help: "syncrun's requests in flight (maxConcurrentRequests); default: the config default, 4."
    )
    var maxRequests: Int?

    /// The new value every record gets, and the fields sync up sends (the same for the baseline).
    static let newPhone = "+1 (650) 555-0199"
    static let fields = ["Name", "Phone"]
    static let soup = "accounts"
    private static let soql =
        "SELECT Id, Name, Industry, Phone, Website, BillingCity, BillingCountry, NumberOfEmployees, AnnualRevenue, LastModifiedDate FROM Account"
    static let logger = Logger(label: "syncrun-bench", factory: { _ in SwiftLogNoOpLogHandler() })

    func validate() throws {
        guard records >= 1 else { throw ValidationError("--records must be at least 1") }
        guard latencyMilliseconds >= 0 else { throw ValidationError("--latency-ms must not be negative") }
    }

    func run() async throws {
        let executable =
            syncrun.map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
                "syncrun"
            )
        let work = FileManager.default.temporaryDirectory
            .appendingPathComponent("syncrun-bench-sync-up-\(UUID().uuidString)", isDirectory: true)
        defer {
            if keep {
                FileHandle.standardError.write(Data("kept \(work.path)\n".utf8))
            } else {
                try? FileManager.default.removeItem(at: work)
            }
        }
        let base = Workspace(root: work.appendingPathComponent("base", isDirectory: true))
        try await makeState(in: base, executable: executable)

        var rows: [SyncUpMeasurement] = []
        var notes: [String] = []
        let variants: [(SyncUpTargetKind, SyncAPI)] =
            (collectionsOnly
            ? [(.collection, .rest), (.collection, .auto)]
            : [(.collection, .rest), (.collection, .auto), (.single, .auto)]).filter { !skipAuto || $0.1 != .auto }
        for (kind, api) in variants {
            let copy = try base.copy(to: work.appendingPathComponent("\(kind)-\(api)", isDirectory: true))
            do {
                rows.append(try await measureSyncrun(kind, api: api, in: copy, executable: executable))
            } catch let error as BenchmarkError where api == .auto && kind == .collection {
                notes.append("note: the api auto row failed: \(error)")
            }
        }
        if let baseline, !collectionsOnly {
            let copy = try base.copy(to: work.appendingPathComponent("python", isDirectory: true))
            rows.append(
                try await measureBaseline(
                    script: baseline,
                    name: "python simple-salesforce, Account.update per record",
                    in: copy,
                    executable: executable
                )
            )
        }
        if let collectionsBaseline {
            let copy = try base.copy(to: work.appendingPathComponent("python-collections", isDirectory: true))
            rows.append(
                try await measureBaseline(
                    script: collectionsBaseline,
                    name: "python collections script, PATCH 200 per call",
                    in: copy,
                    executable: executable
                )
            )
        }
        print(
            "latency \(latencyMilliseconds) ms per response; syncrun requests in flight: "
                + "\(maxRequests ?? SyncOptions.defaultMaxConcurrentRequests)"
        )
        print(SyncUpMeasurement.table(rows, records: records, operation: .update))
        for note in notes { print(note) }
        if !skipCreates {
            print("")
            print(try await measureCreates(in: work, executable: executable))
        }
    }

    // MARK: The state

    /// Seeds the org, syncs it down into the store and marks every entry updated with the new phone.
    private func makeState(in base: Workspace, executable: URL) async throws {
        try FileManager.default.createDirectory(at: base.org, withIntermediateDirectories: true)
        try SeedAccountsCommand.seed(OrgDatabase(directory: base.org), records: records)
        let store = try SoupStore.ledger(path: base.store.path)
        try await store.write { writer in
            let indexes = [
                IndexSpec(path: "Id", type: .string), IndexSpec(path: "__local__", type: .string),
                IndexSpec(path: "__sync_id__", type: .integer), IndexSpec(path: "LastModifiedDate", type: .string),
                IndexSpec(path: "Name", type: .string),
            ]
            _ = try writer.registerSoup(SoupSpec(name: Self.soup, indexes: indexes))
        }
        let down = SyncDefinition(
            name: "accountsDown",
            type: .syncDown,
            soupName: Self.soup,
            target: .down(.soql(SOQLSyncDownTarget(query: Self.soql)))
        )
        let summary = try await OrgServeProcess.withRunning(executable, data: base.org, requestLog: nil) { org in
            try await withEngine(org, store: store) { try await $0.syncDown(down) }
        }
        guard summary.status == .done, summary.saved == records else {
            throw BenchmarkError(
                "the sync down ended \(summary.status.rawValue) with \(summary.saved) of \(records) records saved"
            )
        }
        let marked = try await store.write { writer in
            try writer.markEntries(
                .updated,
                in: Self.soup,
                setting: [EntryAssignment(path: "Phone", value: .text(Self.newPhone))]
            )
        }
        guard marked == records else { throw BenchmarkError("marked \(marked) of \(records) entries updated") }
        try store.checkpoint()
    }

    // MARK: The rows

    private func measureSyncrun(_ kind: SyncUpTargetKind, api: SyncAPI, in workspace: Workspace, executable: URL)
        async throws -> SyncUpMeasurement
    {
        let name = kind == .collection ? Self.collectionRowName(api) : "syncrun syncUp, single target"
        var target = SyncUpTarget(kind: kind)
        target.api = api
        let definition = SyncDefinition(
            name: "accountsUp",
            type: .syncUp,
            soupName: Self.soup,
            target: .up(target),
            options: SyncOptions(fieldlist: Self.fields, mergeMode: .overwrite)
        )
        let store = try SoupStore.ledger(path: workspace.store.path)
        var measurement = try await timeSyncUp(
            definition,
            row: name,
            store: store,
            in: workspace,
            executable: executable
        ) { summary in
            guard summary.status == .done, summary.updated == records, summary.failed == 0, summary.conflicts == 0
            else {
                return "\(name): the sync up ended \(summary.status.rawValue) with \(summary.updated) of \(records) "
                    + "updated, \(summary.failed) failed, \(summary.conflicts) conflicts"
            }
            return nil
        }
        try verify(workspace, store: store, row: name, measurement: &measurement)
        return measurement
    }

    /// Runs `definition` against the workspace's org in its own `syncrun org serve` process and
    /// measures the sync up alone (wall, CPU, peak RSS of this process). `problem` reads the summary
    /// and says what is wrong with it, or `nil`; a problem ends the benchmark with that message.
    func timeSyncUp(
        _ definition: SyncDefinition,
        row name: String,
        store: SoupStore,
        in workspace: Workspace,
        executable: URL,
        problem: @escaping @Sendable (SyncUpSummary) -> String?
    ) async throws -> SyncUpMeasurement {
        let clock = ContinuousClock()
        return try await OrgServeProcess.withRunning(
            executable,
            data: workspace.org,
            requestLog: workspace.requestLog,
            latencyMilliseconds: latencyMilliseconds
        ) { org in
            try await withEngine(org, store: store) { engine in
                _ = ResourceUsage.resetPeakRSS()
                let cpuStart = ResourceUsage.cpuSeconds()
                let start = clock.now
                let summary = try await engine.syncUp(definition)
                let wall = clock.now - start
                let cpu = ResourceUsage.cpuSeconds() - cpuStart
                if let problem = problem(summary) {
                    throw BenchmarkError(problem + (summary.error.map { ": \($0)" } ?? ""))
                }
                return SyncUpMeasurement(
                    name: name,
                    records: records,
                    wallSeconds: wall.seconds,
                    cpuSeconds: cpu,
                    peakRSSKiB: ResourceUsage.peakRSSSinceResetKiB()
                )
            }
        }
    }

    private func measureBaseline(script: String, name: String, in workspace: Workspace, executable: URL)
        async throws -> SyncUpMeasurement
    {
        var measurement = try await runBaseline(
            script: script,
            name: name,
            fields: Self.fields,
            in: workspace,
            executable: executable
        )
        try verify(
            workspace,
            store: try SoupStore.ledger(path: workspace.store.path),
            row: name,
            measurement: &measurement
        )
        return measurement
    }

    /// Runs a Python baseline on `workspace` against its own org and checks that it sent every record.
    func runBaseline(script: String, name: String, fields: [String], in workspace: Workspace, executable: URL)
        async throws -> SyncUpMeasurement
    {
        try await OrgServeProcess.withRunning(
            executable,
            data: workspace.org,
            requestLog: workspace.requestLog,
            latencyMilliseconds: latencyMilliseconds
        ) { org in
            let report = try BaselineReport.run(
                python: python,
                arguments: [
                    script, "--url", org.url, "--token", org.accessToken, "--db", workspace.store.path,
                    "--soup", Self.soup, "--fields", fields.joined(separator: ","),
                ],
                errorLog: workspace.root.appendingPathComponent("baseline.err")
            )
            guard report.records == records, report.failed == 0 else {
                throw BenchmarkError("\(name): sent \(report.records) of \(records), \(report.failed) failed")
            }
            return SyncUpMeasurement(
                name: name,
                records: report.records,
                wallSeconds: report.wall,
                cpuSeconds: report.cpu,
                peakRSSKiB: report.maxrssKiB
            )
        }
    }

    /// Checks the outcome of a row (the org is stopped): every Account has the new phone and no
    /// entry is left `__local__`. Counts the row's write requests in the org's request log.
    private func verify(
        _ workspace: Workspace,
        store: SoupStore,
        row: String,
        measurement: inout SyncUpMeasurement
    ) throws {
        let dirty = try store.read { try $0.dirtyEntryCount(in: Self.soup) }
        let updated = try OrgDatabase(directory: workspace.org)
            .query("SELECT Id FROM Account WHERE Phone = '\(Self.newPhone)'", apiVersion: OrgEndpoint.defaultAPIVersion)
            .totalSize
        guard dirty == 0, updated == records else {
            throw BenchmarkError(
                "\(row): wrong outcome: \(updated) of \(records) Accounts have the new Phone on the org, "
                    + "\(dirty) entries are still __local__ (kept with --keep: \(workspace.root.path))"
            )
        }
        try Self.countRequests(workspace, into: &measurement)
    }

    /// Counts the row's write requests and all its requests in the org's request log.
    static func countRequests(_ workspace: Workspace, into measurement: inout SyncUpMeasurement) throws {
        let entries = try String(contentsOf: workspace.requestLog, encoding: .utf8)
            .split(separator: "\n")
            .map { try JSONDecoder().decode(RequestLogEntry.self, from: Data($0.utf8)) }
        measurement.writeRequests = entries.count(where: Self.isWrite)
        measurement.requests = entries.count
    }

    /// The name of a collection-target row: `api rest` sends sObject Collections calls of 200
    /// records whatever the count; `api auto` (the default) goes through Bulk API 2.0 ingest jobs
    /// from `bulkThreshold` (10,000) dirty records on.
    static func collectionRowName(_ api: SyncAPI) -> String {
        api == .rest
            ? "syncrun syncUp, collection target, api rest"
            : "syncrun syncUp, collection target, api auto (bulk from 10k)"
    }

    /// Whether a request changes records: PATCH and DELETE, and POST except the sObject Collections
    /// retrieve (`POST /composite/sobjects/<Type>` with ids and fields), which only reads, as the
    /// sync up's read-back of the new modification dates does.
    static func isWrite(_ entry: RequestLogEntry) -> Bool {
        switch entry.method {
        case "PATCH", "DELETE":
            return true
        case "POST":
            let path = entry.path.split(separator: "?", maxSplits: 1).first ?? ""
            guard let range = path.range(of: "/composite/sobjects/") else { return true }
            return path[range.upperBound...].contains("/")
        default:
            return false
        }
    }

    /// Runs `body` with an engine on `store` talking to `org`.
    func withEngine<T>(
        _ org: OrgServeProcess,
        store: SoupStore,
        _ body: (SyncEngine) async throws -> T
    ) async throws -> T {
        let endpoint = try OrgEndpoint(baseURL: org.url, accessToken: org.accessToken)
        return try await withRESTOrgClient(configuration: .init(endpoint: endpoint), logger: Self.logger) { client in
            var configuration = SyncEngineConfiguration()
            configuration.maxConcurrentRequests = maxRequests
            return try await body(
                SyncEngine(store: store, org: client, logger: Self.logger, configuration: configuration)
            )
        }
    }
}

/// The org directory, store file and request log of one row.
struct Workspace {
    let root: URL
    var org: URL { root.appendingPathComponent("org", isDirectory: true) }
    var store: URL { root.appendingPathComponent("store.sqlite") }
    var requestLog: URL { root.appendingPathComponent("requests.jsonl") }

    /// A copy of this workspace's org and store (both closed) at `root`.
    func copy(to root: URL) throws -> Workspace {
        try FileManager.default.copyItem(at: self.root, to: root)
        return Workspace(root: root)
    }
}

/// What the Python baseline prints as its last line.
struct BaselineReport: Decodable {
    var records: Int
    var failed: Int
    var wall: Double
    var cpu: Double
    var maxrssKiB: Int

    private enum CodingKeys: String, CodingKey {
        case records, failed, wall, cpu
        case maxrssKiB = "maxrss_kb"
    }

    /// Runs `python arguments…` to the end, its standard error going to `errorLog`, and decodes
    /// its last output line.
    static func run(python: String, arguments: [String], errorLog: URL) throws -> BaselineReport {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python] + arguments
        let output = Pipe()
        _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorLog)
        try process.run()
        // Read before waiting, so a full pipe cannot block the child.
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let last = text.split(separator: "\n").last.map(String.init) ?? ""
        guard process.terminationStatus == 0, let report = try? JSONDecoder().decode(Self.self, from: Data(last.utf8))
        else {
            let errors = (try? String(contentsOf: errorLog, encoding: .utf8)) ?? ""
            throw BenchmarkError(
                "the Python baseline exited with status \(process.terminationStatus): \(errors.suffix(800))"
            )
        }
        return report
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
