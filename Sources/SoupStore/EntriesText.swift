/// Preparation of entry files for import: a JSON array, or JSON lines (one object per line).
public enum EntriesText {
    /// Checks `text` and returns it as the text of one JSON array of entries.
    ///
    /// A text whose first non-blank character is `[` is a JSON array; anything else is read as
    /// JSON lines, blank lines skipped. Syntax errors name the line and column (and `source`).
    ///
    /// - Parameters:
    ///   - text: The file's content.
    ///   - source: The file name for messages (`nil`: none).
    /// - Throws: `SoupStoreError` with code `.malformedJSON`.
    public static func jsonArray(from text: String, source: String? = nil) throws -> String {
        let firstCharacter = text.first { !$0.isWhitespace }
        if firstCharacter == "[" {
            if let error = JSONSyntaxScanner.firstError(in: text, source: source) { throw error }
            return text
        }
        var elements: [Substring] = []
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.allSatisfy(\.isWhitespace) { continue }
            if let error = JSONSyntaxScanner.firstError(in: String(line), source: source, lineOffset: lineNumber - 1) {
                throw error
            }
            elements.append(line)
        }
        return "[" + elements.joined(separator: ",\n") + "]"
    }
}
