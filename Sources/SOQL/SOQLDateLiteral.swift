/// A relative date literal: `TODAY`, `LAST_MONTH`, `LAST_N_DAYS:30`, `N_WEEKS_AGO:2`, ….
///
/// Each literal denotes a range of whole days, weeks (starting Sunday), months, calendar
/// quarters or years; ``range(at:)`` computes it in UTC. Fiscal literals
/// (`THIS_FISCAL_YEAR`, …) are not supported because they depend on org settings.
///
/// ```swift
/// let literal = SOQLDateLiteral(name: "last_n_days", n: 7)   // LAST_N_DAYS:7
/// let window = literal?.range(at: nowMilliseconds)            // [start, end) in ms
/// ```
public struct SOQLDateLiteral: Sendable, Hashable {
    /// The literal's name in upper case, without the `:n` suffix: `LAST_N_DAYS`.
    public let name: String
    /// The number after the colon for the `…_N_…` literals, `nil` for the others.
    public let n: Int?

    /// The largest `n` accepted, about 270 years in days, which keeps every range
    /// computation far from overflow.
    public static let maximumN = 100_000

    /// Every supported name, upper case, in no particular order.
    public static var supportedNames: [String] { Array(definitions.keys) }

    /// Creates a literal from its name (any case) and number, or returns `nil` when the
    /// name is unknown, `n` is missing for an `…_N_…` literal, present for another one,
    /// or outside `0...maximumN`.
    public init?(name: String, n: Int? = nil) {
        let upper = name.uppercased()
        guard let definition = Self.definitions[upper] else { return nil }
        if definition.takesN {
            guard let n, (0...Self.maximumN).contains(n) else { return nil }
        } else {
            guard n == nil else { return nil }
        }
        self.name = upper
        self.n = n
    }

    /// Creates a literal already known to be valid (upper-case name from the table).
    init(validatedName: String, n: Int?) {
        self.name = validatedName
        self.n = n
    }

    /// Whether a literal with this name (any case) exists and needs a number: `LAST_N_DAYS`.
    public static func takesN(_ name: String) -> Bool? {
        definitions[name.uppercased()]?.takesN
    }

    /// The literal as SOQL text: `TODAY`, `LAST_N_DAYS:30`.
    public var text: String {
        if let n { return "\(name):\(n)" }
        return name
    }

    /// What a literal denotes relative to the current period.
    enum Relation {
        /// The current period.
        case this
        /// The period before the current one.
        case last
        /// The period after the current one.
        case next
        /// The `n` periods before the current one (for days: including today).
        case lastN
        /// The `n` periods after the current one.
        case nextN
        /// The single period `n` periods ago.
        case ago
    }

    /// The period a literal counts in.
    enum Unit {
        case day, week, month, quarter, year
    }

    struct Definition {
        var relation: Relation
        var unit: Unit
        /// The number implied by the name (`LAST_90_DAYS`), if any.
        var impliedN: Int?

        var takesN: Bool {
            impliedN == nil && [.lastN, .nextN, .ago].contains(relation)
        }
    }

    var definition: Definition {
        // Both initialisers only accept names from the table.
        Self.definitions[name] ?? Definition(relation: .this, unit: .day)
    }

    static let definitions: [String: Definition] = [
        "YESTERDAY": Definition(relation: .last, unit: .day),
        "TODAY": Definition(relation: .this, unit: .day),
        "TOMORROW": Definition(relation: .next, unit: .day),
        "LAST_WEEK": Definition(relation: .last, unit: .week),
        "THIS_WEEK": Definition(relation: .this, unit: .week),
        "NEXT_WEEK": Definition(relation: .next, unit: .week),
        "LAST_MONTH": Definition(relation: .last, unit: .month),
        "THIS_MONTH": Definition(relation: .this, unit: .month),
        "NEXT_MONTH": Definition(relation: .next, unit: .month),
        "LAST_QUARTER": Definition(relation: .last, unit: .quarter),
        "THIS_QUARTER": Definition(relation: .this, unit: .quarter),
        "NEXT_QUARTER": Definition(relation: .next, unit: .quarter),
        "LAST_YEAR": Definition(relation: .last, unit: .year),
        "THIS_YEAR": Definition(relation: .this, unit: .year),
        "NEXT_YEAR": Definition(relation: .next, unit: .year),
        "LAST_90_DAYS": Definition(relation: .lastN, unit: .day, impliedN: 90),
        "NEXT_90_DAYS": Definition(relation: .nextN, unit: .day, impliedN: 90),
        "LAST_N_DAYS": Definition(relation: .lastN, unit: .day),
        "NEXT_N_DAYS": Definition(relation: .nextN, unit: .day),
        "N_DAYS_AGO": Definition(relation: .ago, unit: .day),
        "LAST_N_WEEKS": Definition(relation: .lastN, unit: .week),
        "NEXT_N_WEEKS": Definition(relation: .nextN, unit: .week),
        "N_WEEKS_AGO": Definition(relation: .ago, unit: .week),
        "LAST_N_MONTHS": Definition(relation: .lastN, unit: .month),
        "NEXT_N_MONTHS": Definition(relation: .nextN, unit: .month),
        "N_MONTHS_AGO": Definition(relation: .ago, unit: .month),
        "LAST_N_QUARTERS": Definition(relation: .lastN, unit: .quarter),
        "NEXT_N_QUARTERS": Definition(relation: .nextN, unit: .quarter),
        "N_QUARTERS_AGO": Definition(relation: .ago, unit: .quarter),
        "LAST_N_YEARS": Definition(relation: .lastN, unit: .year),
        "NEXT_N_YEARS": Definition(relation: .nextN, unit: .year),
        "N_YEARS_AGO": Definition(relation: .ago, unit: .year),
    ]

    /// Whether `name` (any case) is a fiscal literal, which Salesforce knows but syncrun
    /// does not evaluate.
    static func isFiscal(_ name: String) -> Bool {
        name.uppercased().contains("FISCAL_")
    }
}

extension SOQLDateLiteral: CustomStringConvertible {
    /// The literal as SOQL text.
    public var description: String { text }
}
