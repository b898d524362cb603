/// A form the SOQL grammar accepts but a Salesforce org refuses (Salesforce's semi-join and
/// anti-join restrictions, qualified object names outside a child sub-query).
///
/// The Mobile SDK runs whatever text a config holds, so syncrun parses these forms too and
/// reports them as warnings (`syncrun validate`) instead of dropping the sync.
public struct SOQLOrgRestriction: Sendable, Hashable {
    /// What the org refuses and what to write instead.
    public var message: String
    /// Where in the query text, when known (the sub-query's or object's name).
    public var sourceRange: SOQLSourceRange?
}

extension SOQLQuery {
    /// The most semi-joins and anti-joins a Salesforce WHERE clause may hold.
    public static let maximumSemiJoins = 2

    /// The forms in this query that parse but that a Salesforce org refuses, in text order:
    ///
    /// - a qualified FROM name (`Account.Contacts`) outside a child sub-query, or in a child
    ///   sub-query whose qualifier is not the main query's object;
    /// - more than ``maximumSemiJoins`` semi-joins or anti-joins in one WHERE clause;
    /// - a semi-join under `NOT` (write `NOT IN` instead), or in a sub-query's WHERE clause;
    /// - a semi-join sub-query on the main query's object, one with ORDER BY, LIMIT, OFFSET or
    ///   FOR, or one that does not select exactly one field without a relationship.
    ///
    /// A semi-join under `OR` is a parse error (``SOQLError/Code/semiJoinWithOr``).
    public var orgRestrictions: [SOQLOrgRestriction] {
        var found: [SOQLOrgRestriction] = []
        if let qualifier = objectQualifier {
            found.append(
                SOQLOrgRestriction(
                    message: "the org refuses the qualified object name '\(object)' in FROM; "
                        + "write '\(unqualifiedObject)' (only a child sub-query may write "
                        + "'\(qualifier).<relationship>')",
                    sourceRange: objectRange
                )
            )
        }
        for case .subquery(let child) in select {
            if let qualifier = child.objectQualifier, qualifier.lowercased() != object.lowercased() {
                found.append(
                    SOQLOrgRestriction(
                        message: "the org refuses '\(child.object)' in a sub-query of '\(object)': a child "
                            + "relationship may only be qualified with its parent's name; "
                            + "write '\(child.unqualifiedObject)' or '\(object).\(child.unqualifiedObject)'",
                        sourceRange: child.objectRange
                    )
                )
            }
            if let condition = child.condition {
                found += condition.semiJoins.map { join in
                    SOQLOrgRestriction(
                        message: "the org refuses a semi-join ('IN (SELECT ...)') in the WHERE clause of the "
                            + "sub-query on '\(child.object)'; filter the child records without it",
                        sourceRange: join.query.objectRange
                    )
                }
            }
        }
        if let condition { found += semiJoinRestrictions(in: condition) }
        return found
    }

    /// `'a'`, `'a' and 'b'`, `'a', 'b' and 'c'`.
    private static func joinedWithAnd(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
    }

    private func semiJoinRestrictions(in condition: SOQLCondition) -> [SOQLOrgRestriction] {
        var found: [SOQLOrgRestriction] = []
        let joins = condition.semiJoins
        if joins.count > Self.maximumSemiJoins {
            found.append(
                SOQLOrgRestriction(
                    message: "the org refuses more than \(Self.maximumSemiJoins) semi-joins or anti-joins "
                        + "('IN (SELECT ...)', 'NOT IN (SELECT ...)') in one WHERE clause; this one is number "
                        + "\(Self.maximumSemiJoins + 1)",
                    sourceRange: joins[Self.maximumSemiJoins].query.objectRange
                )
            )
        }
        for join in joins {
            let sub = join.query
            let range = sub.objectRange
            if join.isUnderNot {
                found.append(
                    SOQLOrgRestriction(
                        message: "the org refuses 'NOT' around a semi-join; write '\(join.field.text) NOT IN "
                            + "(SELECT ...)' (or 'IN' for a negated anti-join)",
                        sourceRange: range
                    )
                )
            }
            if sub.unqualifiedObject.lowercased() == unqualifiedObject.lowercased() {
                found.append(
                    SOQLOrgRestriction(
                        message: "the org refuses a semi-join sub-query on '\(sub.object)', the object of the main "
                            + "query; put its condition in the main query's WHERE clause",
                        sourceRange: range
                    )
                )
            }
            var clauses: [String] = []
            if !sub.orderBy.isEmpty { clauses.append("ORDER BY") }
            if sub.limit != nil { clauses.append("LIMIT") }
            if sub.offset != nil { clauses.append("OFFSET") }
            if sub.forClause != nil { clauses.append("FOR") }
            if !clauses.isEmpty {
                found.append(
                    SOQLOrgRestriction(
                        message: "the org refuses \(Self.joinedWithAnd(clauses.map { "'\($0)'" })) "
                            + "in a semi-join sub-query on '\(sub.object)'; remove it",
                        sourceRange: range
                    )
                )
            }
            let fields = sub.select.compactMap(\.fieldPath)
            let isOneOwnField = fields.count == 1 && fields[0].unqualified(by: sub.object).components.count == 1
            if sub.select.count != 1 || !isOneOwnField {
                found.append(
                    SOQLOrgRestriction(
                        message: "the org refuses a semi-join sub-query on '\(sub.object)' that does not select "
                            + "exactly one id or reference field of its own object; select one, such as 'Id'",
                        sourceRange: range
                    )
                )
            }
            if sub.objectQualifier != nil {
                found.append(
                    SOQLOrgRestriction(
                        message: "the org refuses the qualified object name '\(sub.object)' in a semi-join "
                            + "sub-query; write '\(sub.unqualifiedObject)'",
                        sourceRange: range
                    )
                )
            }
            if let inner = sub.condition, inner.containsSubquery {
                found.append(
                    SOQLOrgRestriction(
                        message: "the org refuses a semi-join nested in the semi-join sub-query on '\(sub.object)'; "
                            + "move it to the main query's WHERE clause",
                        sourceRange: range
                    )
                )
            }
        }
        return found
    }
}

/// A semi-join or anti-join found in a condition.
struct SemiJoin {
    var field: SOQLFieldPath
    var query: SOQLQuery
    var isUnderNot: Bool
}

extension SOQLCondition {
    /// How many semi-joins and anti-joins this condition holds (not counting nested sub-queries').
    public var semiJoinCount: Int { semiJoins.count }

    /// The semi-joins and anti-joins of this condition (not of nested sub-queries), in text order.
    var semiJoins: [SemiJoin] {
        collectSemiJoins(underNot: false)
    }

    private func collectSemiJoins(underNot: Bool) -> [SemiJoin] {
        switch self {
        case .and(let operands), .or(let operands):
            return operands.flatMap { $0.collectSemiJoins(underNot: underNot) }
        case .not(let operand):
            return operand.collectSemiJoins(underNot: true)
        case .inSubquery(let field, let query, _):
            return [SemiJoin(field: field, query: query, isUnderNot: underNot)]
        case .comparison, .like, .in:
            return []
        }
    }
}
