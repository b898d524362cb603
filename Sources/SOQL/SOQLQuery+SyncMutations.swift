// The query rewrites a sync down needs (sync-semantics.md §4.4, §5, §6), done on the
// syntax tree instead of on tokens, which fixes the Mobile SDK's weak points 9 to 13:
// field names match case-insensitively, any whitespace works, WITH / USING SCOPE / FOR
// stay in place, the original condition keeps its meaning, and literals are in UTC.

extension SOQLQuery {
    /// The query with `names` prepended to the top-level select list, for those not already
    /// selected.
    ///
    /// Matching is case-insensitive (`lastmodifieddate` counts as `LastModifiedDate`);
    /// sub-queries are ignored. Missing names are prepended in the order given, so
    /// `ensuringFields(["Id", "LastModifiedDate"])` turns `SELECT Name FROM Account` into
    /// `SELECT Id, LastModifiedDate, Name FROM Account`.
    ///
    /// A `COUNT()` query cannot select fields as well; check ``select`` before using this on
    /// a query that did not come from a sync target.
    ///
    /// - Parameter names: field names or dotted paths, such as `Id` and `LastModifiedDate`.
    /// - Returns: the query with the fields present.
    public func ensuringFields(_ names: [String]) -> SOQLQuery {
        var missing: [SOQLSelectItem] = []
        for name in names where !selects(name) && !missing.contains(where: { $0.fieldPath?.matches(name) == true }) {
            missing.append(.field(SOQLFieldPath(name)))
        }
        var query = self
        query.select = missing + select
        return query
    }

    /// The query with `ORDER BY field` added when it has no ORDER BY; an existing ORDER BY
    /// is kept as it is.
    public func ensuringOrder(by field: String) -> SOQLQuery {
        guard orderBy.isEmpty else { return self }
        var query = self
        query.orderBy = [SOQLOrderItem(SOQLFieldPath(field))]
        return query
    }

    /// Whether ORDER BY is exactly `fields`, each ascending, in that order (names compared
    /// case-insensitively, a qualifier naming the object ignored: `Account.LastModifiedDate`
    /// in `FROM Account` is `LastModifiedDate`).
    ///
    /// A sync down saves its high-water mark after every page only when the query is
    /// ordered by the modification field alone: `ORDER BY LastModifiedDate` (or `… ASC`)
    /// is, `ORDER BY LastModifiedDate DESC` and `ORDER BY LastModifiedDate, Name` are not.
    public func isOrdered(by fields: [String]) -> Bool {
        orderBy.count == fields.count
            && zip(orderBy, fields).allSatisfy { item, field in
                item.isAscending && item.field.unqualified(by: object).matches(field)
            }
    }

    /// Whether ORDER BY is exactly `field`, ascending; the one-field form of `isOrdered(by: [String])`.
    public func isOrdered(by field: String) -> Bool {
        isOrdered(by: [field])
    }

    /// Whether the query has a LIMIT or an OFFSET, so it returns a subset of the matching
    /// rows that depends on its ORDER BY.
    public var hasLimitOrOffset: Bool { limit != nil || offset != nil }

    /// The query with `extra` required in front of the existing condition:
    /// `WHERE extra AND (original)`, or `WHERE extra` when there was none.
    ///
    /// The original condition is kept as one operand, so it is printed in parentheses
    /// whenever it is an `AND`/`OR` group and its meaning never changes.
    public func addingCondition(_ extra: SOQLCondition) -> SOQLQuery {
        var query = self
        if let condition {
            query.condition = .and([extra, condition])
        } else {
            query.condition = extra
        }
        return query
    }

    /// The query restricted to rows modified after an instant, for an incremental resync.
    ///
    /// ```swift
    /// try SOQLQuery.parse("SELECT Id FROM Account WHERE A = 1 OR B = 2")
    ///     .addingModifiedFilter(field: "LastModifiedDate", after: 1_709_658_251_000)
    ///     .text
    /// // SELECT Id FROM Account WHERE LastModifiedDate > 2024-03-05T17:04:11.000Z AND (A = 1 OR B = 2)
    /// ```
    ///
    /// - Parameters:
    ///   - field: the modification field, such as `LastModifiedDate` or `SystemModstamp`.
    ///   - milliseconds: the high-water mark, in milliseconds since the epoch.
    ///   - inclusive: `true` for `>=` (re-read rows stamped exactly at the mark and
    ///     de-duplicate), `false` for the Mobile SDK's `>`.
    /// - Returns: the query with `field > mark AND (original condition)`.
    public func addingModifiedFilter(field: String, after milliseconds: Int64, inclusive: Bool = false) -> SOQLQuery {
        addingCondition(.modified(field: field, after: milliseconds, inclusive: inclusive))
    }

    /// The query resuming strictly after the last row read, safe against rows that share a
    /// timestamp: `(field > t OR (field = t AND Id > 'lastID')) AND (original)`, ordered by
    /// `field, Id`.
    ///
    /// Any existing ORDER BY is replaced, because resuming is only correct in that order.
    ///
    /// - Parameters:
    ///   - field: the modification field.
    ///   - milliseconds: the modification value `t` of the last row read.
    ///   - idField: the id field, usually `Id`.
    ///   - lastID: the id of the last row read.
    /// - Returns: the resuming query.
    public func addingResumeFilter(field: String, after milliseconds: Int64, idField: String, lastID: String)
        -> SOQLQuery
    {
        let modified = SOQLFieldPath(field)
        let stamp = SOQLValue.dateTime(SOQLDateTime(millisecondsSinceEpoch: milliseconds))
        let resume = SOQLCondition.or([
            .comparison(modified, .greater, stamp),
            .and([
                .comparison(modified, .equal, stamp),
                .comparison(SOQLFieldPath(idField), .greater, .string(lastID)),
            ]),
        ])
        var query = addingCondition(resume)
        query.orderBy = [SOQLOrderItem(modified), SOQLOrderItem(SOQLFieldPath(idField))]
        return query
    }

    /// The query that lists the ids of the rows it matches, for cleaning ghosts.
    ///
    /// The select list becomes the id field; WHERE, WITH, USING SCOPE, LIMIT and OFFSET
    /// are kept. ORDER BY is dropped, except with a LIMIT or OFFSET: then the order decides
    /// which rows are returned, and dropping it could list a different subset than the
    /// sync fetched (and delete valid rows).
    ///
    /// - Parameter idField: the id field, usually `Id`.
    /// - Returns: the id query.
    public func idsOnly(idField: String) -> SOQLQuery {
        var query = self
        query.select = [.field(SOQLFieldPath(idField))]
        if !hasLimitOrOffset { query.orderBy = [] }
        return query
    }
}
