/// One field of a CSV record: its text and whether it was written in quotes.
public struct CSVField: Sendable, Hashable {
    /// The unescaped text.
    public var text: String
    /// Whether the field was quoted (`""` is an empty quoted field; an unquoted empty field is null
    /// in Bulk API 2.0 results).
    public var isQuoted: Bool

    /// Creates a field.
    public init(_ text: String, isQuoted: Bool = false) {
        self.text = text
        self.isQuoted = isQuoted
    }
}

/// A streaming RFC 4180 CSV parser: feed it bytes in chunks of any size, take the complete
/// records out as they end.
///
/// It handles quoted fields with doubled quotes, delimiters and line breaks inside quotes, CRLF or
/// LF line endings, a last record without a line ending, and any one-byte delimiter (Bulk API 2.0's
/// `COMMA`, `TAB`, `PIPE`, `SEMICOLON`, `CARET`, `BACKQUOTE`). Only the unfinished record is kept
/// between chunks, so memory is bounded by the longest record.
///
/// ```swift
/// var parser = CSVParser()
/// for chunk in chunks { for record in try parser.feed(chunk) { use(record) } }
/// for record in try parser.finish() { use(record) }
/// ```
public struct CSVParser: Sendable {
    private enum State: Sendable {
        case fieldStart
        case unquoted
        case quoted
        case quoteInQuoted
        case afterCR
    }

    /// The delimiter byte.
    public let delimiter: UInt8
    private var state = State.fieldStart
    private var field: [UInt8] = []
    private var isQuoted = false
    private var record: [CSVField] = []
    /// Records completed so far (1-based line numbers in errors count records, not lines).
    public private(set) var recordCount = 0

    /// Creates a parser for `delimiter` (a comma by default).
    public init(delimiter: UInt8 = UInt8(ascii: ",")) {
        self.delimiter = delimiter
    }

    /// Parses `bytes` and returns the records that ended in them.
    /// - Throws: ``CSVError`` when a quote appears inside an unquoted field or a closing quote is
    ///   followed by something other than a delimiter or line end.
    public mutating func feed(_ bytes: some Sequence<UInt8>) throws -> [[CSVField]] {
        var completed: [[CSVField]] = []
        for byte in bytes {
            try consume(byte, into: &completed)
        }
        return completed
    }

    /// Ends the input and returns the last record if it had no line ending.
    /// - Throws: ``CSVError`` when the input ends inside a quoted field.
    public mutating func finish() throws -> [[CSVField]] {
        switch state {
        case .quoted:
            throw CSVError(message: "the CSV ends inside a quoted field", record: recordCount + 1)
        case .fieldStart where record.isEmpty, .afterCR where record.isEmpty:
            return []
        case .afterCR:
            return []
        default:
            endField()
            let last = record
            record = []
            state = .fieldStart
            recordCount += 1
            return [last]
        }
    }

    private mutating func consume(_ byte: UInt8, into completed: inout [[CSVField]]) throws {
        let quote = UInt8(ascii: "\"")
        switch state {
        case .afterCR:
            state = .fieldStart
            if byte == 0x0A { return }
            try consume(byte, into: &completed)
        case .fieldStart:
            if byte == quote {
                isQuoted = true
                state = .quoted
            } else {
                state = .unquoted
                try consume(byte, into: &completed)
            }
        case .unquoted:
            if byte == delimiter {
                endField()
                state = .fieldStart
            } else if byte == 0x0A || byte == 0x0D {
                endRecord(into: &completed)
                state = byte == 0x0D ? .afterCR : .fieldStart
            } else if byte == quote {
                throw CSVError(message: "a quote inside an unquoted field", record: recordCount + 1)
            } else {
                field.append(byte)
            }
        case .quoted:
            if byte == quote { state = .quoteInQuoted } else { field.append(byte) }
        case .quoteInQuoted:
            if byte == quote {
                field.append(quote)
                state = .quoted
            } else if byte == delimiter {
                endField()
                state = .fieldStart
            } else if byte == 0x0A || byte == 0x0D {
                endRecord(into: &completed)
                state = byte == 0x0D ? .afterCR : .fieldStart
            } else {
                throw CSVError(message: "text after the closing quote of a field", record: recordCount + 1)
            }
        }
    }

    private mutating func endField() {
        record.append(CSVField(String(decoding: field, as: UTF8.self), isQuoted: isQuoted))
        field.removeAll(keepingCapacity: true)
        isQuoted = false
    }

    private mutating func endRecord(into completed: inout [[CSVField]]) {
        endField()
        completed.append(record)
        record = []
        recordCount += 1
    }
}

/// CSV that does not follow RFC 4180.
public struct CSVError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// The 1-based number of the record it is in.
    public var record: Int

    public var description: String { "malformed CSV in record \(record): \(message)" }
}
