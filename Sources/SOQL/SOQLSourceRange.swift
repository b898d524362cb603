/// A span of the original query text, in UTF-8 bytes.
///
/// Parsed nodes carry the range they were read from so that tools can point at them
/// (the config validator maps ``utf8Offset`` to a line and column of the config file).
/// Ranges never take part in equality or hashing: a parsed query equals the same query
/// built in code.
public struct SOQLSourceRange: Sendable, Hashable {
    /// The byte offset of the first byte, from the start of the query text.
    public var utf8Offset: Int
    /// The number of bytes covered.
    public var length: Int

    /// Creates a range from a byte offset and a length in bytes.
    public init(utf8Offset: Int, length: Int) {
        self.utf8Offset = utf8Offset
        self.length = length
    }

    /// The offset one past the last byte.
    public var utf8End: Int { utf8Offset + length }
}

/// A stored value that equality and hashing ignore, so source positions do not make two
/// otherwise identical nodes differ.
struct EqualityIgnored<Value: Sendable>: Sendable, Hashable {
    var value: Value

    init(_ value: Value) {
        self.value = value
    }

    static func == (lhs: Self, rhs: Self) -> Bool { true }

    func hash(into hasher: inout Hasher) {}
}
