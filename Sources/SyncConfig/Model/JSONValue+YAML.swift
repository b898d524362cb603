/// A YAML document that could not be read: where and why.
public struct YAMLDocumentError: Error, Sendable, CustomStringConvertible {
    /// 1-based line of the problem.
    public var line: Int
    /// 1-based column of the problem.
    public var column: Int
    /// What is wrong.
    public var message: String

    public var description: String { "\(line):\(column): \(message)" }
}

extension JSONValue {
    /// Reads a YAML document as the JSON value it transcribes, with YAML 1.2 core-schema scalars.
    ///
    /// Quoted scalars stay strings; plain scalars become null, booleans, integers or numbers only
    /// when they match the 1.2 core schema, so `on`, `no` and `2024-01-01` stay strings. Other
    /// tools that accept YAML beside JSON (the local org's schema files) read it through this.
    ///
    /// - Throws: ``YAMLDocumentError`` for text that is not a single YAML document, or duplicate keys.
    public static func decode(yaml text: String) throws -> JSONValue {
        var parser = YAMLSourceParser(text: text)
        do {
            let root = try parser.parseDocument()
            if let finding = parser.findings.first {
                throw YAMLDocumentError(
                    line: finding.position.line, column: finding.position.column, message: finding.message)
            }
            return ValueReader.jsonValue(root)
        } catch let error as SourceSyntaxError {
            throw YAMLDocumentError(line: error.position.line, column: error.position.column, message: error.message)
        }
    }
}
