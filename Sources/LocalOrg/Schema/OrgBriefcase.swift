/// A briefcase of the local org: rules selecting the records a mobile app primes offline, served
/// by `GET /connect/briefcase/priming-records` (the Briefcase priming-records API).
///
/// Declared in the schema file under `briefcases` (see ``OrgSchema/merge(contentsOf:)``):
///
/// ```json
/// {"briefcases": [{"name": "FieldSales",
///                  "rules": [{"object": "Account", "filter": "Industry = 'Energy'"},
///                            {"object": "Contact"}]}]}
/// ```
///
/// A rule selects the live records of `object` matching `filter` (a SOQL condition, as after
/// `WHERE`; every record when absent). The rules of every briefcase are served in order; a record
/// selected by two rules is listed twice, as the real API may do.
public struct OrgBriefcase: Sendable, Equatable {
    /// One rule of a briefcase.
    public struct Rule: Sendable, Equatable {
        /// The object whose records the rule selects.
        public var object: String
        /// A SOQL condition (the text after `WHERE`), or `nil` for every record.
        public var filter: String?

        /// Creates a rule.
        public init(object: String, filter: String? = nil) {
            self.object = object
            self.filter = filter
        }
    }

    /// The briefcase's name (rule ids are `name:position`, 1-based).
    public var name: String
    /// Its rules, in order.
    public var rules: [Rule]

    /// Creates a briefcase.
    public init(name: String, rules: [Rule]) {
        self.name = name
        self.rules = rules
    }
}
