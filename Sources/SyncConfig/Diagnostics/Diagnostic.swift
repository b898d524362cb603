/// One problem found while loading or validating config files.
///
/// Rendered like a compiler message by ``description``:
///
/// ```
/// usersyncs.json:3:17: error: syncs[0].syncType: unknown sync type 'syncdown'; did you mean 'syncDown'?
/// ```
///
/// Encoded (``Codable``) as an object with exactly the keys `file`, `line`, `column`, `severity`,
/// `path`, `code` and `message`; this is what `syncrun validate --format json` prints.
public struct Diagnostic: Sendable, Hashable, Codable, CustomStringConvertible {
    /// How bad a problem is.
    public enum Severity: String, Sendable, Hashable, Codable {
        /// The config cannot be used as written; `syncrun validate` exits with status 1.
        case error
        /// The config works but probably not as intended.
        case warning
    }

    /// The file the problem is in, as named to the loader.
    public var file: String
    /// Line number, starting at 1.
    public var line: Int
    /// Column number, starting at 1, in Unicode scalars.
    public var column: Int
    /// Error or warning.
    public var severity: Severity
    /// Where in the document: `syncs[2].target.query`, `soups[0].indexes[1].type`; empty for the
    /// document itself (syntax errors).
    public var path: String
    /// A stable kebab-case identifier of the kind of problem (see `docs/diagnostics.md`).
    public var code: Code
    /// What is wrong, naming the thing in single quotes, and how to fix it when known.
    public var message: String

    /// Creates a diagnostic.
    public init(
        location: SourceLocation,
        severity: Severity,
        path: String,
        code: Code,
        message: String
    ) {
        self.file = location.file
        self.line = location.line
        self.column = location.column
        self.severity = severity
        self.path = path
        self.code = code
        self.message = message
    }

    /// Where the problem is.
    public var location: SourceLocation {
        SourceLocation(file: file, line: line, column: column)
    }

    /// Whether this is an error (as opposed to a warning).
    public var isError: Bool { severity == .error }

    /// `FILE:LINE:COLUMN: error|warning: PATH: message` (the `PATH: ` part is left out when the
    /// path is empty).
    public var description: String {
        let prefix = "\(file):\(line):\(column): \(severity.rawValue): "
        return path.isEmpty ? prefix + message : prefix + path + ": " + message
    }
}
