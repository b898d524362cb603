/// One entry of an ORDER BY clause: `Name DESC NULLS LAST`.
public struct SOQLOrderItem: Sendable, Hashable {
    /// Where rows with no value sort.
    public enum Nulls: Sendable, Hashable {
        /// No NULLS clause: Salesforce's default (first when ascending, last when descending).
        case unspecified
        /// `NULLS FIRST`
        case first
        /// `NULLS LAST`
        case last
    }

    /// The field sorted on.
    public var field: SOQLFieldPath
    /// `true` for ascending (the default, `ASC`), `false` for `DESC`.
    public var isAscending: Bool
    /// Where rows with no value sort.
    public var nulls: Nulls

    /// Creates an ORDER BY entry.
    ///
    /// - Parameters:
    ///   - field: the field to sort on.
    ///   - isAscending: `true` for `ASC` (default), `false` for `DESC`.
    ///   - nulls: where rows with no value sort; `.unspecified` by default.
    public init(_ field: SOQLFieldPath, isAscending: Bool = true, nulls: Nulls = .unspecified) {
        self.field = field
        self.isAscending = isAscending
        self.nulls = nulls
    }
}
