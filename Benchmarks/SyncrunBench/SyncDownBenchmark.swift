import ArgumentParser
import AsyncHTTPClient
import Foundation
import GRDB
import LocalOrg
import NIOCore
import SoupStore
import SyncLedger

/// `syncrun-bench floor`: the floor of a sync down. Fetches every page from a query server (the
/// page server) and inserts it with ONE SQLite statement per page, one transaction per page,
/// letting SQLite's JSON functions split the page and extract the index columns. Nothing else.
///
/// ```sh
/// syncrun-bench floor --url http://127.0.0.1:PORT --token T --store /tmp/floor.sqlite
/// ```
///
/// With `--soup-shape` the pages go, by the same one statement per page, into the table layout a
/// sync down must write: a SmartStore soup registered by `SoupStore` with the benchmark's index
/// specs (`Id`, `__local__`, `__sync_id__`, `LastModifiedDate`, `Name`: one column and one SQL
/// index each, plus the `created` and `lastModified` indexes), and each record's id in
/// `syncrun_record_syncs`. That is the structural floor: what SQLite alone costs to store the
/// pages where syncrun must put them, with no per-record work outside SQLite. SQLite's default
/// pragmas (WAL, as every store) and page cache.
///
/// `--indexes-after` (with `--soup-shape`, a reference row) drops the soup's SQL indexes before the
/// first page and creates them again after the last one, in the same process and clock.
///
/// Prints one JSON line: records, pages, bytes, wall seconds, CPU seconds, peak RSS (KiB).
struct FloorBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "floor",
        abstract: "Sync-down floor: fetch every page, insert it with one json_each statement per page."
    )

    @Option(help: "The server's base URL, http://127.0.0.1:PORT.") var url: String
    @Option(help: "The Bearer token.") var token = "page-server-token"
    @Option(help: "The SQLite file to create (replaced if it exists).") var store: String
    @Flag(help: "Insert into a SmartStore soup with the benchmark's indexes and the record-syncs table.")
    var soupShape = false
    @Flag(help: "With --soup-shape: create the soup's SQL indexes after the last page, not before the first.")
    var indexesAfter = false
    @Option(help: "The query sent as q=.")
    var soql =
        "SELECT Id, Name, Industry, Phone, Website, BillingCity, BillingCountry, NumberOfEmployees, AnnualRevenue, LastModifiedDate FROM Account"

    func run() async throws {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) }
        let insert: String
        if soupShape {
            insert = try Self.prepareSoup(at: store)
        } else {
            insert = """
                INSERT INTO t(id, lmd, doc) SELECT json_extract(value, '$.Id'), \
                json_extract(value, '$.LastModifiedDate'), value FROM json_each(?, '$.records')
                """
        }
        let queue = try DatabaseQueue(path: store)
        try await queue.write { db in
            try db.execute(sql: "PRAGMA journal_mode=WAL")
            if !soupShape { try db.execute(sql: "CREATE TABLE t(id TEXT, lmd TEXT, doc TEXT)") }
        }
        let clock = ContinuousClock()
        let start = clock.now
        let cpuStart = ResourceUsage.cpuSeconds()
        let deferred = soupShape && indexesAfter ? try await Self.dropSoupIndexes(queue) : []
        let query = soql.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? soql
        var path: String? = "/services/data/v62.0/query?q=\(query)"
        var records = 0
        var pages = 0
        var bytes = 0
        while let next = path {
            var request = HTTPClientRequest(url: url + next)
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
            guard response.status == .ok else {
                throw ValidationError("GET \(next) answered \(response.status.code)")
            }
            let body = try await response.body.collect(upTo: 1 << 30)
            let text = String(buffer: body)
            pages += 1
            bytes += body.readableBytes
            path = Self.nextRecordsURL(in: text)
            records += try await queue.write { db in
                try db.execute(sql: insert, arguments: [text])
                let saved = db.changesCount
                if soupShape {
                    try db.execute(
                        sql: """
                            INSERT OR IGNORE INTO syncrun_record_syncs (soup_name, record_id, sync_id) \
                            SELECT 'accounts', json_extract(value, '$.Id'), 1 FROM json_each(?, '$.records')
                            """,
                        arguments: [text]
                    )
                }
                return saved
            }
        }
        if !deferred.isEmpty {
            try await queue.write { db in
                for statement in deferred { try db.execute(sql: statement) }
            }
        }
        let wall = clock.now - start
        let cpu = ResourceUsage.cpuSeconds() - cpuStart
        let seconds = Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18
        print(
            "{\"records\": \(records), \"pages\": \(pages), \"bytes\": \(bytes), \"wall\": \(seconds), "
                + "\"cpu\": \(cpu), \"maxrss_kb\": \(ResourceUsage.peakRSSKiB())}"
        )
    }

    /// Registers soup `accounts` (the sync-down benchmark's index specs) through `SoupStore` and
    /// the record-syncs table; returns the one-statement-per-page insert into that layout.
    static func prepareSoup(at path: String) throws -> String {
        let store = try SoupStore.ledger(path: path)
        let spec = SoupSpec(
            name: "accounts",
            indexes: [
                IndexSpec(path: "Id", type: .string), IndexSpec(path: "__local__", type: .string),
                IndexSpec(path: "__sync_id__", type: .integer), IndexSpec(path: "LastModifiedDate", type: .string),
                IndexSpec(path: "Name", type: .string),
            ]
        )
        try store.write { writer in _ = try writer.registerSoup(spec) }
        let queue = try DatabaseQueue(path: path)
        return try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS syncrun_record_syncs (soup_name TEXT NOT NULL, record_id TEXT NOT NULL, \
                    sync_id INTEGER NOT NULL, PRIMARY KEY (soup_name, record_id, sync_id)) WITHOUT ROWID;
                    CREATE INDEX IF NOT EXISTS syncrun_record_syncs_by_sync ON syncrun_record_syncs (sync_id, soup_name);
                    """
            )
            let table =
                try String.fetchOne(
                    db,
                    sql: "SELECT 'TABLE_' || id FROM soup_attrs WHERE soupName = 'accounts'"
                ) ?? "TABLE_1"
            var names = ["soup", "created", "lastModified"]
            var values = ["value", "1767225600000", "1767225600000"]
            for row in try Row.fetchAll(
                db,
                sql: "SELECT path, columnName FROM soup_index_map WHERE soupName = 'accounts'"
            ) {
                let path: String = row["path"]
                names.append(row["columnName"])
                switch path {
                case "__local__": values.append("'false'")
                case "__sync_id__": values.append("1")
                default: values.append("json_extract(value, '$.\(path)')")
                }
            }
            return "INSERT INTO \(table) (\(names.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) "
                + "FROM json_each(?, '$.records')"
        }
    }

    /// Drops the SQL indexes of soup `accounts`' table; returns the statements that create them.
    static func dropSoupIndexes(_ queue: DatabaseQueue) async throws -> [String] {
        try await queue.write { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name = \
                    (SELECT 'TABLE_' || id FROM soup_attrs WHERE soupName = 'accounts')
                    """
            )
            var statements: [String] = []
            for row in rows {
                let name: String = row["name"]
                statements.append(row["sql"])
                try db.execute(sql: "DROP INDEX \(name)")
            }
            return statements
        }
    }

    /// The `nextRecordsUrl` of a page, read from its head (the page server writes it before the records).
    static func nextRecordsURL(in text: String) -> String? {
        let head = text.utf8.prefix(400)
        let key = Array("\"nextRecordsUrl\":\"".utf8)
        let bytes = Array(head)
        guard bytes.count >= key.count else { return nil }
        for index in 0...(bytes.count - key.count) where bytes[index..<index + key.count].elementsEqual(key) {
            let valueStart = index + key.count
            guard let end = bytes[valueStart...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
            return String(decoding: bytes[valueStart..<end], as: UTF8.self)
        }
        return nil
    }
}

/// `syncrun-bench seed-accounts`: writes N Account records (the page server's shape) straight
/// into a local org's data directory, in one transaction; much faster than a data-tree file.
struct SeedAccountsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed-accounts",
        abstract: "Seed N Account records (10 fields) into a local org data directory (sync-down benchmark)."
    )

    @Option(help: "The local org's data directory (created if missing).") var data: String
    @Option(help: "Records to create.") var records = 100_000

    func run() async throws {
        let database = try OrgDatabase(directory: URL(fileURLWithPath: data, isDirectory: true))
        let clock = ContinuousClock()
        let start = clock.now
        try Self.seed(database, records: records)
        let wall = clock.now - start
        let seconds = Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18
        print("{\"records\": \(records), \"wall\": \(seconds)}")
    }

    /// Writes `records` Accounts (the page server's shape) into `database`, in one transaction.
    static func seed(_ database: OrgDatabase, records: Int) throws {
        let industries: [OrgJSONValue] = ["Technology", "Banking", "Energy", "Retail", "Healthcare", "Manufacturing"]
        let places: [(OrgJSONValue, OrgJSONValue)] = [
            ("San Francisco", "United States"), ("London", "United Kingdom"), ("Paris", "France"),
            ("Berlin", "Germany"), ("Tokyo", "Japan"), ("Sydney", "Australia"),
        ]
        try database.write { writer in
            for index in 0..<records {
                let number = String(format: "%06d", index)
                let place = places[index % places.count]
                try writer.create(
                    "Account",
                    fields: [
                        "Name": .string("Account \(number) Holdings International"),
                        "Industry": industries[index % industries.count],
                        "Phone": .string("+1 (415) 555-\(number.suffix(4))"),
                        "Website": .string("https://www.account-\(number).example.com"),
                        "BillingCity": place.0,
                        "BillingCountry": place.1,
                        "NumberOfEmployees": .integer(Int64(index % 50_000 + 10)),
                        "AnnualRevenue": .double(Double(index % 1000 * 12_345 + 1_000_000) + 0.5),
                    ]
                )
            }
        }
    }
}

/// This process's CPU time and peak memory.
enum ResourceUsage {
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
            + Double(usage.ru_stime.tv_usec) / 1e6
    }

    static func peakRSSKiB() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_maxrss)
    }

    /// Resets the peak resident size to the current one (Linux `/proc/self/clear_refs`), so that
    /// ``peakRSSSinceResetKiB()`` measures one phase of a run; returns `false` where unsupported.
    static func resetPeakRSS() -> Bool {
        (try? Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))) != nil
    }

    /// The peak resident size since the last ``resetPeakRSS()`` (`VmHWM`), or the process's
    /// lifetime peak where `/proc` is unavailable.
    static func peakRSSSinceResetKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kib = Int(line.dropFirst("VmHWM:".count).filter(\.isNumber))
        else { return peakRSSKiB() }
        return kib
    }
}
