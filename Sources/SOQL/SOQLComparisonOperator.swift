/// A comparison operator of a WHERE term.
public enum SOQLComparisonOperator: String, Sendable, Hashable, CaseIterable {
    /// `=`
    case equal = "="
    /// `!=`, also written `<>`.
    case notEqual = "!="
    /// `<`
    case less = "<"
    /// `<=`
    case lessOrEqual = "<="
    /// `>`
    case greater = ">"
    /// `>=`
    case greaterOrEqual = ">="

    /// The operator as printed in canonical SOQL (`<>` prints as `!=`).
    public var text: String { rawValue }
}
