extension SOQLQuery {
    /// A query over `object` selecting `fields`, optionally filtered.
    ///
    /// ```swift
    /// SOQLQuery.select(fields: ["Id", "Name"], from: "Account", where: .idIn(["001A", "001B"])).text
    /// // SELECT Id, Name FROM Account WHERE Id IN ('001A', '001B')
    /// ```
    ///
    /// - Parameters:
    ///   - fields: field names or dotted paths; should not be empty.
    ///   - object: the object name.
    ///   - condition: the WHERE condition, if any.
    public static func select(fields: [String], from object: String, where condition: SOQLCondition? = nil)
        -> SOQLQuery
    {
        SOQLQuery(select: fields.map { .field(SOQLFieldPath($0)) }, object: object, condition: condition)
    }

    /// `SELECT fields FROM object WHERE CreatedById = 'user' AND CreatedDate >= since`: the records
    /// a user created from an instant on (how a create whose answer was lost is found again).
    ///
    /// - Parameter since: milliseconds since the Unix epoch.
    public static func select(fields: [String], from object: String, createdBy userID: String, since: Int64)
        -> SOQLQuery
    {
        select(
            fields: fields,
            from: object,
            where: .all([
                .comparison(SOQLFieldPath("CreatedById"), .equal, .string(userID)),
                .comparison(
                    SOQLFieldPath("CreatedDate"),
                    .greaterOrEqual,
                    .dateTime(SOQLDateTime(millisecondsSinceEpoch: since))
                ),
            ])
        )
    }
}

extension SOQLCondition {
    /// The most ids the Mobile SDK puts in one `Id IN (…)` list, keeping the GET URL short
    /// (`MAX_COUNT_IDS_PER_SOQL`).
    public static let maximumIDsPerQuery = 500

    /// `field IN ('id1', 'id2', …)`; slice long lists by ``maximumIDsPerQuery``.
    ///
    /// - Parameters:
    ///   - ids: the record ids.
    ///   - field: the id field, `Id` by default.
    public static func idIn(_ ids: [String], field: String = "Id") -> SOQLCondition {
        .in(SOQLFieldPath(field), ids.map(SOQLValue.string), negated: false)
    }

    /// `field > mark` (or `>=` when `inclusive`), the mark written as a UTC date-time
    /// literal: `LastModifiedDate > 2024-03-05T17:04:11.000Z`.
    public static func modified(field: String, after milliseconds: Int64, inclusive: Bool = false) -> SOQLCondition {
        .comparison(
            SOQLFieldPath(field),
            inclusive ? .greaterOrEqual : .greater,
            .dateTime(SOQLDateTime(millisecondsSinceEpoch: milliseconds))
        )
    }

    /// The conjunction of `conditions`: `nil` when empty, the condition itself when there
    /// is one, otherwise `.and(conditions)`.
    public static func all(_ conditions: [SOQLCondition]) -> SOQLCondition? {
        switch conditions.count {
        case 0: return nil
        case 1: return conditions[0]
        default: return .and(conditions)
        }
    }
}
