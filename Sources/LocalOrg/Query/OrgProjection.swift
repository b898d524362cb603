import GRDB

/// The JSON shape of one record in a result: its output keys in order, each a column, a nested parent
/// record or a precompiled SQL expression (child subqueries), rendered by SQLite as JSON text.
final class OrgProjection {
    enum Entry {
        case column(alias: String, field: OrgField)
        case parent(lookupAlias: String, OrgProjection)
        case expression(SQLFragment)
    }

    let object: OrgObject
    let alias: String
    private(set) var entries: [(key: String, entry: Entry)] = []

    init(object: OrgObject, alias: String) {
        self.object = object
        self.alias = alias
    }

    private func index(of key: String) -> Int? {
        let lowered = key.lowercased()
        return entries.firstIndex { $0.key.lowercased() == lowered }
    }

    /// Adds a dotted field path, creating nested parent records for its relationship names.
    func add(path components: [String], scope: OrgQueryScope) throws {
        let resolved = try scope.resolve(components)
        var node = self
        var relationships = components.dropLast()
        if relationships.count > 0, relationships[relationships.startIndex].lowercased() == object.name.lowercased(),
            object.field(forRelationship: relationships[relationships.startIndex]) == nil
        {
            relationships = relationships.dropFirst()
        }
        var walked: [String] = []
        for name in relationships {
            walked.append(name)
            let parent = try scope.relationship(walked[...])
            let key = node.object.field(forRelationship: name)?.relationshipName ?? name
            if let position = node.index(of: key), case .parent(_, let existing) = node.entries[position].entry {
                node = existing
            } else {
                let child = OrgProjection(object: parent.object, alias: parent.alias)
                node.entries.append((key, .parent(lookupAlias: parent.alias, child)))
                node = child
            }
        }
        if node.index(of: resolved.field.name) == nil {
            node.entries.append((resolved.field.name, .column(alias: resolved.alias, field: resolved.field)))
        }
    }

    /// Adds every field of the object as a column.
    func addAllFields() {
        for field in object.fields where index(of: field.name) == nil {
            entries.append((field.name, .column(alias: alias, field: field)))
        }
    }

    /// Adds an expression under `key` (a child subquery's result).
    func add(key: String, expression: SQLFragment) {
        entries.append((key, .expression(expression)))
    }

    /// The SQL expression producing the record's JSON text, `attributes` first.
    /// - Parameter urlPrefix: `/services/data/v59.0/sobjects/` (bound as an argument).
    func render(urlPrefix: String) -> SQLFragment {
        var sql: SQLFragment
        if object.name == OrgQueryScope.polymorphicObjectName {
            // A polymorphic parent: its type is the row's own (the union's `Type`).
            let type = OrgSQL.column(alias, "Type")
            sql = SQLFragment(
                OrgSQL.literal("{\"attributes\":{\"type\":") + " || json_quote(\(type)) || "
                    + OrgSQL.literal(",\"url\":")
                    + " || json_quote(? || \(type) || '/' || \(OrgSQL.column(alias, "Id"))) || '}'",
                [urlPrefix.databaseValue]
            )
        } else {
            let attributes = "{\"attributes\":{\"type\":" + OrgJSONValue.string(object.name).jsonText + ",\"url\":"
            sql = SQLFragment(
                OrgSQL.literal(attributes) + " || json_quote(? || \(OrgSQL.column(alias, "Id"))) || '}'",
                [(urlPrefix + object.name + "/").databaseValue]
            )
        }
        for (key, entry) in entries {
            sql.append(" || " + OrgSQL.literal("," + OrgJSONValue.string(key).jsonText + ":") + " || ")
            switch entry {
            case .column(let alias, let field):
                sql.append(Self.jsonValueSQL(OrgSQL.column(alias, field.name), type: field.type))
            case .parent(let lookupAlias, let node):
                sql.append("(CASE WHEN \(OrgSQL.column(lookupAlias, "Id")) IS NULL THEN 'null' ELSE ")
                sql.append(node.render(urlPrefix: urlPrefix))
                sql.append(" END)")
            case .expression(let expression):
                sql.append("(")
                sql.append(expression)
                sql.append(")")
            }
        }
        sql.append(" || '}'")
        return sql
    }

    /// JSON text for a stored column in the wire format of its type (salesforce-rest.md §1.7).
    static func jsonValueSQL(_ column: String, type: OrgFieldType) -> String {
        switch type {
        case .boolean:
            "(CASE WHEN \(column) IS NULL THEN 'null' WHEN \(column) THEN 'true' ELSE 'false' END)"
        case .datetime:
            "(CASE WHEN \(column) IS NULL THEN 'null' ELSE '\"' || strftime('%Y-%m-%dT%H:%M:%f', \(column) / 1000.0, 'unixepoch') || '+0000\"' END)"
        default:
            "json_quote(\(column))"
        }
    }
}
