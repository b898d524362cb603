/// Why watching failed or paused: a code to branch on and a message a person reads (what is wrong,
/// where, what to do). Messages never quote a token or a record value.
public struct LiveSyncError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: String, Sendable, Hashable {
        /// The topic does not exist on the org: the object is not selected for Change Data Capture.
        case topicNotFound
        /// The org no longer holds the replay id to resume from (older than its retention), or
        /// never did.
        case replayIDUnavailable
        /// The org refused the token and it could not be renewed.
        case authentication
        /// The token was renewed after the org refused it: subscribe again from the last applied
        /// event.
        case reconnect
        /// The Pub/Sub API could not be reached or the stream broke.
        case unavailable
        /// An event or schema the client could not read.
        case invalidEvent
        /// A setting that cannot work (an unusable `--pubsub-url`, a proxy the transport cannot use).
        case invalidConfiguration
        /// The sync cannot be watched (not a soql sync down).
        case notWatchable
    }

    /// The kind of failure.
    public var code: Code
    /// What went wrong, where, and what to do.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
