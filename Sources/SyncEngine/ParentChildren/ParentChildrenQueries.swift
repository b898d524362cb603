import SOQL
import SyncConfig

/// The queries of a `parent_children` target (sync-semantics §9.4, §6, §11 item 18), built on the
/// SOQL module's syntax tree.
///
/// - Changed parents: `SELECT <parent fields, id, mod>, (SELECT <child fields, id, mod> FROM
///   <Plural>) FROM <Parent> WHERE <mod> >= M AND (<filter>) ORDER BY <mod>`. The nested query has
///   no filter: a parent that changed may have just entered the filter, and then its older
///   children are new to the soup too.
/// - Parents with changed children only (§11 item 18): `… (SELECT … FROM <Plural> WHERE
///   <childMod> >= M) FROM <Parent> WHERE <id> IN (SELECT <parentIdFieldName> FROM <Child> WHERE
///   <childMod> >= M) AND <mod> < M AND (<filter>) ORDER BY <mod>`. A semi-join cannot sit in an
///   `OR` in Salesforce SOQL, hence two queries; `<mod> < M` leaves out the parents the first
///   query returned.
/// - Ghost ids: `SELECT <id>, (SELECT <childId> FROM <Plural>) FROM <Parent> WHERE <filter>`.
struct ParentChildrenQueries: Sendable {
    let target: ParentChildrenSyncDownTarget
    /// The parsed `parentSoqlFilter`.
    let filter: SOQLCondition?

    /// Parses the target's filter.
    ///
    /// - Throws: `SyncEngineError` `.invalidTarget` when `parentSoqlFilter` is not a SOQL condition.
    init(syncName: String, target: ParentChildrenSyncDownTarget) throws {
        self.target = target
        let text = target.parentSoqlFilter ?? ""
        guard !text.allSatisfy(\.isWhitespace) else {
            filter = nil
            return
        }
        do {
            filter = try SOQLQuery.parse("SELECT Id FROM \(target.parent.sobjectType) WHERE \(text)").condition
        } catch {
            throw SyncEngineError.invalidParentFilter(syncName, object: target.parent.sobjectType, "\(error)")
        }
    }

    private var parent: ParentInfo { target.parent }
    private var children: ChildrenInfo { target.children }

    private var parentFields: [SOQLSelectItem] {
        SOQLText.ensuring(
            [parent.idFieldName, parent.modificationDateFieldName],
            in: target.parentFieldlist,
            object: parent.sobjectType
        )
        .map { .field(SOQLFieldPath($0)) }
    }

    private func nested(since milliseconds: Int64?) -> SOQLSelectItem {
        let fields = SOQLText.ensuring(
            [children.idFieldName, children.modificationDateFieldName],
            in: target.childrenFieldlist,
            object: children.sobjectType
        )
        let condition = milliseconds.map {
            SOQLCondition.modified(field: children.modificationDateFieldName, after: $0, inclusive: true)
        }
        return .subquery(.select(fields: fields, from: children.sobjectTypePlural, where: condition))
    }

    private func parents(_ conditions: [SOQLCondition], children since: Int64?) -> SOQLQuery {
        SOQLQuery(
            select: parentFields + [nested(since: since)],
            object: parent.sobjectType,
            condition: .all(conditions + (filter.map { [$0] } ?? [])),
            orderBy: [SOQLOrderItem(SOQLFieldPath(parent.modificationDateFieldName))]
        )
    }

    /// Every parent (`maxTimeStamp` ≤ 0) or the parents modified at or after it, with all
    /// their children.
    func changedParents(since maxTimeStamp: Int64) -> SOQLQuery {
        guard maxTimeStamp > 0 else { return parents([], children: nil) }
        return parents(
            [.modified(field: parent.modificationDateFieldName, after: maxTimeStamp, inclusive: true)],
            children: nil
        )
    }

    /// The parents modified before `maxTimeStamp` with a child modified at or after it, with
    /// those children.
    func parentsOfChangedChildren(since maxTimeStamp: Int64) -> SOQLQuery {
        let changedChildren = SOQLQuery.select(
            fields: [children.parentIdFieldName],
            from: children.sobjectType,
            where: .modified(field: children.modificationDateFieldName, after: maxTimeStamp, inclusive: true)
        )
        return parents(
            [
                .inSubquery(SOQLFieldPath(parent.idFieldName), changedChildren, negated: false),
                .comparison(
                    SOQLFieldPath(parent.modificationDateFieldName),
                    .less,
                    .dateTime(SOQLDateTime(millisecondsSinceEpoch: maxTimeStamp))
                ),
            ],
            children: maxTimeStamp
        )
    }

    /// The ids of the parents the target returns now, each with its children's ids.
    var ids: SOQLQuery {
        SOQLQuery(
            select: [
                .field(SOQLFieldPath(parent.idFieldName)),
                .subquery(.select(fields: [children.idFieldName], from: children.sobjectTypePlural)),
            ],
            object: parent.sobjectType,
            condition: filter
        )
    }
}
