import ArgumentParser
import AsyncHTTPClient
import Foundation
import GRDB
import LocalOrg
import NIOCore

/// `syncrun-bench floor`: the floor of a sync down. Fetches every page from a query server (the
/// page server) and inserts it with ONE SQLite statement per page, one transaction per page,
/// letting SQLite's JSON functions split the page and extract the index columns. Nothing else.
///
/// ```sh
/// syncrun-bench floor --url http://127.0.0.1:PORT --token T --store /tmp/floor.sqlite
/// ```
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
    @Option(help: "The query sent as q=.")
    var soql =
        "SELECT Id, Name, Industry, Phone, Website, BillingCity, BillingCountry, NumberOfEmployees, AnnualRevenue, LastModifiedDate FROM Account"

    func run() async throws {
        try? FileManager.default.removeItem(atPath: store)
        let queue = try DatabaseQueue(path: store)
        try await queue.write { db in
            try db.execute(sql: "PRAGMA journal_mode=WAL")
            try db.execute(sql: "CREATE TABLE t(id TEXT, lmd TEXT, doc TEXT)")
        }
        let clock = ContinuousClock()
        let start = clock.now
        let cpuStart = ResourceUsage.cpuSeconds()
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
                try db.execute(
                    sql: """
                        INSERT INTO t(id, lmd, doc) SELECT json_extract(value, '$.Id'), \
                        json_extract(value, '$.LastModifiedDate'), value FROM json_each(?, '$.records')
                        """,
                    arguments: [text])
                return db.changesCount
            }
        }
        let wall = clock.now - start
        let cpu = ResourceUsage.cpuSeconds() - cpuStart
        let seconds = Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18
        print(
            "{\"records\": \(records), \"pages\": \(pages), \"bytes\": \(bytes), \"wall\": \(seconds), "
                + "\"cpu\": \(cpu), \"maxrss_kb\": \(ResourceUsage.peakRSSKiB())}")
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
                    ])
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
