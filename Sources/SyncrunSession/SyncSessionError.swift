/// Why a session refused to start: this module's own error (the libraries below it throw theirs:
/// ``SoupStore/SoupStoreError``, ``OrgAccess/OrgAccessError``, ``OrgClient/OrgClientError``,
/// ``SyncEngine/SyncEngineError``, ``Migration/MigrationError``).
///
/// ``Kind/refused`` is a refusal of what was asked (a store of another org, the same org on both
/// sides of a migration, a dry run without its local org): nothing was written; the CLI's usage
/// status 2. ``Kind/failed`` is a failure on the way (the identity call failed): status 1.
public struct SyncSessionError: Error, Sendable, CustomStringConvertible {
    /// The kind of error.
    public enum Kind: String, Sendable {
        /// What was asked is refused; nothing was written.
        case refused
        /// Something failed on the way.
        case failed
    }

    /// The kind.
    public var kind: Kind
    /// What is wrong, where, and what to do.
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "\(kind.rawValue): \(message)" }
}
