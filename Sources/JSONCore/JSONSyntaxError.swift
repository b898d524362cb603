/// Why bytes are not one well-formed JSON document, and where.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem, for callers that word some of them their own way.
    public enum Kind: Sendable, Hashable {
        /// Nothing but whitespace (or nothing at all).
        case empty
        /// Containers nested deeper than the reader's limit.
        case tooDeep
        /// Any other syntax error.
        case syntax
    }

    /// The kind of problem.
    public var kind: Kind
    /// The offset of the offending byte from the start of the input.
    public var offset: Int
    /// 1-based line of the offending byte.
    public var line: Int
    /// 1-based column of the offending byte, in Unicode scalars (a byte order mark is not counted).
    public var column: Int
    /// What is wrong and, where it helps, what to do.
    public var message: String

    /// Creates an error.
    public init(kind: Kind = .syntax, offset: Int, line: Int, column: Int, message: String) {
        self.kind = kind
        self.offset = offset
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "\(line):\(column): \(message)" }
}

/// Turns byte offsets into lines and columns: lines start after `\n`; columns count Unicode
/// scalars (UTF-8 lead bytes), so a `\r` before a `\n` is a column; a leading byte order mark is
/// not counted.
///
/// Lookups in increasing order cost one pass over the text in all, so a caller may ask for the
/// position of every value of a document.
public struct JSONTextLocator {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let contentStart: Int
    private var lastOffset: Int
    private var lastLine = 1
    private var lastColumn = 1

    /// A locator over `bytes`, which must stay valid while it is used.
    public init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        contentStart = JSONReader.byteOrderMarkLength(bytes)
        lastOffset = contentStart
    }

    /// The line and column of the byte at `offset` (or of the end of input).
    public mutating func position(of offset: Int) -> (line: Int, column: Int) {
        let target = min(max(offset, contentStart), bytes.count)
        if target < lastOffset {
            lastOffset = contentStart
            lastLine = 1
            lastColumn = 1
        }
        var index = lastOffset
        while index < target {
            let byte = bytes[index]
            if byte == 0x0A {
                lastLine += 1
                lastColumn = 1
            } else if byte & 0xC0 != 0x80 {
                lastColumn += 1
            }
            index += 1
        }
        lastOffset = target
        return (lastLine, lastColumn)
    }
}
