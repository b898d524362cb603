/// The error every operation of the `SyncEngine` module throws.
///
/// Switch on ``code``; show ``message``, which says what failed, on which sync, and what to do.
/// The underlying store or org error, when there is one, is in ``underlying``.
public struct SyncEngineError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case unknownSync, wrongType, notSupported, invalidTarget, definitionChanged, alreadyRunning
            case ghostCleaningRefused, stopped, server, store
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// No sync with that name or id, in the store or in the config.
        public static let unknownSync = Code(.unknownSync)
        /// A sync up was given where a sync down is needed (or the other way round).
        public static let wrongType = Code(.wrongType)
        /// The target kind is valid but this version of syncrun cannot run it yet.
        public static let notSupported = Code(.notSupported)
        /// The target cannot be run as written (a query that does not parse, an unindexed id field).
        public static let invalidTarget = Code(.invalidTarget)
        /// The stored definition differs from the config; run with `--replace` to recreate it.
        public static let definitionChanged = Code(.definitionChanged)
        /// Another run (in this or another process) holds the sync.
        public static let alreadyRunning = Code(.alreadyRunning)
        /// Ghost cleaning would not be exact for this target (LIMIT / OFFSET).
        public static let ghostCleaningRefused = Code(.ghostCleaningRefused)
        /// A stop was requested; the work ended early and the store is consistent.
        public static let stopped = Code(.stopped)
        /// The org refused a request or could not be reached.
        public static let server = Code(.server)
        /// The local store failed.
        public static let store = Code(.store)

        public var description: String { base.rawValue }
    }

    /// What kind of failure this is.
    public var code: Code
    /// What failed and, when known, how to fix it.
    public var message: String
    /// The sync concerned, when there is one.
    public var syncName: String?
    /// The record concerned, when there is one.
    public var recordID: String?
    /// The store or org error behind this one.
    public var underlying: (any Error & Sendable)?

    /// Creates an error; the module builds its errors in `SyncEngineError+Messages.swift`.
    public init(
        code: Code,
        message: String,
        syncName: String? = nil,
        recordID: String? = nil,
        underlying: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.message = message
        self.syncName = syncName
        self.recordID = recordID
        self.underlying = underlying
    }

    /// The message (the form the CLI prints after `error: `).
    public var description: String { message }
}
