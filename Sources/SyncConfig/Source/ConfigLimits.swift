/// The bounds every config file is read within, so that hostile input (a file nested 100,000
/// deep, a YAML alias bomb, a 50 MB file) ends in a diagnostic instead of exhausting the stack or
/// memory. Real configs stay far below them.
enum ConfigLimits {
    /// The most objects and arrays (mappings and sequences) open at once.
    static let maximumDepth = 512
    /// The most values a document may hold, YAML aliases counted as copies of their anchor.
    static let maximumNodes = 100_000
    /// The largest file, and the most scalar text a YAML document may expand to through aliases.
    static let maximumBytes = 16 * 1024 * 1024
}
