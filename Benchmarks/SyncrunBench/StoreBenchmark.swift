import ArgumentParser
import Foundation
import GRDB
import SoupStore
import SyncLedger

/// `syncrun-bench store`: the store's hot paths against SQLite's floor.
///
/// 1. Bulk upsert of `--entries` records (10 fields, 3 string indexes) three ways: `upsertPage`
///    with pages of 2,000 (one transaction per page, as sync down writes), the same pages again
///    (every record an update), and `upsert(entries:)` of one array in one transaction (import) —
///    beside the floor: the same final rows, prepared in advance, inserted with one prepared
///    statement in one transaction.
/// 2. Peak memory of exporting `--export-entries` entries, measured in a child process (its own
///    `VmHWM`) next to the peak of exporting a tenth as many: a streaming export stays flat.
struct StoreBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Bulk upsert rate vs raw prepared inserts, and peak memory of a 1M-entry export."
    )

    @Option(help: "Records for the upsert benchmark.") var entries: Int = 100_000
    @Option(help: "Entries for the export memory benchmark (0 to skip).") var exportEntries: Int = 1_000_000
    @Option(help: "Records per page for upsertPage.") var pageSize: Int = 2_000
    @Option(help: .hidden) var exportChild: String?

    private static let soup = SoupSpec(
        name: "accounts",
        indexes: [
            IndexSpec(path: "Id", type: .string), IndexSpec(path: "LastModifiedDate", type: .string),
            IndexSpec(path: "__local__", type: .string),
        ]
    )

    func run() throws {
        if let exportChild { return try Self.exportInChild(exportChild) }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("syncrun-store-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        print(
            "store benchmark: \(entries) records of 10 fields (~\(Self.record(0).utf8.count) bytes), 3 string indexes"
        )
        let pages = stride(from: 0, to: entries, by: pageSize).map { start in
            #"{"totalSize":\#(entries),"done":true,"records":["#
                + (start..<min(start + pageSize, entries)).map(Self.record).joined(separator: ",") + "]}"
        }
        let floor = try measureFloor(directory.appendingPathComponent("floor.db").path)
        print("  floor: raw prepared INSERTs, one transaction     \(Self.rate(entries, floor))")

        let store = try SoupStore.ledger(path: directory.appendingPathComponent("pages.db").path)
        try store.registerSoups([Self.soup])
        let inserts = try Self.time {
            for page in pages {
                _ = try store.write { try $0.upsertPage(page, into: "accounts", options: PageUpsertOptions(syncID: 1)) }
            }
        }
        print(
            "  upsertPage, \(pageSize)/page, new records          \(Self.rate(entries, inserts))  \(Self.ratio(inserts, floor))"
        )
        let updates = try Self.time {
            for page in pages {
                _ = try store.write {
                    try $0.upsertPage(
                        page,
                        into: "accounts",
                        options: PageUpsertOptions(localEntries: .keep, syncID: 1)
                    )
                }
            }
        }
        print(
            "  upsertPage, \(pageSize)/page, all updates          \(Self.rate(entries, updates))  \(Self.ratio(updates, floor))"
        )

        let importStore = try SoupStore.ledger(path: directory.appendingPathComponent("import.db").path)
        try importStore.registerSoups([Self.soup])
        let array = "[" + (0..<entries).map(Self.record).joined(separator: ",") + "]"
        let imported = try Self.time { _ = try importStore.write { try $0.upsert(entries: array, into: "accounts") } }
        print(
            "  upsert(entries:), one array, one transaction   \(Self.rate(entries, imported))  \(Self.ratio(imported, floor))"
        )

        guard exportEntries > 0 else { return }
        let small = max(exportEntries / 10, 1)
        for count in [small, exportEntries] {
            let path = directory.appendingPathComponent("export-\(count).db").path
            let build = try Self.time { try Self.fill(path, count: count) }
            let child = try Self.runChild(path)
            print("  export \(count) entries (store built in \(Self.seconds(build))): \(child)")
        }
        print("  (a streaming export keeps the same peak for 10x the entries)")
    }

    /// One Account-shaped record with 10 fields.
    static func record(_ number: Int) -> String {
        let id = String(format: "001%015d", number)
        let date = String(
            format: "2024-%02d-%02dT%02d:%02d:%02d.000+0000",
            1 + number % 12,
            1 + number % 28,
            number % 24,
            number % 60,
            (number / 60) % 60
        )
        return #"{"attributes":{"type":"Account","url":"/services/data/v60.0/sobjects/Account/\#(id)"},"Id":"\#(id)","#
            + #""Name":"Account number \#(number) Incorporated","Industry":"Industry \#(number % 17)","#
            + #""NumberOfEmployees":\#(number % 5000),"AnnualRevenue":\#(Double(number) * 12.5),"#
            + #""Phone":"(555) 010-\#(String(format: "%04d", number % 10000))","BillingCity":"City \#(number % 301)","#
            + #""Description":"A generated account used to measure bulk upserts of server records","#
            + #""LastModifiedDate":"\#(date)"}"#
    }

    /// The floor: the rows `upsertPage` would produce, computed beforehand, inserted raw.
    private func measureFloor(_ path: String) throws -> Duration {
        let store = try SoupStore.ledger(path: path)
        try store.registerSoups([Self.soup])
        store.checkpointQuietly()
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let rows: [(String, String, String)] = (0..<entries).map { number in
            var document = Self.record(number)
            document.removeLast()
            document +=
                #","__local__":false,"__locally_created__":false,"__locally_updated__":false,"#
                + #""__locally_deleted__":false,"__sync_id__":1,"_soupEntryId":\#(number + 1),"_soupLastModifiedDate":\#(now)}"#
            let id = String(format: "001%015d", number)
            let date = String(
                format: "2024-%02d-%02dT%02d:%02d:%02d.000+0000",
                1 + number % 12,
                1 + number % 28,
                number % 24,
                number % 60,
                (number / 60) % 60
            )
            return (document, id, date)
        }
        let queue = try DatabaseQueue(path: path)
        return try Self.time {
            try queue.inTransaction { db in
                let statement = try db.makeStatement(
                    sql:
                        "INSERT INTO TABLE_1 (id, soup, created, lastModified, TABLE_1_0, TABLE_1_1, TABLE_1_2) VALUES (?, ?, ?, ?, ?, ?, 'false')"
                )
                for (offset, row) in rows.enumerated() {
                    try statement.execute(arguments: [offset + 1, row.0, now, now, row.1, row.2])
                }
                return .commit
            }
        }
    }

    private static func fill(_ path: String, count: Int) throws {
        let store = try SoupStore.ledger(path: path)
        try store.registerSoups([soup])
        for start in stride(from: 0, to: count, by: 10_000) {
            let page = "[" + (start..<min(start + 10_000, count)).map(record).joined(separator: ",") + "]"
            _ = try store.write { try $0.upsertPage(page, into: "accounts") }
        }
        try store.checkpoint()
    }

    /// Runs this benchmark again as `--export-child PATH` and returns its report line.
    private static func runChild(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["store", "--export-child", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The child: export every entry to /dev/null as `syncrun store export` does, report peak RSS.
    private static func exportInChild(_ path: String) throws {
        let before = peakMemory()
        let store = try SoupStore.ledger(path: path)
        guard let sink = FileHandle(forWritingAtPath: "/dev/null") else { return }
        var buffer = Data()
        var count = 0
        let elapsed = try time {
            try store.read { reader in
                try reader.forEachEntry(in: "accounts") { entry in
                    buffer.append(contentsOf: entry.json.utf8)
                    buffer.append(0x0A)
                    count += 1
                    if buffer.count >= 1 << 16 {
                        sink.write(buffer)
                        buffer.removeAll(keepingCapacity: true)
                    }
                }
            }
        }
        sink.write(buffer)
        print("\(rate(count, elapsed)), peak memory (VmHWM) \(peakMemory()) (\(before) at start)")
    }

    private static func time(_ body: () throws -> Void) throws -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        try body()
        return clock.now - start
    }

    private static func seconds(_ duration: Duration) -> String {
        String(format: "%.2f s", Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }

    private static func rate(_ count: Int, _ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return String(format: "%9.0f entries/s (%.2f s)", Double(count) / max(seconds, 1e-9), seconds)
    }

    private static func ratio(_ duration: Duration, _ floor: Duration) -> String {
        String(format: "%.2fx the floor's time", (duration / floor))
    }

    private static func peakMemory() -> String {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return "unavailable" }
        return line.dropFirst("VmHWM:".count).trimmingCharacters(in: .whitespaces)
    }
}

extension SoupStore {
    fileprivate func checkpointQuietly() { try? checkpoint() }
}
