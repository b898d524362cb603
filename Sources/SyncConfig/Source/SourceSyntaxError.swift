/// A file that does not parse: where, and what was expected.
struct SourceSyntaxError: Error, Sendable {
    var position: TextPosition
    var message: String
    var code: Diagnostic.Code = .syntax
}

/// A problem the parsers find without stopping (a duplicate key), reported as a diagnostic.
struct SourceFinding: Sendable {
    var position: TextPosition
    var path: ConfigPath
    var code: Diagnostic.Code
    var message: String
}
