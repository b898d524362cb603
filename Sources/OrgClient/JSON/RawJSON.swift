/// JSON text exactly as the org sent it, kept unparsed.
///
/// Query pages and search results travel as `RawJSON` so the store can split records with
/// SQLite's JSON functions in one pass instead of building a dictionary per record.
/// Bind ``text`` (a `TEXT` value): SQLite reads a `BLOB` argument as JSONB, not JSON text.
public struct RawJSON: Sendable, Hashable {
    /// The JSON text.
    public let text: String

    /// Wraps JSON text without checking it.
    public init(_ text: String) {
        self.text = text
    }

    /// The size of the text in UTF-8 bytes.
    public var byteCount: Int { text.utf8.count }

    /// Parses the text into a value. This builds the whole tree; keep it off hot paths.
    ///
    /// - Throws: ``OrgClientError`` with code ``OrgClientError/Code/invalidResponse`` when the
    ///   text is not JSON.
    public func parse() throws -> OrgValue {
        try OrgValue(parsing: text)
    }
}

extension RawJSON: CustomStringConvertible {
    /// A summary with the size only: the text may hold field values, which never go into logs.
    public var description: String { "RawJSON(\(byteCount) bytes)" }
}
