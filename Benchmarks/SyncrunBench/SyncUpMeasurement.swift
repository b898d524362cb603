import Foundation

/// One row of the sync-up benchmark: a client that sent N local updates to the org.
struct SyncUpMeasurement: Sendable {
    /// What ran.
    var name: String
    /// Records synced up.
    var records: Int
    /// Wall time of the sync up alone (no start-up, no preparation).
    var wallSeconds: Double
    /// The client process's CPU time (user + system) over the same span; the org is another process.
    var cpuSeconds: Double
    /// The client process's peak resident memory over the same span.
    var peakRSSKiB: Int
    /// Requests that change records in the org's request log (``SyncUpBenchmark/isWrite(_:)``).
    var writeRequests = 0
    /// All requests in the org's request log.
    var requests = 0

    var recordsPerSecond: Double { wallSeconds > 0 ? Double(records) / wallSeconds : 0 }

    /// What the rows sent.
    enum Operation {
        /// Accounts updated locally (a new `Phone`), fields `[Name, Phone]`.
        case update
        /// Accounts created locally (local ids), 8 fields.
        case create
    }

    /// The rows as an aligned text table, with each row's speed relative to the last row whose
    /// name starts with `python` (the baseline), when there is one.
    static func table(_ rows: [SyncUpMeasurement], records: Int, operation: Operation = .update) -> String {
        let baseline = rows.last(where: { $0.name.hasPrefix("python") })
        let headers = [
            "row", "records", "wall s", "records/s", "CPU us/rec", "write requests", "all requests", "peak MB",
            "vs python",
        ]
        let lines = rows.map { row in
            [
                row.name, "\(row.records)", String(format: "%.2f", row.wallSeconds),
                String(format: "%.0f", row.recordsPerSecond),
                String(format: "%.1f", row.cpuSeconds / Double(max(row.records, 1)) * 1e6),
                "\(row.writeRequests)", "\(row.requests)", String(format: "%.0f", Double(row.peakRSSKiB) / 1024),
                baseline.map { String(format: "%.2fx", $0.wallSeconds / row.wallSeconds) } ?? "-",
            ]
        }
        let widths = headers.indices.map { column in
            ([headers[column]] + lines.map { $0[column] }).map(\.count).max() ?? 0
        }
        func render(_ cells: [String]) -> String {
            zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                .joined(separator: " | ")
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "-+-")
        let what =
            switch operation {
            case .update: "\(records) Accounts updated locally (Phone), fields [Name, Phone]"
            case .create: "\(records) Accounts created locally (local ids), 8 fields, org without Accounts"
            }
        let title = """
            sync-up benchmark: \(what), mergeMode OVERWRITE, org = 'syncrun org serve' in its own process \
            on loopback HTTP; wall, CPU (user + system) and \
            peak RSS are the client process's own, over the sync up alone; requests are counted in the org's \
            request log (write = POST/PATCH/DELETE but the collection retrieves that read back LastModifiedDate); \
            'vs python' = wall of the last python row / row wall
            """
        return ([title, render(headers), rule] + lines.map(render)).joined(separator: "\n")
    }
}
