/// Collects the diagnostics of one load, turning tree positions into file locations.
///
/// A class so the decoders of nested objects can all append to one list while being passed
/// around by value; it lives only for the duration of one `ConfigLoader` call.
final class DiagnosticLog {
    private(set) var diagnostics: [Diagnostic] = []

    /// Appends a diagnostic at `position` of `file`.
    func report(
        _ severity: Diagnostic.Severity,
        _ code: Diagnostic.Code,
        file: String,
        at position: TextPosition,
        path: ConfigPath,
        _ message: String
    ) {
        diagnostics.append(
            Diagnostic(
                location: SourceLocation(file: file, line: position.line, column: position.column),
                severity: severity,
                path: path.description,
                code: code,
                message: message
            )
        )
    }

    /// Appends an already built diagnostic.
    func append(_ diagnostic: Diagnostic) {
        diagnostics.append(diagnostic)
    }

    /// Whether any error has been reported so far.
    var errorCount: Int { diagnostics.count { $0.isError } }
}

/// One file being decoded: its name for diagnostics and the shared log.
struct DecodingContext {
    let file: String
    let log: DiagnosticLog

    func error(_ code: Diagnostic.Code, at position: TextPosition, path: ConfigPath, _ message: String) {
        log.report(.error, code, file: file, at: position, path: path, message)
    }

    func warning(_ code: Diagnostic.Code, at position: TextPosition, path: ConfigPath, _ message: String) {
        log.report(.warning, code, file: file, at: position, path: path, message)
    }

    /// Reports that `node`, at `path`, is not `expected` (`"a string"`, `"an array"`…): the one
    /// wording of a wrong type.
    func typeMismatch(_ node: ConfigNode, path: ConfigPath, expected: String) {
        error(.typeMismatch, at: node.position, path: path, ConfigMessages.expected(expected, found: node))
    }

    func location(_ position: TextPosition) -> SourceLocation {
        SourceLocation(file: file, line: position.line, column: position.column)
    }
}
