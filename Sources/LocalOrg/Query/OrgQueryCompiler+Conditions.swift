import Foundation
import GRDB
import SOQL

/// WHERE clauses: comparisons, LIKE, IN lists, semi-joins and date literals, with SOQL's null rules
/// (`!=` and `NOT IN` match empty fields; `NOT` is two-valued).
extension OrgQueryCompiler {
    func compile(_ condition: SOQLCondition, scope: OrgQueryScope) throws -> SQLFragment {
        switch condition {
        case .and(let operands):
            return SQLFragment.joined(try operands.map { try compile($0, scope: scope) }, separator: " AND ")
        case .or(let operands):
            if operands.contains(where: \.containsSubquery) {
                throw OrgError.malformedQuery("semi join sub-selects are not allowed with the 'OR' operator")
            }
            return SQLFragment.joined(try operands.map { try compile($0, scope: scope) }, separator: " OR ")
        case .not(let operand):
            var sql = SQLFragment("NOT coalesce((")
            sql.append(try compile(operand, scope: scope))
            sql.append("), 0)")
            return sql
        case .comparison(let path, let op, let value):
            let resolved = try scope.resolve(path.components, for: checked(.filtered))
            return try comparison(OrgSQL.column(resolved.alias, resolved.field.name), field: resolved.field, op, value)
        case .like(let path, let pattern):
            let resolved = try scope.resolve(path.components, for: checked(.filtered))
            guard resolved.field.type.isText || resolved.field.type == .id || resolved.field.type == .reference else {
                throw OrgError.filterValueType(field: resolved.field.name, expected: "string for LIKE")
            }
            return SQLFragment(
                "\(OrgSQL.column(resolved.alias, resolved.field.name)) LIKE ? ESCAPE '\\'",
                [pattern.databaseValue]
            )
        case .in(let path, let values, let negated):
            let resolved = try scope.resolve(path.components, for: checked(.filtered))
            let column = OrgSQL.column(resolved.alias, resolved.field.name)
            let hasNull = values.contains(.null)
            let bound = try values.filter { $0 != .null }.map { try bind($0, for: resolved.field) }
            var parts: [String] = []
            if !bound.isEmpty {
                let list = Array(repeating: "?", count: bound.count).joined(separator: ", ")
                parts.append("\(column) \(negated ? "NOT IN" : "IN") (\(list))")
            }
            if hasNull { parts.append("\(column) \(negated ? "IS NOT NULL" : "IS NULL")") }
            if negated, !hasNull { parts = ["\(column) IS NULL OR " + (parts.first ?? "0")] }
            let joiner = negated ? " AND " : " OR "
            return SQLFragment("(" + parts.joined(separator: joiner) + ")", bound)
        case .inSubquery(let path, let subquery, let negated):
            let resolved = try scope.resolve(path.components, for: checked(.filtered))
            let column = OrgSQL.column(resolved.alias, resolved.field.name)
            var inner = try semiJoin(subquery, aliases: scope.aliases)
            if negated {
                var sql = SQLFragment("(\(column) IS NULL OR \(column) NOT IN (")
                sql.append(inner)
                sql.append("))")
                return sql
            }
            inner = SQLFragment("\(column) IN (") + inner
            inner.append(")")
            return inner
        }
    }

    /// `SELECT s.field FROM … WHERE …` for `field IN (SELECT field FROM Object WHERE …)`.
    private func semiJoin(_ query: SOQLQuery, aliases: OrgQueryScope.AliasGenerator) throws -> SQLFragment {
        let object = try context.queryObject(query.object)
        guard query.select.count == 1, let path = query.selectedFields.first else {
            throw OrgError.malformedQuery("a semi-join sub-select must select exactly one field")
        }
        let scope = OrgQueryScope(object: object, schema: context.schema, aliases: aliases)
        let resolved = try scope.resolve(path.components)
        let column = OrgSQL.column(resolved.alias, resolved.field.name)
        var conditions = [
            SQLFragment("\(OrgSQL.column(scope.alias, "IsDeleted")) = 0"), SQLFragment("\(column) IS NOT NULL"),
        ]
        if let condition = query.condition { conditions.append(try compile(condition, scope: scope)) }
        let body = SQLFragment.joined(conditions, separator: " AND ")
        var sql = SQLFragment("SELECT \(column) FROM \(scope.fromClause) \(scope.joinClause) WHERE ")
        sql.append(body)
        if let limit = query.limit { sql.append(" LIMIT \(limit)") }
        return sql
    }

    private func comparison(_ column: String, field: OrgField, _ op: SOQLComparisonOperator, _ value: SOQLValue)
        throws -> SQLFragment
    {
        if value == .null {
            switch op {
            case .equal: return SQLFragment("\(column) IS NULL")
            case .notEqual: return SQLFragment("\(column) IS NOT NULL")
            default: return SQLFragment("0")
            }
        }
        if case .dateLiteral(let literal) = value {
            let (lower, upper) = try bounds(of: literal, for: field)
            switch op {
            case .equal: return SQLFragment("(\(column) >= ? AND \(column) < ?)", [lower, upper])
            case .notEqual:
                return SQLFragment("(\(column) IS NULL OR \(column) < ? OR \(column) >= ?)", [lower, upper])
            case .less: return SQLFragment("\(column) < ?", [lower])
            case .lessOrEqual: return SQLFragment("\(column) < ?", [upper])
            case .greater: return SQLFragment("\(column) >= ?", [upper])
            case .greaterOrEqual: return SQLFragment("\(column) >= ?", [lower])
            }
        }
        let bound = try bind(value, for: field)
        if op == .notEqual { return SQLFragment("\(column) IS NOT ?", [bound]) }
        return SQLFragment("\(column) \(op.rawValue) ?", [bound])
    }

    /// The stored bounds `[lower, upper)` of a date literal for a date or date-time field, in the
    /// configured time zone.
    private func bounds(of literal: SOQLDateLiteral, for field: OrgField) throws -> (DatabaseValue, DatabaseValue) {
        let now = context.configuration.now()
        let offset = Int64(context.configuration.timeZone.secondsFromGMT(for: now)) * 1000
        let range = literal.range(at: OrgDateTime.milliseconds(now) + offset)
        switch field.type {
        case .datetime:
            return ((range.lowerBound - offset).databaseValue, (range.upperBound - offset).databaseValue)
        case .date:
            let lower = OrgDateTime.formatDate(days: OrgDateTime.floorDivide(range.lowerBound, 86_400_000))
            let upper = OrgDateTime.formatDate(days: OrgDateTime.floorDivide(range.upperBound, 86_400_000))
            return (lower.databaseValue, upper.databaseValue)
        default:
            throw OrgError.filterValueType(field: field.name, expected: field.type.rawValue)
        }
    }

    /// A literal as the stored value for comparison with `field`.
    func bind(_ value: SOQLValue, for field: OrgField) throws -> DatabaseValue {
        switch (field.type, value) {
        case (.id, .string(let text)), (.reference, .string(let text)):
            guard let id = OrgRecordID.normalize(text) else { throw OrgError.invalidIDFilter(text) }
            return id.databaseValue
        case (let type, .string(let text)) where type.isText:
            return text.databaseValue
        case (.boolean, .boolean(let flag)):
            return (flag ? 1 : 0).databaseValue
        case (let type, .integer(let number)) where type.isNumeric:
            return type == .int ? number.databaseValue : Double(number).databaseValue
        case (let type, .decimal(let text)) where type.isNumeric:
            guard let number = Double(text) else {
                throw OrgError.filterValueType(field: field.name, expected: "number")
            }
            return number.databaseValue
        case (.date, .date(let date)):
            return date.text.databaseValue
        case (.datetime, .dateTime(let dateTime)):
            return dateTime.millisecondsSinceEpoch.databaseValue
        default:
            throw OrgError.filterValueType(field: field.name, expected: Self.expectedLiteral(field.type))
        }
    }

    private static func expectedLiteral(_ type: OrgFieldType) -> String {
        switch type {
        case .boolean: "boolean and should not be enclosed in quotes"
        case .int, .double, .currency, .percent: "number and should not be enclosed in quotes"
        case .date: "date and should not be enclosed in quotes"
        case .datetime: "dateTime and should not be enclosed in quotes"
        default: "string and should be enclosed in quotes"
        }
    }
}

extension OrgQueryCompiler {
    /// `use`, or `nil` (no describe check) for the local org's own queries (SOSL's text match).
    func checked(_ use: OrgQueryScope.FieldUse) -> OrgQueryScope.FieldUse? { checksClauseFields ? use : nil }
}

extension OrgError {
    /// `INVALID_FIELD`: a WHERE, ORDER BY or GROUP BY names a field whose describe says it is not
    /// `filterable`, `sortable` or `groupable`, worded as a real org words it.
    static func fieldNotUsable(_ field: String, _ use: String) -> OrgError {
        OrgError(status: 400, code: .invalidField, message: "field '\(field)' can not be \(use) in a query call")
    }
}
