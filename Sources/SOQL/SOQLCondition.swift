/// A WHERE (or HAVING) condition.
///
/// The tree mirrors the text: `A AND (B AND C)` is `.and([A, .and([B, C])])`, never
/// flattened, so printing and parsing give back the same tree. ``and(_:)`` and ``or(_:)``
/// hold two or more operands when parsed; the printer parenthesises every `AND`/`OR`
/// nested inside another condition, so mixed operators never appear at one level.
public indirect enum SOQLCondition: Sendable, Hashable {
    /// Every operand holds: `A AND B AND C`.
    case and([SOQLCondition])
    /// At least one operand holds: `A OR B OR C`.
    case or([SOQLCondition])
    /// The operand does not hold: `NOT A`.
    case not(SOQLCondition)
    /// `field op value`, for example `Industry = 'Energy'` or `LastModifiedDate > TODAY`.
    case comparison(SOQLFieldPath, SOQLComparisonOperator, SOQLValue)
    /// `field LIKE 'pattern'`.
    ///
    /// The pattern keeps SOQL's LIKE escapes (`\%`, `\_`, `\\`) as two characters each, so
    /// `%` and `_` are wildcards only when not preceded by a backslash; quotes and control
    /// characters (`\'`, `\n`, …) are decoded.
    case like(SOQLFieldPath, pattern: String)
    /// `field IN (v1, v2, …)`, or `field NOT IN (…)` when `negated`.
    case `in`(SOQLFieldPath, [SOQLValue], negated: Bool)
    /// A semi-join `field IN (SELECT …)`, or an anti-join `field NOT IN (SELECT …)` when
    /// `negated`.
    case inSubquery(SOQLFieldPath, SOQLQuery, negated: Bool)

    /// Whether a semi-join or anti-join appears anywhere in this condition.
    public var containsSubquery: Bool {
        switch self {
        case .and(let operands), .or(let operands):
            return operands.contains { $0.containsSubquery }
        case .not(let operand):
            return operand.containsSubquery
        case .inSubquery:
            return true
        case .comparison, .like, .in:
            return false
        }
    }
}
