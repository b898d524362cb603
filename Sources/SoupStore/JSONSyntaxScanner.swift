import JSONCore

/// Finds the first syntax error of a JSON text and its line and column (1-based, columns in
/// Unicode scalars), without building any value: JSONCore's reader, token by token. SQLite's
/// `json_valid` says whether text is valid; this says where it is not, for error messages.
enum JSONSyntaxScanner {
    /// The first error in `text`, or `nil` when it is one valid JSON value.
    static func firstError(in text: String, source: String? = nil, lineOffset: Int = 0) -> SoupStoreError? {
        var copy = text
        return copy.withUTF8 { bytes -> SoupStoreError? in
            var reader = JSONReader(bytes: bytes)
            do throws(JSONSyntaxError) {
                try reader.validateDocument()
                return nil
            } catch {
                return SoupStoreError.malformedJSON(
                    line: error.line + lineOffset,
                    column: error.column,
                    error.message,
                    source: source
                )
            }
        }
    }
}
