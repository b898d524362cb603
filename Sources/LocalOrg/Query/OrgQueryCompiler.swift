import Foundation
import GRDB
import SOQL

/// A SOQL query compiled to SQL over the object tables: the record JSON expression, FROM/JOIN, WHERE,
/// ORDER BY and the SOQL LIMIT/OFFSET.
struct OrgCompiledQuery {
    var object: OrgObject
    var isCount: Bool
    var projection: SQLFragment
    /// The root table's alias (`t1`).
    var rootAlias: String
    /// The LEFT JOIN clauses for parent paths.
    var joins: String
    var condition: SQLFragment
    var orderBy: String
    var limit: Int?
    var offset: Int?

    /// `"Account" t1 LEFT JOIN …`.
    var from: String { OrgSQL.identifier(object.name) + " " + rootAlias + " " + joins }

    /// `FROM … WHERE … ORDER BY … LIMIT … OFFSET …` with the SOQL limits applied.
    var tail: SQLFragment {
        var sql = SQLFragment(" FROM \(from) WHERE ")
        sql.append(condition)
        sql.append(orderBy)
        if limit != nil || offset != nil { sql.append(" LIMIT \(limit ?? -1) OFFSET \(offset ?? 0)") }
        return sql
    }
}

/// Compiles the SOQL syntax tree (module `SOQL`) into one SQL statement; every literal is bound.
struct OrgQueryCompiler {
    let context: OrgContext
    let apiVersion: String
    let includeDeleted: Bool
    /// Whether WHERE, ORDER BY and GROUP BY fields must be filterable, sortable and groupable
    /// (off for SOSL, whose text match reaches long text areas as a real org's search index does).
    var checksClauseFields = true

    static let maximumOffset = 2000

    /// Parses and compiles `soql`.
    /// - Throws: ``OrgError`` `MALFORMED_QUERY` with the parser's message, `INVALID_TYPE`, `INVALID_FIELD`,
    ///   `INVALID_QUERY_FILTER_OPERATOR`, `NUMBER_OUTSIDE_VALID_RANGE` (all 400).
    func compile(_ soql: String) throws -> OrgCompiledQuery {
        try compile(Self.parse(soql))
    }

    /// Parses `soql`, reporting a syntax error as a real org does: the parser's message and
    /// `ERROR at Row:{line}:Column:{column}`.
    /// - Throws: ``OrgError`` `MALFORMED_QUERY` (400).
    static func parse(_ soql: String) throws -> SOQLQuery {
        do {
            return try SOQLQuery.parse(soql)
        } catch let error as SOQLError {
            let position = error.lineAndColumn(in: soql)
            throw OrgError.malformedQuery("\(error.message)\nERROR at Row:\(position.line):Column:\(position.column)")
        }
    }

    func compile(_ query: SOQLQuery) throws -> OrgCompiledQuery {
        if !query.groupBy.isEmpty || query.having != nil {
            let object = try context.queryObject(query.object)
            let scope = OrgQueryScope(object: object, schema: context.schema, aliases: OrgQueryScope.AliasGenerator())
            for path in query.groupBy { _ = try scope.resolve(path.components, for: checked(.grouped)) }
            throw OrgError.unsupportedQuery("GROUP BY and HAVING are not supported by the local org")
        }
        if let offset = query.offset, offset > Self.maximumOffset { throw OrgError.offsetTooLarge(offset) }
        let object = try context.queryObject(query.object)
        let scope = OrgQueryScope(object: object, schema: context.schema, aliases: OrgQueryScope.AliasGenerator())
        let isCount = query.select.contains(.count)
        if isCount, query.select.count > 1 {
            throw OrgError.malformedQuery("COUNT() cannot be combined with other fields in the select list")
        }
        let projection = OrgProjection(object: object, alias: scope.alias)
        for item in query.select {
            switch item {
            case .field(let path): try projection.add(path: path.components, scope: scope)
            case .subquery(let subquery):
                let (key, expression) = try compileChild(subquery, parent: scope)
                projection.add(key: key, expression: expression)
            case .count: break
            case .typeOf(let typeOf): try projection.add(typeOf: typeOf, scope: scope)
            }
        }
        var conditions: [SQLFragment] = []
        if !includeDeleted { conditions.append(SQLFragment("\(OrgSQL.column(scope.alias, "IsDeleted")) = 0")) }
        if query.usingScope?.lowercased() == "mine", object.field(named: "OwnerId") != nil {
            conditions.append(
                SQLFragment("\(OrgSQL.column(scope.alias, "OwnerId")) = ?", [context.userID.databaseValue])
            )
        }
        if let condition = query.condition { conditions.append(try compile(condition, scope: scope)) }
        let orderBy = try compileOrder(query.orderBy, scope: scope)
        let rendered =
            isCount ? SQLFragment("NULL") : projection.render(urlPrefix: "/services/data/v\(apiVersion)/sobjects/")
        return OrgCompiledQuery(
            object: object,
            isCount: isCount,
            projection: rendered,
            rootAlias: scope.alias,
            joins: scope.joinClause,
            condition: conditions.isEmpty ? SQLFragment("1") : SQLFragment.joined(conditions, separator: " AND "),
            orderBy: orderBy,
            limit: query.limit,
            offset: query.offset
        )
    }

    /// A child subquery as a correlated scalar subquery producing `{"totalSize","done","records"}` or `null`.
    private func compileChild(_ query: SOQLQuery, parent: OrgQueryScope) throws -> (String, SQLFragment) {
        // The relationship may be qualified with the parent's name, as Salesforce allows: `Account.Contacts`.
        let isQualifiedByParent = query.objectQualifier.map { $0.lowercased() == parent.object.name.lowercased() }
        let name = isQualifiedByParent == true ? query.unqualifiedObject : query.object
        guard let relationship = context.schema.childRelationship(of: parent.object.name, named: name),
            let child = context.schema.object(named: relationship.childObject)
        else {
            throw OrgError(
                status: 400,
                code: .invalidType,
                message:
                    "Didn't understand relationship '\(query.object)' in FROM part of query call. If you are attempting to use a custom relationship, be sure to append the '__r' after the custom relationship name. Please reference your WSDL or the describe call for the appropriate names."
            )
        }
        if query.select.contains(where: { if case .field = $0 { false } else { true } }) {
            throw OrgError.malformedQuery("a subquery may only select fields")
        }
        let scope = OrgQueryScope(object: child, schema: context.schema, aliases: parent.aliases)
        let projection = OrgProjection(object: child, alias: scope.alias)
        for path in query.selectedFields { try projection.add(path: path.components, scope: scope) }
        var conditions = [
            SQLFragment("\(OrgSQL.column(scope.alias, relationship.field)) = \(OrgSQL.column(parent.alias, "Id"))")
        ]
        if !includeDeleted { conditions.append(SQLFragment("\(OrgSQL.column(scope.alias, "IsDeleted")) = 0")) }
        if let condition = query.condition { conditions.append(try compile(condition, scope: scope)) }
        let rows = projection.render(urlPrefix: "/services/data/v\(apiVersion)/sobjects/")
        let orderBy = try compileOrder(query.orderBy, scope: scope)
        var sql = SQLFragment(
            "coalesce((SELECT CASE WHEN count(*) = 0 THEN NULL ELSE '{\"totalSize\":' || count(*) || ',\"done\":true,\"records\":[' || group_concat(r, ',') || ']}' END FROM (SELECT "
        )
        sql.append(rows)
        sql.append(" AS r FROM \(scope.fromClause) \(scope.joinClause) WHERE ")
        sql.append(SQLFragment.joined(conditions, separator: " AND "))
        sql.append(orderBy)
        if let limit = query.limit { sql.append(" LIMIT \(limit)") }
        sql.append(")), 'null')")
        return (relationship.relationshipName ?? name, sql)
    }

    /// ` ORDER BY …, t1.rowid` (the row ID keeps ties, and so pages, stable).
    private func compileOrder(_ items: [SOQLOrderItem], scope: OrgQueryScope) throws -> String {
        var terms: [String] = []
        for item in items {
            let resolved = try scope.resolve(item.field.components, for: checked(.sorted))
            var term = OrgSQL.column(resolved.alias, resolved.field.name) + (item.isAscending ? " ASC" : " DESC")
            switch item.nulls {
            case .first: term += " NULLS FIRST"
            case .last: term += " NULLS LAST"
            case .unspecified: break
            }
            terms.append(term)
        }
        terms.append("\(scope.alias).rowid")
        return " ORDER BY " + terms.joined(separator: ", ")
    }
}
