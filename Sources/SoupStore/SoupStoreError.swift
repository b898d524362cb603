/// The error every `SoupStore` API throws.
///
/// A `code` says what kind of failure it is (match on it), `message` says what is wrong, where,
/// and how to fix it when that is known. Messages never contain field values of entries, only
/// names (soups, paths) and positions.
public struct SoupStoreError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Value: String, Sendable {
            case unknownSoup
            case invalidSoupSpec
            case invalidPath
            case malformedJSON
            case notAnObject
            case missingExternalID
            case ambiguousExternalID
            case invalidQuery
            case encryptedStore
            case notASmartStore
            case newerStore
            case foreignOperation
            case unknownEntry
            case unknownSyncState
            case duplicateSyncName
            case invalidSyncState
            case io
            case sqlite
        }

        fileprivate let value: Value

        /// No soup of that name is registered in the store.
        public static let unknownSoup = Code(value: .unknownSoup)
        /// A soup spec is not acceptable (no index, duplicate path, bad type, bad name).
        public static let invalidSoupSpec = Code(value: .invalidSoupSpec)
        /// The file was written by a newer syncrun (its schema has steps this one does not know).
        public static let newerStore = Code(value: .newerStore)
        /// A JSON path is not a plain dotted path (letters, digits, `_`, separated by `.`).
        public static let invalidPath = Code(value: .invalidPath)
        /// Input JSON does not parse.
        public static let malformedJSON = Code(value: .malformedJSON)
        /// An entry (or record of a page) is not a JSON object.
        public static let notAnObject = Code(value: .notAnObject)
        /// An entry upserted by external id has no value at that path.
        public static let missingExternalID = Code(value: .missingExternalID)
        /// Several stored entries share the external id an upsert looked up.
        public static let ambiguousExternalID = Code(value: .ambiguousExternalID)
        /// A Smart SQL or query spec cannot be translated or run.
        public static let invalidQuery = Code(value: .invalidQuery)
        /// The file is not plain SQLite (most likely an SQLCipher-encrypted SmartStore).
        public static let encryptedStore = Code(value: .encryptedStore)
        /// The file is an SQLite database but not a SmartStore.
        public static let notASmartStore = Code(value: .notASmartStore)
        /// The store holds an unfinished long operation written by another tool (an SDK app).
        public static let foreignOperation = Code(value: .foreignOperation)
        /// No entry has the given `_soupEntryId`.
        public static let unknownEntry = Code(value: .unknownEntry)
        /// No sync state has the given id or name.
        public static let unknownSyncState = Code(value: .unknownSyncState)
        /// A sync state with that name already exists.
        public static let duplicateSyncName = Code(value: .duplicateSyncName)
        /// A sync state document or its target/options JSON is not acceptable.
        public static let invalidSyncState = Code(value: .invalidSyncState)
        /// A file could not be created, read or given its permissions.
        public static let io = Code(value: .io)
        /// SQLite reported an error.
        public static let sqlite = Code(value: .sqlite)

        public var description: String { value.rawValue }
    }

    /// What kind of failure this is.
    public var code: Code
    /// What is wrong, where, and how to fix it; ready to show to a user.
    public var message: String
    /// The store file the error concerns, when known.
    public var storePath: String?
    /// The error that caused this one (an SQLite or file-system error), when there is one.
    public var underlying: (any Error & Sendable)?

    public var description: String { message }
}
