/// A position in a config file: the file as it was named to the loader, a 1-based line and a
/// 1-based column counted in Unicode scalars (as YAML tools and most editors count).
public struct SourceLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The file path, as given to the loader (relative paths stay relative).
    public var file: String
    /// Line number, starting at 1.
    public var line: Int
    /// Column number, starting at 1, in Unicode scalars.
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `FILE:LINE:COLUMN`.
    public var description: String { "\(file):\(line):\(column)" }
}
