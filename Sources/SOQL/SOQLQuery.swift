/// A parsed SOQL query: the root of the syntax tree.
///
/// Build one with ``parse(_:)`` or in code with ``select(fields:from:where:)``, change it
/// with the sync mutations (``ensuringFields(_:)``, ``addingModifiedFilter(field:after:inclusive:)``,
/// ``idsOnly(idField:)``, …) and print it back with ``text``:
///
/// ```swift
/// let query = try SOQLQuery.parse("select Name from Account where Industry = 'Energy'")
/// let mutated = query.ensuringFields(["Id", "LastModifiedDate"])
///     .ensuringOrder(by: "LastModifiedDate")
/// mutated.text
/// // SELECT Id, LastModifiedDate, Name FROM Account WHERE Industry = 'Energy' ORDER BY LastModifiedDate
/// ```
///
/// Names are kept as spelled. Clauses are printed in SOQL's order: `SELECT`, `FROM`,
/// `USING SCOPE`, `WHERE`, `WITH`, `GROUP BY`, `HAVING`, `ORDER BY`, `LIMIT`, `OFFSET`,
/// `FOR`. Equality ignores source ranges, so `try SOQLQuery.parse(query.text) == query`.
public struct SOQLQuery: Sendable, Hashable {
    /// The select list; never empty in a parsed query.
    public var select: [SOQLSelectItem]
    /// The object after `FROM`, as spelled; in a select-list sub-query, the child
    /// relationship name (`Contacts`).
    public var object: String
    /// The scope of `USING SCOPE <scope>` (for example `Mine`), as spelled.
    public var usingScope: String?
    /// The `WHERE` condition.
    public var condition: SOQLCondition?
    /// The text after `WITH` (`SECURITY_ENFORCED`, `DATA CATEGORY Geography__c AT usa__c`),
    /// carried through verbatim with single spaces between tokens.
    public var withClause: String?
    /// The fields of `GROUP BY`; empty when there is none.
    public var groupBy: [SOQLFieldPath]
    /// The `HAVING` condition.
    public var having: SOQLCondition?
    /// The entries of `ORDER BY`; empty when there is none.
    public var orderBy: [SOQLOrderItem]
    /// The row limit of `LIMIT n`.
    public var limit: Int?
    /// The number of rows skipped by `OFFSET n`.
    public var offset: Int?
    /// The keyword after `FOR`: `VIEW`, `REFERENCE` or `UPDATE` (upper case).
    public var forClause: String?

    private var storedObjectRange: EqualityIgnored<SOQLSourceRange?>

    /// Where the object name was read from, when parsed. Ignored by equality.
    public var objectRange: SOQLSourceRange? {
        get { storedObjectRange.value }
        set { storedObjectRange.value = newValue }
    }

    /// Creates a query from its clauses.
    ///
    /// - Parameters:
    ///   - select: the select list; must not be empty for the query to be valid SOQL.
    ///   - object: the object (or child relationship) after `FROM`.
    ///   - usingScope: the scope of `USING SCOPE`, if any.
    ///   - condition: the `WHERE` condition, if any.
    ///   - withClause: the verbatim text after `WITH`, if any.
    ///   - groupBy: the `GROUP BY` fields.
    ///   - having: the `HAVING` condition, if any.
    ///   - orderBy: the `ORDER BY` entries.
    ///   - limit: the `LIMIT`, if any.
    ///   - offset: the `OFFSET`, if any.
    ///   - forClause: `VIEW`, `REFERENCE` or `UPDATE`, if any.
    ///   - objectRange: where the object name was read from, if parsed.
    public init(
        select: [SOQLSelectItem],
        object: String,
        usingScope: String? = nil,
        condition: SOQLCondition? = nil,
        withClause: String? = nil,
        groupBy: [SOQLFieldPath] = [],
        having: SOQLCondition? = nil,
        orderBy: [SOQLOrderItem] = [],
        limit: Int? = nil,
        offset: Int? = nil,
        forClause: String? = nil,
        objectRange: SOQLSourceRange? = nil
    ) {
        self.select = select
        self.object = object
        self.usingScope = usingScope
        self.condition = condition
        self.withClause = withClause
        self.groupBy = groupBy
        self.having = having
        self.orderBy = orderBy
        self.limit = limit
        self.offset = offset
        self.forClause = forClause
        self.storedObjectRange = EqualityIgnored(objectRange)
    }

    /// Parses SOQL text.
    ///
    /// Keywords, object and field names are case-insensitive; whitespace is any mix of
    /// spaces, tabs and line breaks.
    ///
    /// ```swift
    /// do {
    ///     let query = try SOQLQuery.parse("SELECT Id FROM Account WHERE Name LIKE 'Acme%'")
    /// } catch let error as SOQLError {
    ///     // error.utf8Offset points at the problem in the text
    /// }
    /// ```
    ///
    /// - Parameter text: the query.
    /// - Returns: the syntax tree.
    /// - Throws: ``SOQLError`` with the byte offset of the first problem.
    public static func parse(_ text: String) throws -> SOQLQuery {
        var parser = try Parser(text: text)
        return try parser.parseStatement()
    }

    /// The field paths of the top-level select list, in order (sub-queries and `COUNT()`
    /// left out).
    public var selectedFields: [SOQLFieldPath] {
        select.compactMap(\.fieldPath)
    }

    /// Whether the top-level select list names `dotted` (case-insensitive), ignoring
    /// sub-queries. A field qualified with the object's name counts as the field itself:
    /// `Account.Id` in `SELECT Account.Id FROM Account` is `Id`.
    public func selects(_ dotted: String) -> Bool {
        selectedFields.contains { $0.unqualified(by: object).matches(dotted) }
    }

    /// The qualifier of a qualified FROM name: `Account` for `Account.Contacts` (a child
    /// sub-query may name its relationship so); `nil` when the name has no dot.
    public var objectQualifier: String? {
        let components = SOQLFieldPath(object).components
        return components.count > 1 ? components.dropLast().joined(separator: ".") : nil
    }

    /// The FROM name without its qualifier: `Contacts` for `Account.Contacts`.
    public var unqualifiedObject: String { SOQLFieldPath(object).name }
}
