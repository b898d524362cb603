import GRDB
import SOQL

/// The JSON shape of one record in a result: its output keys in order, each a column, a nested parent
/// record or a precompiled SQL expression (child subqueries), rendered by SQLite as JSON text.
final class OrgProjection {
    enum Entry {
        case column(alias: String, field: OrgField)
        case parent(lookupAlias: String, OrgProjection)
        case expression(SQLFragment)
        /// A TYPEOF: per object of the record the lookup reaches, its own fields.
        case typeOf(
            lookupAlias: String,
            type: String,
            branches: [(object: String, node: OrgProjection)],
            otherwise: OrgProjection
        )
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

    /// Adds a `TYPEOF rel WHEN Object THEN fields … [ELSE fields] END` (one level: plain fields).
    func add(typeOf: SOQLTypeOf, scope: OrgQueryScope) throws {
        guard let lookup = object.field(forRelationship: typeOf.relationship) else {
            throw OrgError.noSuchRelationship(typeOf.relationship, object: object.name)
        }
        let parent = try scope.relationship([typeOf.relationship][...])
        // The record's object: the union's `Type` when several objects are served, else the one.
        let type =
            parent.object.name == OrgQueryScope.polymorphicObjectName
            ? OrgSQL.column(parent.alias, "Type") : OrgSQL.literal(parent.object.name)
        func node(_ target: OrgObject, _ fields: [SOQLFieldPath]) throws -> OrgProjection {
            let node = OrgProjection(object: target, alias: parent.alias)
            for path in fields {
                guard path.components.count == 1, let field = target.field(named: path.text),
                    parent.object.field(named: field.name) != nil
                else { throw OrgError.noSuchColumn(path.text, object: target.name) }
                if node.index(of: field.name) == nil {
                    node.entries.append((field.name, .column(alias: parent.alias, field: field)))
                }
            }
            return node
        }
        var branches: [(object: String, node: OrgProjection)] = []
        for when in typeOf.whens {
            guard lookup.referenceTo.contains(where: { $0.lowercased() == when.object.lowercased() }),
                let target = scope.schema.object(named: when.object)
            else {
                throw OrgError.malformedQuery(
                    "TYPEOF \(typeOf.relationship): \(when.object) is not an object '\(lookup.name)' refers to"
                )
            }
            branches.append((target.name, try node(target, when.fields)))
        }
        let otherwise = try node(parent.object, typeOf.otherwise)
        let key = lookup.relationshipName ?? typeOf.relationship
        entries.append((key, .typeOf(lookupAlias: parent.alias, type: type, branches: branches, otherwise: otherwise)))
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
            case .typeOf(let lookupAlias, let type, let branches, let otherwise):
                sql.append("(CASE WHEN \(OrgSQL.column(lookupAlias, "Id")) IS NULL THEN 'null'")
                for (object, node) in branches {
                    sql.append(" WHEN \(type) = \(OrgSQL.literal(object)) THEN ")
                    sql.append(node.render(urlPrefix: urlPrefix))
                }
                sql.append(" ELSE ")
                sql.append(otherwise.render(urlPrefix: urlPrefix))
                sql.append(" END)")
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
