import ArgumentParser
import AsyncHTTPClient
import Foundation
import LocalOrg
import NIOCore
import NIOHTTP1

/// Measures the local org over real HTTP on loopback: query paging throughput (records/second
/// through `nextRecordsUrl`, 2,000 per page), sObject Collections write throughput (200 records
/// per call), and the process's peak memory while paging at two sizes, to show it stays flat as the
/// object grows.
///
/// The server and the client share this process, so the client's cost (reading every byte of every
/// page) is included; the peak memory is that of both.
struct OrgBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "org",
        abstract: "Local org: query paging and collection write throughput, peak memory at two sizes."
    )

    @Option(help: "Accounts (10 fields each) to page through at the large size; the small size is a tenth.")
    var records = 100_000

    @Option(help: "Accounts written through sObject Collections, 200 per call.")
    var writeRecords = 20_000

    /// The page size the server uses (the real API's maximum).
    private static let pageSize = 2000
    /// The ten fields of every query.
    private static let soql =
        "SELECT Id, Name, AccountNumber, Industry, Phone, Website, BillingCity, BillingState, NumberOfEmployees, AnnualRevenue FROM Account"

    func validate() throws {
        guard records >= 10 else { throw ValidationError("--records must be at least 10") }
        guard writeRecords >= 200 else { throw ValidationError("--write-records must be at least 200") }
    }

    func run() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("syncrun-bench-org-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try OrgDatabase(directory: directory)
        let server = try LocalOrgServer(configuration: LocalOrgConfiguration(), database: database)
        let small = records / 10
        let clock = ContinuousClock()

        print("org benchmark: \(records) Accounts x 10 fields, pages of \(Self.pageSize), loopback HTTP")
        let seedStart = clock.now
        try seed(database, from: 0, to: small)
        let seedSmall = clock.now - seedStart

        try await server.withRunningServer { endpoint in
            let client = BenchmarkClient(endpoint: endpoint)
            PeakMemory.reset()
            let smallRun = try await client.pageThrough(Self.soql)
            let smallPeak = PeakMemory.peak()

            let moreStart = clock.now
            try seed(database, from: small, to: records)
            let seedTime = seedSmall + (clock.now - moreStart)
            PeakMemory.reset()
            let largeRun = try await client.pageThrough(Self.soql)
            let largePeak = PeakMemory.peak()

            let writeRun = try await client.writeCollections(writeRecords)

            print("  seed (OrgDatabase writer, one transaction)  \(rate(records, seedTime)) records/s")
            print("  query paging, \(small) records   \(smallRun.formatted)   peak RSS \(smallPeak)")
            print("  query paging, \(records) records  \(largeRun.formatted)   peak RSS \(largePeak)")
            print("  collections create, \(writeRecords) records  \(writeRun.formatted)")
            print("  baseline: serve at least as fast as syncrun stores (performance-notes.md: SQLite floor")
            print("            400,000 records/s for plain inserts, 180,000 records/s with JSON1 splitting);")
            print("            peak RSS while paging should not grow with the object (flat from 10% to 100%).")
        }
    }

    private func seed(_ database: OrgDatabase, from start: Int, to end: Int) throws {
        let industries: [OrgJSONValue] = ["Banking", "Energy", "Retail", "Technology"]
        try database.write { writer in
            for index in start..<end {
                try writer.create(
                    "Account",
                    fields: [
                        "Name": .string("Account \(index)"),
                        "AccountNumber": .string("AC-\(index)"),
                        "Industry": industries[index % industries.count],
                        "Phone": "+1 415 555 0100",
                        "Website": .string("https://example.com/\(index)"),
                        "BillingCity": "San Francisco",
                        "BillingState": "CA",
                        "NumberOfEmployees": .integer(Int64(index % 5000)),
                        "AnnualRevenue": .double(Double(index) * 10.5),
                    ]
                )
            }
        }
    }
}

/// One measured run: records, bytes, time.
private struct Measurement {
    var records: Int
    var bytes: Int
    var calls: Int
    var time: Duration

    var formatted: String {
        let seconds = Double(time.components.seconds) + Double(time.components.attoseconds) / 1e18
        return
            "\(rate(records, time)) records/s  (\(calls) calls, \(bytes / 1_048_576) MB, \(String(format: "%.2f", seconds)) s)"
    }
}

private func rate(_ count: Int, _ time: Duration) -> String {
    let seconds = Double(time.components.seconds) + Double(time.components.attoseconds) / 1e18
    return String(format: "%10.0f", seconds > 0 ? Double(count) / seconds : 0)
}

/// The HTTP side of the benchmark.
private struct BenchmarkClient {
    let endpoint: LocalOrgEndpoint
    let client = HTTPClient.shared

    func pageThrough(_ soql: String) async throws -> Measurement {
        let clock = ContinuousClock()
        let start = clock.now
        let query = soql.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? soql
        var path: String? = "/services/data/v59.0/query?q=\(query)"
        var total = 0
        var bytes = 0
        var calls = 0
        while let next = path {
            let body = try await send(.GET, next, body: nil)
            calls += 1
            bytes += body.count
            // The head holds totalSize and nextRecordsUrl; reading it avoids parsing the records.
            let head = String(decoding: body.prefix(400), as: UTF8.self)
            if calls == 1 { total = Self.integer(after: "\"totalSize\":", in: head) ?? 0 }
            path = Self.string(after: "\"nextRecordsUrl\":\"", in: head)
        }
        return Measurement(records: total, bytes: bytes, calls: calls, time: clock.now - start)
    }

    func writeCollections(_ count: Int) async throws -> Measurement {
        let clock = ContinuousClock()
        let start = clock.now
        var bytes = 0
        var calls = 0
        for batch in stride(from: 0, to: count, by: 200) {
            let records = (batch..<min(batch + 200, count)).map { index -> OrgJSONValue in
                [
                    "attributes": ["type": "Account"], "Name": .string("Written \(index)"), "Industry": "Energy",
                    "Phone": "+1 415 555 0101", "BillingCity": "Oakland", "NumberOfEmployees": .integer(Int64(index)),
                ]
            }
            let body = OrgJSONValue.object(["allOrNone": false, "records": .array(records)]).encoded()
            bytes += try await send(.POST, "/services/data/v59.0/composite/sobjects", body: body).count
            calls += 1
        }
        return Measurement(records: count, bytes: bytes, calls: calls, time: clock.now - start)
    }

    private func send(_ method: HTTPMethod, _ path: String, body: Data?) async throws -> Data {
        var request = HTTPClientRequest(url: endpoint.baseURL.absoluteString + path)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(endpoint.accessToken)")
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await client.execute(request, timeout: .seconds(120))
        let buffer = try await response.body.collect(upTo: 256 << 20)
        guard response.status.code < 300 else {
            throw ValidationError("\(method) \(path) answered \(response.status.code): \(String(buffer: buffer))")
        }
        return Data(buffer.readableBytesView)
    }

    private static func integer(after marker: String, in text: String) -> Int? {
        guard let range = text.range(of: marker) else { return nil }
        return Int(text[range.upperBound...].prefix { $0.isNumber })
    }

    private static func string(after marker: String, in text: String) -> String? {
        guard let range = text.range(of: marker) else { return nil }
        return String(text[range.upperBound...].prefix { $0 != "\"" })
    }
}

/// Peak resident memory since the last reset (Linux `VmHWM`, reset through `/proc/self/clear_refs`).
private enum PeakMemory {
    /// Resets the peak to the current resident size (no effect where unsupported).
    static func reset() {
        try? Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
    }

    /// The peak since the last ``reset()`` (or process start).
    static func peak() -> String {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return "unavailable (no /proc/self/status)" }
        return line.dropFirst("VmHWM:".count).trimmingCharacters(in: .whitespaces)
    }
}
