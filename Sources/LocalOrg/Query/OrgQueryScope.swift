/// One FROM scope of a compiled query: the root object and its alias, plus the LEFT JOINs that parent
/// relationship paths (`Account.Owner.Name`) need, each added once.
final class OrgQueryScope {
    /// Hands out unique table aliases across nested scopes (`t1`, `t2`, …).
    final class AliasGenerator {
        private var next = 0
        func make() -> String {
            next += 1
            return "t\(next)"
        }
    }

    let object: OrgObject
    let alias: String
    let schema: OrgSchema
    let aliases: AliasGenerator
    private(set) var joins: [String] = []
    private var joined: [String: (alias: String, object: OrgObject)] = [:]

    init(object: OrgObject, schema: OrgSchema, aliases: AliasGenerator) {
        self.object = object
        self.schema = schema
        self.aliases = aliases
        self.alias = aliases.make()
    }

    /// `"Account" t1`.
    var fromClause: String { OrgSQL.identifier(object.name) + " " + alias }

    /// The LEFT JOIN clauses added so far.
    var joinClause: String { joins.joined(separator: " ") }

    /// The alias and object reached by following the relationship names in `path` from the root.
    /// - Throws: ``OrgError`` `INVALID_FIELD` for unknown or polymorphic relationships.
    func relationship(_ path: ArraySlice<String>) throws -> (alias: String, object: OrgObject) {
        var current = (alias: alias, object: object)
        var key = ""
        for name in path {
            key += "." + name.lowercased()
            if let existing = joined[key] {
                current = existing
                continue
            }
            guard let lookup = current.object.field(forRelationship: name) else {
                throw OrgError.noSuchRelationship(name, object: current.object.name)
            }
            // A polymorphic lookup with one served target (`OwnerId` → Group, User where the schema
            // serves no Group) traverses to it; with several, to their union (``polymorphicName``).
            let targets = lookup.referenceTo.compactMap { schema.object(named: $0) }
            guard let first = targets.first else {
                throw OrgError.polymorphicTraversal(name, object: current.object.name)
            }
            let joinAlias = aliases.make()
            let target = targets.count == 1 ? first : Self.polymorphicName(targets)
            let table =
                targets.count == 1
                ? OrgSQL.identifier(first.name) : "(" + Self.unionSQL(targets, fields: target.fields) + ")"
            joins.append(
                "LEFT JOIN \(table) \(joinAlias) ON \(OrgSQL.column(joinAlias, "Id")) = \(OrgSQL.column(current.alias, lookup.name)) AND \(OrgSQL.column(joinAlias, "IsDeleted")) = 0"
            )
            current = (joinAlias, target)
            joined[key] = current
        }
        return current
    }

    /// The object a polymorphic relationship (`What`, `Who`, `Owner` of a queue-owned object)
    /// reaches, as a real org's `Name` object: `Type` (the API name of the record's object) and the
    /// fields of its targets, each from the first target that has it (`null` on the others).
    static let polymorphicObjectName = "Name"

    static func polymorphicName(_ targets: [OrgObject]) -> OrgObject {
        var fields: [OrgField] = []
        var seen: Set<String> = []
        for target in targets {
            for field in target.fields where field.name.lowercased() != "type" {
                if seen.insert(field.name.lowercased()).inserted { fields.append(field) }
            }
        }
        fields.append(OrgField(name: "Type", type: .string, length: 40, isCreateable: false, isUpdateable: false))
        return OrgObject(name: polymorphicObjectName, keyPrefix: "", isWritable: false, fields: fields)
    }

    /// The records of every target as rows of the `Name` object's columns (`NULL` where a target
    /// lacks a field), `Type` holding the object's API name.
    private static func unionSQL(_ targets: [OrgObject], fields: [OrgField]) -> String {
        targets.map { target in
            let columns = fields.map { field -> String in
                if field.name == "Type" { return OrgSQL.literal(target.name) + " AS \"Type\"" }
                let stored = target.field(named: field.name)?.name
                return (stored.map { OrgSQL.identifier($0) } ?? "NULL") + " AS " + OrgSQL.identifier(field.name)
            }
            return "SELECT " + columns.joined(separator: ", ") + " FROM " + OrgSQL.identifier(target.name)
        }.joined(separator: " UNION ALL ")
    }

    /// The alias and field a dotted path names, joining parents as needed.
    /// - Throws: ``OrgError`` `INVALID_FIELD` (400) with Salesforce's "No such column" message.
    func resolve(_ components: [String]) throws -> (alias: String, field: OrgField, object: OrgObject) {
        // A path may start with the object's own name: `Account.Name` on Account.
        var components = components
        if components.count > 1, components[0].lowercased() == object.name.lowercased(),
            object.field(forRelationship: components[0]) == nil
        {
            components.removeFirst()
        }
        let parent = try relationship(components.dropLast())
        let name = components[components.count - 1]
        guard let field = parent.object.field(named: name) else {
            throw OrgError.noSuchColumn(name, object: parent.object.name)
        }
        return (parent.alias, field, parent.object)
    }

    /// What a clause does with a field: filter (WHERE), sort (ORDER BY) or group (GROUP BY).
    enum FieldUse: String {
        case filtered, sorted, grouped
    }

    /// ``resolve(_:)``, then the field's describe must allow the use (`nil`: no check) (`filterable`, `sortable`,
    /// `groupable`).
    /// - Throws: ``OrgError`` `INVALID_FIELD` with a real org's "can not be filtered in a query
    ///   call" message when it does not (a long text area in WHERE, a date-time in GROUP BY).
    func resolve(_ components: [String], for use: FieldUse?) throws -> (
        alias: String, field: OrgField, object: OrgObject
    ) {
        let resolved = try resolve(components)
        let allowed =
            switch use {
            case .filtered?: resolved.field.isFilterable
            case .sorted?: resolved.field.isSortable
            case .grouped?: resolved.field.isGroupable
            case nil: true
            }
        if !allowed, let use { throw OrgError.fieldNotUsable(resolved.field.name, use.rawValue) }
        return resolved
    }
}
