import JSONCore

/// Turns the CSV of Bulk API 2.0 query results into the JSON records the REST API returns for the
/// same query, so a soup entry is the same whichever API fetched it (real-org.md §3.1).
///
/// Values are typed by the describe: numbers and booleans are written as JSON literals, date-times
/// get REST's `+0000` offset instead of Bulk's `Z`, other types stay strings, an empty field is
/// `null`. Dotted relationship columns (`Account.Name`) become a nested object with its
/// `attributes` (`type` and a `url` built from the type and the parent's Id), or `null` when the
/// parent Id is empty. Keys keep the order of the header, nested objects at their first column.
///
/// ```swift
/// let shaper = try await BulkRecordShaper.make(for: query, objectType: "Contact", org: org)
/// let page = try await org.queryJobResults(job.id, locator: nil, maxRecords: 10_000)
/// let json = try shaper.jsonArray(csv: page.csv)    // "[{"attributes":{…},"Id":"003…",…},…]"
/// ```
public struct BulkRecordShaper: Sendable {
    /// How a column's text becomes JSON.
    public enum ValueKind: Sendable, Hashable {
        /// A JSON string.
        case text
        /// A JSON number literal (int, double, currency, percent).
        case number
        /// `true` / `false`.
        case boolean
        /// A string in REST's form, `2024-05-01T10:00:00.000+0000`.
        case datetime
    }

    /// What the shaper knows of one relationship path (`Account`, `Account.Owner`).
    public struct Relationship: Sendable, Hashable {
        /// The dotted path of relationship names.
        public var path: String
        /// The parent's sObject type, for `attributes`.
        public var objectType: String

        /// Creates a relationship.
        public init(path: String, objectType: String) {
            self.path = path
            self.objectType = objectType
        }
    }

    private indirect enum Entry: Sendable {
        case value(key: String, column: Int, kind: ValueKind)
        case object(key: String, node: Node)
    }

    private struct Node: Sendable {
        var objectType: String
        /// The column of this object's Id (decides null and the url).
        var idColumn: Int?
        var entries: [Entry] = []
    }

    /// The header names this shaper reads, in order.
    public let header: [String]
    private let root: Node
    private let urlPrefix: String

    /// Plans the shaping of CSV with `header`.
    ///
    /// - Parameters:
    ///   - header: the CSV header (column names, dotted for relationships).
    ///   - objectType: the queried sObject's name.
    ///   - apiVersion: the version for `attributes.url` (`59.0`).
    ///   - kinds: the kind of each column by header name (missing: ``ValueKind/text``).
    ///   - relationships: the type of each relationship path used in the header.
    ///   - hidden: columns read (for a parent's Id) but not written into records.
    /// - Throws: ``OrgClientError`` `invalidArgument` when a relationship path has no type.
    public init(
        header: [String],
        objectType: String,
        apiVersion: String,
        kinds: [String: ValueKind],
        relationships: [Relationship],
        hidden: Set<String> = []
    ) throws {
        self.header = header
        urlPrefix = "/services/data/v\(apiVersion)/sobjects/"
        let lowered = Dictionary(header.enumerated().map { ($1.lowercased(), $0) }) { first, _ in first }
        let types = Dictionary(relationships.map { ($0.path.lowercased(), $0.objectType) }) { first, _ in first }
        var root = Node(objectType: objectType, idColumn: lowered["id"])
        for (column, name) in header.enumerated() where !hidden.contains(name) {
            let parts = name.split(separator: ".").map(String.init)
            guard let field = parts.last else { continue }
            try Self.insert(
                into: &root,
                path: parts.dropLast(),
                prefix: "",
                entry: .value(key: field, column: column, kind: kinds[name] ?? .text),
                columns: lowered,
                types: types
            )
        }
        self.root = root
    }

    private static func insert(
        into node: inout Node,
        path: ArraySlice<String>,
        prefix: String,
        entry: Entry,
        columns: [String: Int],
        types: [String: String]
    ) throws {
        guard let first = path.first else {
            node.entries.append(entry)
            return
        }
        let dotted = prefix.isEmpty ? first : prefix + "." + first
        let index = node.entries.firstIndex {
            if case .object(let key, _) = $0 { key == first } else { false }
        }
        var child: Node
        if let index, case .object(_, let existing) = node.entries[index] {
            child = existing
        } else {
            guard let type = types[dotted.lowercased()] else {
                throw OrgClientError.invalidArgument("no sObject type is known for the relationship '\(dotted)'")
            }
            child = Node(objectType: type, idColumn: columns[(dotted + ".Id").lowercased()])
        }
        try insert(into: &child, path: path.dropFirst(), prefix: dotted, entry: entry, columns: columns, types: types)
        if let index {
            node.entries[index] = .object(key: first, node: child)
        } else {
            node.entries.append(.object(key: first, node: child))
        }
    }

    /// The header row of a results page (empty for an empty page).
    /// - Throws: ``OrgClientError`` `invalidResponse` when it is malformed CSV.
    public static func header(of csv: String) throws -> [String] {
        var parser = CSVParser()
        // Field names hold no line breaks, so the header is the first line.
        let firstLine = csv.utf8.prefix { $0 != 0x0A }
        do {
            var records = try parser.feed(firstLine)
            records += try parser.finish()
            return records.first?.map(\.text) ?? []
        } catch let error as CSVError {
            throw OrgClientError.bulkResultsShape(error.description)
        }
    }

    /// The JSON array text of the records in `csv` (a whole results page, header first).
    ///
    /// - Throws: ``OrgClientError`` `invalidResponse` when the CSV is malformed or its header is
    ///   not the one this shaper was made for.
    public func jsonArray(csv: String) throws -> (json: String, count: Int) {
        var chunks = arrayChunks(csv: csv, recordsPerArray: Int.max)
        return try chunks.next() ?? ("[]", 0)
    }

    /// The records in `csv` as JSON arrays of at most `recordsPerArray` records, made one at a
    /// time by ``ArrayChunks/next()``: the CSV is parsed in slices, so neither the page's parsed
    /// fields nor more than one array exist at once, and a results page of 10,000 records is
    /// written as five REST-sized pages.
    public func arrayChunks(csv: String, recordsPerArray: Int) -> ArrayChunks {
        precondition(recordsPerArray > 0, "recordsPerArray must be positive")
        return ArrayChunks(shaper: self, csv: csv, recordsPerArray: recordsPerArray)
    }

    /// The JSON arrays of one results page, made as they are asked for.
    public struct ArrayChunks: Sendable {
        let shaper: BulkRecordShaper
        let csv: String
        let recordsPerArray: Int
        private var parser = CSVParser()
        private var position: String.UTF8View.Index
        private var parsed: [[CSVField]] = []
        private var nextParsed = 0
        private var isParsed = false
        private var sawHeader = false
        private var total = 0

        init(shaper: BulkRecordShaper, csv: String, recordsPerArray: Int) {
            self.shaper = shaper
            self.csv = csv
            self.recordsPerArray = recordsPerArray
            position = csv.utf8.startIndex
        }

        /// The next array and its record count; `nil` when every record was returned.
        ///
        /// - Throws: ``OrgClientError`` `invalidResponse` when the CSV is malformed or its header
        ///   is not the shaper's.
        public mutating func next() throws -> (json: String, count: Int)? {
            var output = "["
            var count = 0
            while count < recordsPerArray {
                guard let record = try nextRecord() else { break }
                if !sawHeader {
                    sawHeader = true
                    guard record.map(\.text) == shaper.header else {
                        throw OrgClientError.bulkResultsShape(
                            "its header is \(record.map(\.text)), not \(shaper.header)"
                        )
                    }
                    continue
                }
                guard record.count == shaper.header.count else {
                    throw OrgClientError.bulkResultsShape(
                        "record \(total + 1) has \(record.count) fields, not \(shaper.header.count)"
                    )
                }
                if count > 0 { output += "," }
                shaper.write(shaper.root, record, to: &output)
                count += 1
                total += 1
            }
            return count == 0 ? nil : (output + "]", count)
        }

        private mutating func nextRecord() throws -> [CSVField]? {
            while nextParsed == parsed.count {
                guard !isParsed else { return nil }
                parsed = []
                nextParsed = 0
                do {
                    let bytes = csv.utf8
                    if position == bytes.endIndex {
                        parsed = try parser.finish()
                        isParsed = true
                    } else {
                        let end =
                            bytes.index(position, offsetBy: BulkRecordShaper.parseSlice, limitedBy: bytes.endIndex)
                            ?? bytes.endIndex
                        parsed = try parser.feed(bytes[position..<end])
                        position = end
                    }
                } catch let error as CSVError {
                    throw OrgClientError.bulkResultsShape(error.description)
                }
            }
            defer { nextParsed += 1 }
            return parsed[nextParsed]
        }
    }

    /// Bytes of CSV parsed at a time by ``ArrayChunks``.
    static let parseSlice = 64 * 1024

    private func write(_ node: Node, _ record: [CSVField], to output: inout String) {
        output += "{\"attributes\":{\"type\":"
        JSONWriter.appendQuoted(node.objectType, to: &output)
        if let idColumn = node.idColumn {
            output += ",\"url\":"
            JSONWriter.appendQuoted(urlPrefix + node.objectType + "/" + record[idColumn].text, to: &output)
        }
        output += "}"
        for entry in node.entries {
            switch entry {
            case .value(let key, let column, let kind):
                output += ","
                JSONWriter.appendQuoted(key, to: &output)
                output += ":"
                Self.writeValue(record[column].text, kind: kind, to: &output)
            case .object(let key, let child):
                output += ","
                JSONWriter.appendQuoted(key, to: &output)
                output += ":"
                if let idColumn = child.idColumn, record[idColumn].text.isEmpty {
                    output += "null"
                } else {
                    write(child, record, to: &output)
                }
            }
        }
        output += "}"
    }

    private static func writeValue(_ text: String, kind: ValueKind, to output: inout String) {
        guard !text.isEmpty else {
            output += "null"
            return
        }
        switch kind {
        case .number where isNumberLiteral(text), .boolean where text == "true" || text == "false":
            output += text
        case .datetime where text.hasSuffix("Z"):
            JSONWriter.appendQuoted(String(text.dropLast()) + "+0000", to: &output)
        default:
            JSONWriter.appendQuoted(text, to: &output)
        }
    }

    /// Whether `text` is a JSON number literal (so it can be written as it is).
    static func isNumberLiteral(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        func digits() -> Int {
            let count = bytes.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        let integer = bytes
        guard digits() > 0 else { return false }
        if integer.first == UInt8(ascii: "0"), integer.count > 1,
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(integer[integer.startIndex + 1])
        {
            return false
        }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() > 0 else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }

    /// The kind of a describe field type (`boolean`, `int`, `datetime`…).
    public static func kind(ofFieldType type: String) -> ValueKind {
        switch type {
        case "boolean": .boolean
        case "int", "double", "currency", "percent", "long": .number
        case "datetime": .datetime
        default: .text
        }
    }
}

extension OrgClientError {
    static func bulkResultsShape(_ detail: String) -> OrgClientError {
        OrgClientError(
            code: .invalidResponse,
            message: "the org sent Bulk query results that cannot be read: \(detail)"
        )
    }
}
