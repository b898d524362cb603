import JSONCore
import OrgClient

/// Bulk API 2.0 results: the RFC 4180 reader fed in two chunks (the split moves with the input, so
/// quotes, CRLFs and multi-byte characters land on chunk boundaries), then the shaper that turns
/// the rows into REST-shaped records, typed by column, nested on dotted relationship columns. The
/// shaper's output must be valid JSON whatever the cells hold, and the page shaped a few records at a
/// time must give the same records in the same order: an invalid document or a difference is a
/// finding.
enum BulkCSVTarget {
    private static let kinds: [BulkRecordShaper.ValueKind] = [.text, .number, .boolean, .datetime]

    static func run(_ bytes: [UInt8]) async {
        let split = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
        var parser = CSVParser()
        _ = try? parser.feed(bytes[..<split])
        _ = try? parser.feed(bytes[split...])
        _ = try? parser.finish()

        let csv = String(decoding: bytes, as: UTF8.self)
        guard let header = try? BulkRecordShaper.header(of: csv), !header.isEmpty, header.count <= 64 else { return }
        var kinds: [String: BulkRecordShaper.ValueKind] = [:]
        var relationships: Set<String> = []
        for (index, column) in header.enumerated() {
            kinds[column] = Self.kinds[index % Self.kinds.count]
            let parts = column.split(separator: ".", omittingEmptySubsequences: false)
            for length in 1..<max(1, parts.count) {
                relationships.insert(parts.prefix(length).joined(separator: "."))
            }
        }
        guard
            let shaper = try? BulkRecordShaper(
                header: header,
                objectType: "Account",
                apiVersion: "62.0",
                kinds: kinds,
                relationships: relationships.sorted().map {
                    BulkRecordShaper.Relationship(path: $0, objectType: "Parent")
                }
            ),
            let shaped = try? shaper.jsonArray(csv: csv)
        else { return }
        var text = shaped.json
        let valid = text.withUTF8 { buffer in
            var reader = JSONReader(bytes: buffer)
            return (try? reader.validateDocument()) != nil
        }
        precondition(valid, "the Bulk shaper wrote invalid JSON")
        // Shaped a few records at a time (as a sync down writes a results page), the arrays hold
        // the same records in the same order: the CSV slices and the array boundaries move nothing.
        var chunks = shaper.arrayChunks(csv: csv, recordsPerArray: 3)
        var members: [Substring] = []
        var records = 0
        while let chunk = try? chunks.next() {
            precondition(chunk.count <= 3, "a chunk holds more records than asked")
            records += chunk.count
            members.append(chunk.json.dropFirst().dropLast())
        }
        precondition(records == shaped.count, "the chunks hold \(records) records, the page \(shaped.count)")
        precondition("[" + members.joined(separator: ",") + "]" == shaped.json, "the chunks differ from the page")
    }
}
