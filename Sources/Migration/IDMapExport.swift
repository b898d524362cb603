import Foundation
import JSONCore

/// Writes the id map of a pair as CSV: a header line `sobject,source_org,target_org,source_id,target_id`,
/// then one line per record, RFC 4180 quoting (fields with a comma, quote or line break are quoted,
/// quotes doubled), CRLF line ends. Streamed page by page.
public enum IDMapExport {
    public static let header = ["sobject", "source_org", "target_org", "source_id", "target_id"]

    /// Writes the CSV to `path`; returns the number of records.
    @discardableResult
    public static func write(_ books: MigrationBooks, toFile path: String) throws -> Int {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw MigrationError(.failed, "cannot create the id map file '\(path)'")
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw MigrationError(.failed, "cannot open the id map file '\(path)' for writing")
        }
        defer { try? handle.close() }
        try handle.write(contentsOf: Data(line(header).utf8))
        var count = 0
        var after: (String, String)?
        while true {
            let rows = try books.idMapPage(after: after, limit: 1000)
            guard let last = rows.last else { break }
            after = (last.sobject, last.sourceID)
            var text = ""
            for row in rows {
                text += line([
                    row.sobject, books.pair.sourceOrgID, books.pair.targetOrgID, row.sourceID, row.targetID,
                ])
            }
            try handle.write(contentsOf: Data(text.utf8))
            count += rows.count
        }
        return count
    }

    /// One CSV line (RFC 4180: quoted only when needed), CRLF-terminated.
    public static func line(_ fields: [String]) -> String {
        CSVWriter.line(fields, quoting: .whenNeeded)
    }
}
