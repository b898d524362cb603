import Crypto
import FileSchema
import Foundation
import JSONCore
import OrgClient

/// A `dir:` set: the records of a migration as files on disk, one CSV file per migrated object
/// (`PATH/{Object}.csv`), written by `migrate --to dir:PATH` and read by `migrate --from dir:PATH`.
///
/// Each file is RFC 4180 CSV in UTF-8 with CRLF line ends (``JSONCore/CSVWriter``, every value
/// quoted, a null as an empty unquoted field, so `""` and null stay apart). Its header is `Id` (the
/// source record's id), then the fields the sync up writes, then the relationship paths its
/// `matchFields` name (`Account.Name`). A lookup holds the source id of the record it points at,
/// so the set is self-contained. Rows are ordered by `Id`: the same records give the same bytes.
/// Files are written whole to a private temporary file (0600) and renamed over the old one; a file
/// whose bytes would not change is not written. The folder is created 0700.
public struct DirectorySet: Sendable {
    /// The folder, absolute.
    public let path: String

    /// The id map beside the set: `sobject,source_org,target_org,source_id,target_id`
    /// (``IDMapExport``'s columns), one row per record, the source org's id in `source_org`, the
    /// set's id (``orgID``) in `target_org`; a set's `Id` is the source id, so both ids are equal.
    public static let idMapFileName = "syncrun-id-map.csv"

    /// The set at `path` (relative paths are resolved against the working directory).
    public init(path: String) {
        self.path = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// What stands for an org id in the pair of a migration from or to the set (its journal and
    /// staging store names): `dir-` and 11 hexadecimal digits of the SHA-256 of the folder's path.
    public var orgID: String {
        let digest = SHA256.hash(data: Data(path.utf8))
        return "dir-" + HexText.lowercase(digest).prefix(11)
    }

    /// The file of `sobject`.
    public func file(of sobject: String) -> String {
        URL(fileURLWithPath: path).appendingPathComponent("\(sobject).csv").path
    }

    // MARK: Writing

    /// `rows` in a set's order: by their first column (the id), compared as text.
    public static func ordered(_ rows: [[String?]]) -> [[String?]] {
        rows.sorted { id(of: $0) < id(of: $1) }
    }

    /// A row's id: its first column.
    static func id(of row: [String?]) -> String {
        guard let first = row.first, let id = first else { return "" }
        return id
    }

    /// The bytes of a file: `header`, then `rows` (each as long as the header) in the given order.
    public static func csv(header: [String], rows: [[String?]]) -> Data {
        var writer = CSVWriter()
        writer.appendRow(header)
        for row in rows { writer.appendRow(row) }
        return writer.data
    }

    /// Writes `data` to the file `name` of the set unless it holds those bytes already: a private
    /// temporary file beside it, flushed, then renamed over it. Creates the folder (0700).
    ///
    /// - Returns: Whether the file was written (false: it was the same).
    /// - Throws: ``MigrationError`` (failed) naming the file and the system's reason.
    @discardableResult
    public func write(_ data: Data, toFileNamed name: String) throws -> Bool {
        try Self.checkName(name)
        let destination = URL(fileURLWithPath: path).appendingPathComponent(name).path
        if FileManager.default.contents(atPath: destination) == data { return false }
        let temporary = URL(fileURLWithPath: path).appendingPathComponent(".\(name).\(getpid()).tmp").path
        func failure(_ file: String, _ reason: String) -> MigrationError {
            try? FileManager.default.removeItem(atPath: temporary)
            return MigrationError(
                .failed,
                "cannot write the dir: set's file '\(file)': \(reason); nothing of that file was changed. Check "
                    + "the folder's permissions and free space, then run again"
            )
        }
        do {
            try PrivateFiles.createDirectory(atPath: path)
            try? FileManager.default.removeItem(atPath: temporary)
            try PrivateFiles.createFile(atPath: temporary)
        } catch let error as PrivateFiles.Failure {
            throw failure(error.path, error.reason)
        }
        guard let handle = FileHandle(forWritingAtPath: temporary) else {
            throw failure(temporary, "cannot open it for writing")
        }
        do {
            try handle.write(contentsOf: data)
            try handle.synchronize()
            try handle.close()
        } catch {
            try? handle.close()
            throw failure(temporary, error.localizedDescription)
        }
        guard rename(temporary, destination) == 0 else {
            throw failure(destination, "cannot replace it: \(String(cString: strerror(errno)))")
        }
        return true
    }

    /// A value as a set holds it: `nil` for null (or absent), text as it is, numbers as JSON
    /// writes them, booleans `true`/`false`.
    public static func text(_ value: OrgValue?) -> String? {
        switch value {
        case nil, .null?: nil
        case .string(let text)?: text
        case .bool(let flag)?: flag ? "true" : "false"
        case .integer?, .number?, .array?, .object?: value?.jsonText
        }
    }

    /// Refuses a file name that is not a plain name of the folder: the object names come from an
    /// org's describe, and a set's files stay inside its folder whatever an org answers.
    static func checkName(_ name: String) throws {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.")
        guard let first = name.first, first != ".", name.allSatisfy({ allowed.contains($0) }) else {
            throw MigrationError(
                .refused,
                "'\(JSONWriter.terminalSafe(name))' cannot name a file of a dir: set (letters, digits, '_', '-' and "
                    + "'.' only, not first); nothing was written"
            )
        }
    }

    // MARK: Reading

    /// One file of a set, read: its header and rows, each with the line it starts on.
    public struct Table: Sendable {
        /// The file.
        public var file: String
        /// The column names.
        public var header: [String]
        /// The rows (as long as the header): `nil` for an empty unquoted field (null).
        public var rows: [(line: Int, values: [String?])]
    }

    /// Reads the file of `sobject`, or, when the folder has none, its records in the folder's
    /// data-tree plan (``readPlan(_:)``).
    ///
    /// - Throws: ``MigrationError`` (refused): the file is missing (naming it and the object), not
    ///   UTF-8, malformed CSV or a row with another number of fields than the header (`file:line`).
    public func read(_ sobject: String, syncUp: String?) throws -> Table {
        try Self.checkName("\(sobject).csv")
        let file = file(of: sobject)
        guard let data = FileManager.default.contents(atPath: file) else {
            if let table = try readPlan(sobject) { return table }
            throw MigrationError(
                .refused,
                "the dir: set '\(path)' has no file \(sobject).csv (expected '\(file)') and no data-tree plan "
                    + "(*plan.json) naming \(sobject), and the config migrates "
                    + "\(sobject)" + (syncUp.map { " (sync up '\($0)')" } ?? "")
                    + "; nothing was written. Write the set with migrate --to dir:\(path), or leave \(sobject) out "
                    + "with --only"
            )
        }
        return try Self.table(data, file: file)
    }

    /// Parses the bytes of a file (`file` names it in errors).
    public static func table(_ data: Data, file: String) throws -> Table {
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }  // a BOM (spreadsheets)
        guard String(data: Data(bytes), encoding: .utf8) != nil else {
            throw MigrationError(.refused, "\(file): not UTF-8 text; save the file as UTF-8 CSV")
        }
        var parser = CSVParser()
        var table = Table(file: file, header: [], rows: [])
        var line = 1
        var recordStart = 1
        func take(_ records: [[CSVField]], endingOn end: Int) throws {
            for record in records {
                defer { recordStart = end + 1 }
                let values = record.map { $0.isQuoted || !$0.text.isEmpty ? $0.text : nil }
                if record.count == 1, values[0] == nil { continue }  // a blank line
                if table.header.isEmpty {
                    table.header = values.map { $0 ?? "" }
                    if let duplicate = Self.firstDuplicate(table.header) {
                        throw MigrationError(
                            .refused,
                            "\(file):\(recordStart): the column '\(duplicate)' is named twice"
                        )
                    }
                    if let blank = table.header.firstIndex(of: "") {
                        throw MigrationError(.refused, "\(file):\(recordStart): column \(blank + 1) has no name")
                    }
                    continue
                }
                guard values.count == table.header.count else {
                    throw MigrationError(
                        .refused,
                        "\(file):\(recordStart): \(values.count) field\(values.count == 1 ? "" : "s"), the header "
                            + "has \(table.header.count); quote values holding a comma, a quote or a line break "
                            + "(RFC 4180)"
                    )
                }
                table.rows.append((recordStart, values))
            }
        }
        var start = bytes.startIndex
        do {
            while start < bytes.endIndex {
                let end = bytes[start...].firstIndex(of: 0x0A).map { bytes.index(after: $0) } ?? bytes.endIndex
                try take(try parser.feed(bytes[start..<end]), endingOn: line)
                if end > start, bytes[bytes.index(before: end)] == 0x0A { line += 1 }
                start = end
            }
            try take(try parser.finish(), endingOn: line)
        } catch let error as CSVError {
            let at = error.message.contains("ends inside") ? recordStart : line
            throw MigrationError(.refused, "\(file):\(at): malformed CSV: \(error.message) (RFC 4180)")
        }
        guard !table.header.isEmpty else {
            throw MigrationError(.refused, "\(file):1: no header line (Id and the field names)")
        }
        return table
    }

    private static func firstDuplicate(_ names: [String]) -> String? {
        var seen: Set<String> = []
        return names.first { !seen.insert($0.lowercased()).inserted }
    }

    /// A row as a staged record: each column's text typed by the target's field type
    /// (`boolean`, `int`, `double`, `currency`, `percent`), `nil` as null; a relationship path
    /// column (`Account.Name`) nested as the org returns it (`{"Account": {"Name": …}}`).
    public static func record(header: [String], values: [String?], fieldTypes: [String: String]) -> [String: OrgValue] {
        var record: [String: OrgValue] = [:]
        for (name, text) in zip(header, values) {
            let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            let value = typed(text, fieldType: parts.count == 1 ? fieldTypes[name.lowercased()] : nil)
            guard parts.count > 1 else {
                record[name] = value
                continue
            }
            record[parts[0]] = nested(record[parts[0]], path: parts.dropFirst(), value: value)
        }
        return record
    }

    private static func nested(_ existing: OrgValue?, path: ArraySlice<String>, value: OrgValue) -> OrgValue {
        guard let first = path.first else { return value }
        var object = existing?.objectValue ?? [:]
        object[first] = nested(object[first], path: path.dropFirst(), value: value)
        return .object(object)
    }

    static func typed(_ text: String?, fieldType: String?) -> OrgValue {
        guard let text else { return .null }
        switch fieldType {
        case "boolean":
            switch text.lowercased() {
            case "true", "1": return .bool(true)
            case "false", "0": return .bool(false)
            default: return .string(text)
            }
        case "int":
            return Int64(text).map(OrgValue.integer) ?? .string(text)
        case "double", "currency", "percent":
            if let integer = Int64(text) { return .integer(integer) }
            return Double(text).map(OrgValue.number) ?? .string(text)
        default:
            return .string(text)
        }
    }
}
