/// Why an org could not be reached: this module's one error type.
///
/// ``Code/unresolvable`` means the ORG could not even be turned into a connection (unknown alias,
/// no `sf`, an unreadable key file, a bad auth URL, conflicting flags): the CLI's usage status 2.
/// ``Code/refused`` means the org or its login server answered and said no (a refused grant,
/// an expired `sf` login, a 401 after the one renewal): the CLI's failure status 1.
///
/// Messages name the org and say how to fix it; they never hold tokens, secrets or keys.
public struct OrgAccessError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case unresolvable, refused, unavailable
        }

        private let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        /// The ORG cannot be resolved into a connection (status 2 in the CLI).
        public static let unresolvable = Code(.unresolvable)
        /// The org or its login server refused the credentials (status 1 in the CLI).
        public static let refused = Code(.refused)
        /// The org could not be started or opened (a local org's files; status 1 in the CLI).
        public static let unavailable = Code(.unavailable)

        public var description: String { base.rawValue }
    }

    /// What kind of failure this is.
    public var code: Code
    /// What failed, naming the org, and how to fix it.
    public var message: String
    /// The lower-level error, when there is one (never one that holds a secret).
    public var underlying: (any Error & Sendable)?
    /// Whether `sf` did not know the command (an older CLI), so another one may be tried.
    var isUnknownCommand = false

    public var description: String { "\(code): \(message)" }
}
