import Foundation
import JSONCore

/// Bulk API 2.0's CSV as the local org writes it: every non-null value and every header quoted,
/// nulls as empty unquoted fields, the delimiter and line ending the job names (the package's one
/// CSV writer, `JSONCore.CSVWriter`).
typealias BulkCSVWriter = CSVWriter

/// Reads RFC 4180 CSV uploaded to an ingest job: quoted fields with doubled quotes, embedded
/// delimiters and line breaks, CRLF or LF records.
enum BulkCSVReader {
    /// The records of `data`; the first is the header.
    /// - Throws: ``OrgError`` when a quoted field is not closed.
    static func records(_ data: Data, delimiter: UInt8) throws -> [[String]] {
        var records: [[String]] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var inQuotes = false
        var index = data.startIndex
        var fieldStarted = false
        func endField() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            fieldStarted = false
        }
        while index < data.endIndex {
            let byte = data[index]
            if inQuotes {
                if byte == UInt8(ascii: "\"") {
                    let next = data.index(after: index)
                    if next < data.endIndex, data[next] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index = next
                    } else {
                        inQuotes = false
                    }
                } else {
                    field.append(byte)
                }
            } else if byte == UInt8(ascii: "\""), field.isEmpty {
                inQuotes = true
                fieldStarted = true
            } else if byte == delimiter {
                endField()
                fieldStarted = true
            } else if byte == 0x0A || byte == 0x0D {
                if byte == 0x0D {
                    let next = data.index(after: index)
                    if next < data.endIndex, data[next] == 0x0A { index = next }
                }
                endField()
                records.append(fields)
                fields.removeAll()
            } else {
                field.append(byte)
                fieldStarted = true
            }
            index = data.index(after: index)
        }
        if inQuotes { throw OrgError.invalidBody("The CSV data ends inside a quoted field") }
        if fieldStarted || !field.isEmpty || !fields.isEmpty {
            endField()
            records.append(fields)
        }
        return records
    }
}
