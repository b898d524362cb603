import JSONCore

/// One page of a SOQL query or queryAll: the counters the engine pages with, and the raw JSON.
///
/// The ``body`` is the complete response object (`{"totalSize", "done", "nextRecordsUrl",
/// "records"}`), untouched. Only the three top-level counters are read, by a byte scan that skips
/// the `records` array without parsing it into values.
public struct QueryPage: Sendable, Hashable {
    /// The number of rows the whole query matches (not this page's length). Read it from the
    /// first page only, as the Mobile SDK does.
    public var totalSize: Int
    /// Whether this is the last page.
    public var isDone: Bool
    /// The host-relative path of the next page (`/services/data/v62.0/query/01g…-2000`), present
    /// while ``isDone`` is `false`. Pass it to ``OrgClient/queryMore(_:options:)``.
    public var nextRecordsURL: String?
    /// The response text, records included.
    public var body: RawJSON

    /// Creates a page.
    public init(totalSize: Int, isDone: Bool, nextRecordsURL: String?, body: RawJSON) {
        self.totalSize = totalSize
        self.isDone = isDone
        self.nextRecordsURL = nextRecordsURL
        self.body = body
    }

    /// Reads the counters from a query response by scanning its top-level keys; nested values
    /// (the records) are skipped, never built.
    ///
    /// - Parameter body: The response text.
    /// - Throws: ``OrgClientError`` with code ``OrgClientError/Code/invalidResponse`` when the text
    ///   is not a JSON object or lacks `totalSize` or `done`.
    public init(scanning body: RawJSON) throws {
        var text = body.text
        let fields = try text.withUTF8 { bytes in
            var reader = JSONReader(bytes: bytes)
            var totalSize: Int?
            var isDone: Bool?
            var nextRecordsURL: String?
            do {
                guard reader.peekByte() == UInt8(ascii: "{") else {
                    throw OrgClientError.queryPageShape(missing: nil)
                }
                try reader.readObject { reader, key in
                    switch key {
                    case "totalSize":
                        totalSize = try reader.readValue().integerValue.map(Int.init)
                    case "done":
                        isDone = try reader.readValue().boolValue
                    case "nextRecordsUrl":
                        nextRecordsURL = try reader.readValue().stringValue
                    default:
                        try reader.skipValue()
                    }
                }
            } catch let error as JSONSyntaxError {
                throw OrgClientError.malformedJSON(error, context: "a query page")
            }
            return (totalSize, isDone, nextRecordsURL)
        }
        guard let totalSize = fields.0 else { throw OrgClientError.queryPageShape(missing: "totalSize") }
        guard let isDone = fields.1 else { throw OrgClientError.queryPageShape(missing: "done") }
        self.init(totalSize: totalSize, isDone: isDone, nextRecordsURL: isDone ? nil : fields.2, body: body)
    }
}
