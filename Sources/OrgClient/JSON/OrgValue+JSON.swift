import JSONCore

extension JSONValue {
    /// Parses one JSON document an org sent.
    ///
    /// - Parameter text: The JSON text; whitespace may surround the value.
    /// - Returns: The value.
    /// - Throws: ``OrgClientError`` with code ``OrgClientError/Code/invalidResponse`` when the text
    ///   is not one well-formed JSON value.
    public init(parsing text: String) throws {
        var text = text
        do {
            self = try text.withUTF8 { bytes in
                var reader = JSONReader(bytes: bytes)
                return try reader.readDocument()
            }
        } catch let error as JSONSyntaxError {
            throw OrgClientError.malformedJSON(error, context: "a JSON value")
        }
    }
}
