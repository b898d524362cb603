import SyncConfig

/// The error the `SyncPlan` module throws: a sync config that cannot be ordered, or a request for
/// a sync the plan does not have.
///
/// ```swift
/// do {
///     let plan = try SyncPlan(planning: config)
/// } catch let error as PlanError where error.code == .cycle {
///     print(error.syncNames)  // every sync on the cycle, in cycle order
/// }
/// ```
public struct PlanError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem. New codes may be added; compare with the static members.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case duplicateSync = "duplicate-sync-name"
            case unknownDependency = "unknown-dependency"
            case cycle = "dependency-cycle"
            case unknownSync = "unknown-sync"
        }

        private let value: Value

        private init(_ value: Value) { self.value = value }

        /// Two syncs share one `syncName`.
        public static let duplicateSync = Code(.duplicateSync)
        /// `dependsOn` names a sync that does not exist.
        public static let unknownDependency = Code(.unknownDependency)
        /// The ordering rules and `dependsOn` edges form a cycle.
        public static let cycle = Code(.cycle)
        /// ``SyncPlan/only(_:)`` was asked for a sync the plan does not have.
        public static let unknownSync = Code(.unknownSync)

        /// The kebab-case identifier, e.g. `dependency-cycle` (the same identifiers as the
        /// config diagnostics where the problems overlap).
        public var description: String { value.rawValue }
    }

    /// The kind of problem.
    public var code: Code
    /// What is wrong, naming the syncs in single quotes, and how to fix it.
    public var message: String
    /// Where in the config the problem is, when the syncs were read from a file.
    public var location: SourceLocation?
    /// The syncs involved: the cycle in cycle order, the sync with the bad `dependsOn`, the
    /// duplicated or unknown name.
    public var syncNames: [String]

    /// Creates an error; messages are normally built by the module itself.
    public init(code: Code, message: String, location: SourceLocation? = nil, syncNames: [String] = []) {
        self.code = code
        self.message = message
        self.location = location
        self.syncNames = syncNames
    }

    /// `FILE:LINE:COLUMN: error: message` when the location is known, else the message.
    public var description: String {
        guard let location else { return message }
        return "\(location): error: \(message)"
    }
}
