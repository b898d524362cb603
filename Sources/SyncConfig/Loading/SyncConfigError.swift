/// The error `SyncConfig` throws: only for files that cannot be read at all. Problems in a
/// file's content are never thrown; they are ``Diagnostic``s of the ``LoadedConfig``.
public struct SyncConfigError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable {
            case unreadableFile = "unreadable-file"
        }

        private let value: Value

        private init(_ value: Value) { self.value = value }

        /// A config file that does not exist or cannot be read.
        public static let unreadableFile = Code(.unreadableFile)

        public var description: String { value.rawValue }
    }

    /// What kind of failure.
    public var code: Code
    /// What failed and how to fix it.
    public var message: String
    /// The file concerned.
    public var file: String
    /// The underlying error, if any.
    public var underlying: (any Error)?

    public var description: String { message }

    static func unreadable(_ file: String, underlying: (any Error)?) -> SyncConfigError {
        SyncConfigError(
            code: .unreadableFile,
            message: "cannot read the config file '\(file)'; check that it exists and is readable",
            file: file,
            underlying: underlying
        )
    }
}
