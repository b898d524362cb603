import Foundation
import OrgAccess

/// The reading of the `sf` CLI's JSON output: the first byte picks the exit status (0, 1 or 127),
/// the rest up to the first NUL byte is standard output and what follows standard error.
enum SalesforceCLITarget {
    static func run(_ bytes: [UInt8]) async {
        guard let first = bytes.first else { return }
        let statuses: [Int32] = [0, 1, 127]
        let status = statuses[Int(first) % statuses.count]
        let rest = bytes.dropFirst()
        let split = rest.firstIndex(of: 0) ?? rest.endIndex
        let stdout = Data(rest[rest.startIndex..<split])
        let stderr = split < rest.endIndex ? Data(rest[(split + 1)...]) : Data()
        _ = SalesforceCLI.readings(stdout: stdout, stderr: stderr, status: status)
    }
}
