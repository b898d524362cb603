import Foundation

extension OrgSchema {
    /// Adds the custom objects and fields of a JSON schema file to this schema.
    ///
    /// The file is `{"objects": [OBJECT, …], "briefcases": [BRIEFCASE, …]}` (both optional). An OBJECT names an existing object to add fields to it,
    /// or a new one (custom objects end in `__c`; they get `Id`, audit fields, `OwnerId` and `Name`):
    ///
    /// | key | type | default |
    /// |---|---|---|
    /// | `name` | string | required |
    /// | `label`, `labelPlural` | string | from the name |
    /// | `keyPrefix` | 3 characters | generated: `a01`, `a02`, … |
    /// | `fields` | [FIELD] | `[]` |
    ///
    /// FIELD keys: `name` (required), `type` (required: string, textarea, email, phone, url, picklist,
    /// multipicklist, boolean, int, double, currency, percent, date, datetime, reference), `label`,
    /// `length`, `required` (false), `externalId` (false), `unique` (false), `createable` (true),
    /// `updateable` (true), `defaultValue`, `picklistValues` ([string]), and for references
    /// `referenceTo` (string or [string], required), `relationshipName` (`Parent__c` → `Parent__r`),
    /// `childRelationshipName` (the child object's plural label without spaces + `__r`).
    ///
    /// BRIEFCASE keys: `name` (required, unique), `rules` (required: [RULE]); RULE keys: `object`
    /// (required, an object of the schema), `filter` (a SOQL condition, the text after `WHERE`).
    /// A file with `briefcases` replaces the briefcases declared before; see ``OrgBriefcase``.
    ///
    /// OBJECTs may also set `queryable`, `createable`, `updateable`, `deletable` and `recordTypes`;
    /// FIELDs `relationshipOrder` (master-detail), `cascadeDelete`, `restrictedDelete` and
    /// `restrictedDeleteWhen`; `"mode": "exact"` makes the file's objects replace the standard ones.
    /// docs/local-org.md ("The schema file") has the complete format.
    ///
    /// The file may be JSON or, with a `.yaml` / `.yml` extension, the same structure in YAML
    /// (YAML 1.2 core schema: quoted scalars stay strings).
    /// - Throws: ``OrgError`` naming the file, object and field at fault.
    public mutating func merge(contentsOf url: URL) throws {
        let source = url.lastPathComponent
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw OrgError.invalidInput("\(url.path): cannot read the schema file (\(error.localizedDescription))")
        }
        let document: OrgJSONValue
        if ["yaml", "yml"].contains(url.pathExtension.lowercased()) {
            document = try OrgJSONValue.decode(yaml: String(decoding: data, as: UTF8.self), source: source)
        } else {
            do {
                document = try OrgJSONValue.decode(data)
            } catch let error as OrgError {
                throw OrgError.invalidInput("\(source): invalid JSON: \(error.message)")
            }
        }
        self = try OrgSchemaCoding.decode(document, base: self, source: source)
    }

    /// The schema as a schema file in exact mode (`"mode": "exact"`, every object, field and record
    /// type spelled out): pretty-printed JSON with sorted keys and nothing volatile, so the same
    /// schema always gives the same bytes and the file reads back as an equal schema.
    public func schemaFileData() -> Data {
        OrgSchemaCoding.sortedKeys(OrgSchemaCoding.encode(self)).encodedPretty()
    }

    /// Reads a schema document (the schema file format) given as JSON bytes: merged onto this schema,
    /// or replacing it for `"mode": "exact"`.
    /// - Throws: ``OrgError`` naming `source`, the object and field at fault.
    public func merging(json data: Data, source: String) throws -> OrgSchema {
        let document: OrgJSONValue
        do {
            document = try OrgJSONValue.decode(data)
        } catch let error as OrgError {
            throw OrgError.invalidInput("\(source): invalid JSON: \(error.message)")
        }
        return try OrgSchemaCoding.decode(document, base: self, source: source)
    }

    /// This schema plus the objects and fields of a schema file at `url` (see ``merge(contentsOf:)``).
    public func merging(contentsOf url: URL) throws -> OrgSchema {
        var schema = self
        try schema.merge(contentsOf: url)
        return schema
    }
}

/// Reads and writes the schema document (the schema file format; the database persists the whole
/// schema in the same format).
enum OrgSchemaCoding {
    private static let objectKeys: Set<String> = [
        "name", "label", "labelPlural", "keyPrefix", "custom", "writable", "fields", "queryable", "createable",
        "updateable", "deletable", "recordTypes", "mergeable", "deepCloneable", "feedEnabled", "mruEnabled",
        "changeDataCapture",
    ]
    private static let fieldKeys: Set<String> = [
        "name", "type", "label", "length", "required", "nillable", "externalId", "unique", "createable", "updateable",
        "defaultedOnCreate", "referenceTo", "relationshipName", "childRelationshipName", "picklistValues",
        "defaultValue", "custom", "relationshipOrder", "cascadeDelete", "restrictedDelete", "restrictedDeleteWhen",
        "restrictedPicklist", "idLookup", "compoundFieldName", "extraTypeInfo", "digits", "precision", "scale",
        "autoNumber", "permissionable",
    ]
    private static let recordTypeKeys: Set<String> = [
        "developerName", "name", "active", "default", "namespacePrefix", "description",
    ]

    /// The whole schema as an exact-mode document.
    static func encode(_ schema: OrgSchema) -> OrgJSONValue {
        var root: OrgJSONObject = ["mode": "exact", "objects": .array(schema.objects.map(encode))]
        if !schema.briefcases.isEmpty { root["briefcases"] = .array(schema.briefcases.map(encode)) }
        if !schema.endpoints.isEmpty { root["endpoints"] = .array(schema.endpoints.map(\.json)) }
        if !schema.layouts.isEmpty { root["layouts"] = .array(schema.layouts.map(\.json)) }
        encodeUsers(schema, into: &root)
        return .object(root)
    }

    /// `value` with the keys of every object sorted (arrays keep their order).
    static func sortedKeys(_ value: OrgJSONValue) -> OrgJSONValue {
        switch value {
        case .object(let object):
            return .object(
                OrgJSONObject(object.members.sorted { $0.key < $1.key }.map { ($0.key, sortedKeys($0.value)) })
            )
        case .array(let elements):
            return .array(elements.map(sortedKeys))
        default:
            return value
        }
    }

    private static func encode(_ briefcase: OrgBriefcase) -> OrgJSONValue {
        .object([
            "name": .string(briefcase.name),
            "rules": .array(
                briefcase.rules.map { rule in
                    var json: OrgJSONObject = ["object": .string(rule.object)]
                    if let filter = rule.filter { json["filter"] = .string(filter) }
                    return .object(json)
                }
            ),
        ])
    }

    private static func encode(_ object: OrgObject) -> OrgJSONValue {
        var json: OrgJSONObject = [
            "name": .string(object.name), "label": .string(object.label), "labelPlural": .string(object.labelPlural),
            "keyPrefix": .string(object.keyPrefix), "custom": .bool(object.isCustom),
            "queryable": .bool(object.isQueryable), "createable": .bool(object.isCreateable),
            "updateable": .bool(object.isUpdateable), "deletable": .bool(object.isDeletable),
            "fields": .array(object.fields.map(encode)),
        ]
        if !object.recordTypes.isEmpty { json["recordTypes"] = .array(object.recordTypes.map(encode)) }
        if object.isMergeable { json["mergeable"] = true }
        if object.isDeepCloneable { json["deepCloneable"] = true }
        if object.isFeedEnabled { json["feedEnabled"] = true }
        if let flag = object.declaredMRUEnabled { json["mruEnabled"] = .bool(flag) }
        if !object.isChangeDataCaptureEnabled { json["changeDataCapture"] = false }
        return .object(json)
    }

    private static func encode(_ recordType: OrgRecordType) -> OrgJSONValue {
        var json: OrgJSONObject = [
            "developerName": .string(recordType.developerName), "name": .string(recordType.name),
            "active": .bool(recordType.isActive), "default": .bool(recordType.isDefault),
        ]
        if let prefix = recordType.namespacePrefix { json["namespacePrefix"] = .string(prefix) }
        if let description = recordType.description { json["description"] = .string(description) }
        return .object(json)
    }

    private static func encode(_ field: OrgField) -> OrgJSONValue {
        var json: OrgJSONObject = [
            "name": .string(field.name), "type": .string(field.type.wireName), "label": .string(field.label),
            "length": .integer(Int64(field.length)), "nillable": .bool(field.isNillable),
            "externalId": .bool(field.isExternalID), "unique": .bool(field.isUnique),
            "createable": .bool(field.isCreateable), "updateable": .bool(field.isUpdateable),
            "defaultedOnCreate": .bool(field.isDefaultedOnCreate), "custom": .bool(field.isCustom),
        ]
        if !field.referenceTo.isEmpty {
            json["referenceTo"] = .array(field.referenceTo.map { .string($0) })
            json["relationshipName"] = field.relationshipName.map { .string($0) } ?? .null
            json["childRelationshipName"] = field.childRelationshipName.map { .string($0) } ?? .null
            json["cascadeDelete"] = .bool(field.isCascadeDelete)
            json["restrictedDelete"] = .bool(field.isRestrictedDelete)
            if let order = field.relationshipOrder { json["relationshipOrder"] = .integer(Int64(order)) }
            if let when = field.restrictedDeleteWhen { json["restrictedDeleteWhen"] = .object(when) }
        }
        if !field.picklistValues.isEmpty { json["picklistValues"] = .array(field.picklistValues.map { .string($0) }) }
        if let value = field.defaultValue { json["defaultValue"] = value }
        if field.isRestrictedPicklist { json["restrictedPicklist"] = true }
        if let flag = field.declaredIDLookup { json["idLookup"] = .bool(flag) }
        if let name = field.compoundFieldName { json["compoundFieldName"] = .string(name) }
        if let info = field.extraTypeInfo { json["extraTypeInfo"] = .string(info) }
        if let digits = field.digits { json["digits"] = .integer(Int64(digits)) }
        if let precision = field.precision { json["precision"] = .integer(Int64(precision)) }
        if let scale = field.scale { json["scale"] = .integer(Int64(scale)) }
        if field.isAutoNumber { json["autoNumber"] = true }
        if let flag = field.declaredPermissionable { json["permissionable"] = .bool(flag) }
        return .object(json)
    }

    static func decode(_ document: OrgJSONValue, base: OrgSchema, source: String) throws -> OrgSchema {
        guard let root = document.objectValue else {
            throw OrgError.invalidInput("\(source): expected an object with an \"objects\" array")
        }
        if let unknown = root.keys.first(where: {
            !["objects", "briefcases", "mode", "endpoints", "layouts", "profiles", "permissionSets", "users"]
                .contains($0)
        }) {
            throw OrgError.invalidInput(
                "\(source): unknown key '\(unknown)'; expected 'mode', 'objects', 'briefcases', 'endpoints', "
                    + "'layouts', 'profiles', 'permissionSets' and 'users'"
            )
        }
        let exact: Bool
        switch root["mode"] {
        case nil, .string("merge")?: exact = false
        case .string("exact")?: exact = true
        default:
            throw OrgError.invalidInput(
                "\(source): \"mode\" must be \"merge\" (add to the standard objects, the default) or \"exact\" "
                    + "(the file's objects replace them)"
            )
        }
        let objects: [OrgJSONValue]
        switch root["objects"] {
        case nil: objects = []
        case .array(let array)?: objects = array
        default: throw OrgError.invalidInput("\(source): \"objects\" must be an array")
        }
        var schema = exact ? OrgSchema(objects: []) : base
        for (position, entry) in objects.enumerated() {
            guard let json = entry.objectValue else {
                throw OrgError.invalidInput("\(source): objects[\(position)] is not an object")
            }
            let location = "\(source): objects[\(position)]"
            if exact, let name = json["name"]?.stringValue, schema.object(named: name) != nil {
                throw OrgError.invalidInput("\(location): object '\(name)' is declared twice")
            }
            let object = try decodeObject(json, schema: schema, exact: exact, where: location)
            schema.addOrReplace(object)
        }
        if exact {
            // The org itself needs record owners, its own record and record types.
            for object in OrgSchema.systemObjects where schema.object(named: object.name) == nil {
                if let other = schema.objects.first(where: { $0.keyPrefix == object.keyPrefix }) {
                    throw OrgError.invalidInput(
                        "\(source): object '\(other.name)' uses key prefix '\(object.keyPrefix)', which the local "
                            + "org needs for '\(object.name)'; declare '\(object.name)' or use another prefix"
                    )
                }
                schema.addOrReplace(object)
            }
        }
        try validateReferences(schema, allowMissingTargets: exact, source: source)
        if let briefcases = root["briefcases"] {
            schema.briefcases = try decodeBriefcases(briefcases, schema: schema, source: source)
        }
        if let endpoints = root["endpoints"] {
            guard let entries = endpoints.arrayValue else {
                throw OrgError.invalidInput("\(source): \"endpoints\" must be an array")
            }
            schema.endpoints = try entries.enumerated().map { position, entry in
                try OrgCustomEndpoint.decode(entry, schema: schema, location: "\(source): endpoints[\(position)]")
            }
        }
        if let layouts = root["layouts"] {
            guard let entries = layouts.arrayValue else {
                throw OrgError.invalidInput("\(source): \"layouts\" must be an array")
            }
            schema.layouts = try entries.enumerated().map { position, entry in
                try OrgDeclaredLayout.decode(entry, schema: schema, location: "\(source): layouts[\(position)]")
            }
        }
        try decodeUsers(root, into: &schema, source: source)
        return schema
    }

    private static let briefcaseKeys: Set<String> = ["name", "rules"]
    private static let ruleKeys: Set<String> = ["object", "filter"]

    private static func decodeBriefcases(_ value: OrgJSONValue, schema: OrgSchema, source: String) throws
        -> [OrgBriefcase]
    {
        guard let entries = value.arrayValue else {
            throw OrgError.invalidInput("\(source): \"briefcases\" must be an array")
        }
        return try Reader.entries(entries, at: "\(source): briefcases", keys: briefcaseKeys) { reader, briefcases in
            let name = try reader.requiredString("name")
            guard !name.isEmpty, !name.contains(":") else {
                throw reader.failure("the name must be non-empty and without ':', not '\(name)'")
            }
            if briefcases.contains(where: { $0.name == name }) {
                throw reader.failure("a briefcase named '\(name)' is declared twice")
            }
            guard let ruleEntries = try reader.array("rules") else { throw reader.failure("missing \"rules\"") }
            let rules = try Reader.entries(ruleEntries, at: "\(reader.location).rules", keys: ruleKeys) {
                ruleReader,
                _ -> OrgBriefcase.Rule in
                let objectName = try ruleReader.requiredString("object")
                guard let object = schema.object(named: objectName) else {
                    throw ruleReader.failure("'\(objectName)' is not an object of the schema")
                }
                let filter = try ruleReader.string("filter")
                if let filter, filter.trimmingCharacters(in: .whitespaces).isEmpty {
                    throw ruleReader.failure("\"filter\" is empty; leave it out to select every record")
                }
                return OrgBriefcase.Rule(object: object.name, filter: filter)
            }
            return OrgBriefcase(name: name, rules: rules)
        }
    }

    private static func decodeObject(_ json: OrgJSONObject, schema: OrgSchema, exact: Bool, where location: String)
        throws -> OrgObject
    {
        let reader = Reader(json: json, location: location)
        try reader.rejectUnknownKeys(objectKeys)
        let name = try reader.requiredString("name")
        guard isValidName(name) else { throw reader.failure("'\(name)' is not a valid object name") }
        let here = "\(location.split(separator: ":").first ?? ""): object '\(name)'"
        var object: OrgObject
        if let existing = schema.object(named: name) {
            object = existing
            if let writable = try reader.bool("writable") { object.isWritable = writable }
        } else {
            let isCustom = try reader.bool("custom") ?? name.hasSuffix("__c")
            let prefix = try reader.string("keyPrefix") ?? schema.unusedCustomKeyPrefix()
            guard prefix.utf8.count == 3, prefix.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                throw OrgError.invalidInput("\(here): keyPrefix '\(prefix)' must be 3 letters or digits")
            }
            if let other = schema.objects.first(where: { $0.keyPrefix == prefix }) {
                throw OrgError.invalidInput("\(here): keyPrefix '\(prefix)' is already used by '\(other.name)'")
            }
            // Exact mode: the file's fields, after any system field it leaves out.
            let declared = Set((try reader.array("fields") ?? []).compactMap { $0.objectValue?["name"]?.stringValue })
            let baseFields =
                exact
                ? OrgSchema.systemFields().filter { !declared.contains($0.name) }
                : (isCustom ? OrgSchema.customObjectBaseFields() : OrgSchema.systemFields())
            object = OrgObject(
                name: name,
                label: try reader.string("label"),
                labelPlural: try reader.string("labelPlural"),
                keyPrefix: prefix,
                isCustom: isCustom,
                isWritable: try reader.bool("writable") ?? true,
                fields: baseFields
            )
        }
        for (position, entry) in (try reader.array("fields") ?? []).enumerated() {
            guard let fieldJSON = entry.objectValue else {
                throw OrgError.invalidInput("\(here): fields[\(position)] is not an object")
            }
            object.addOrReplace(
                try decodeField(fieldJSON, object: object, where: "\(here) fields[\(position)]", objectHere: here)
            )
        }
        if let flag = try reader.bool("queryable") { object.isQueryable = flag }
        if let flag = try reader.bool("createable") { object.isCreateable = flag }
        if let flag = try reader.bool("updateable") { object.isUpdateable = flag }
        if let flag = try reader.bool("deletable") { object.isDeletable = flag }
        if let flag = try reader.bool("mergeable") { object.isMergeable = flag }
        if let flag = try reader.bool("deepCloneable") { object.isDeepCloneable = flag }
        if let flag = try reader.bool("feedEnabled") { object.isFeedEnabled = flag }
        if let flag = try reader.bool("mruEnabled") { object.declaredMRUEnabled = flag }
        if let flag = try reader.bool("changeDataCapture") { object.isChangeDataCaptureEnabled = flag }
        for (position, entry) in (try reader.array("recordTypes") ?? []).enumerated() {
            let recordTypeHere = "\(here) recordTypes[\(position)]"
            guard let recordTypeJSON = entry.objectValue else {
                throw OrgError.invalidInput("\(recordTypeHere) is not an object")
            }
            let recordType = try decodeRecordType(recordTypeJSON, where: recordTypeHere)
            if let index = object.recordTypes.firstIndex(where: {
                $0.developerName.lowercased() == recordType.developerName.lowercased()
                    && $0.namespacePrefix == recordType.namespacePrefix
            }) {
                object.recordTypes[index] = recordType
            } else {
                object.recordTypes.append(recordType)
            }
        }
        if object.recordTypes.filter(\.isDefault).count > 1 {
            throw OrgError.invalidInput("\(here): more than one record type is marked \"default\"")
        }
        if !object.recordTypes.isEmpty, object.field(named: "RecordTypeId") == nil {
            object.addOrReplace(OrgSchema.recordTypeField())
        }
        for field in object.fields {
            for conditionField in field.restrictedDeleteWhen?.keys ?? [] {
                // The condition names fields of this (the child) object.
                guard object.field(named: conditionField) != nil else {
                    throw OrgError.invalidInput(
                        "\(here) field '\(field.name)': restrictedDeleteWhen names '\(conditionField)', which is not "
                            + "a field of '\(object.name)'"
                    )
                }
            }
        }
        return object
    }

    private static func decodeRecordType(_ json: OrgJSONObject, where location: String) throws -> OrgRecordType {
        let reader = Reader(json: json, location: location)
        try reader.rejectUnknownKeys(recordTypeKeys)
        let developerName = try reader.requiredString("developerName")
        guard isValidName(developerName) else {
            throw reader.failure("'\(developerName)' is not a valid developer name (letters, digits and '_')")
        }
        let name = try reader.string("name")
        if let name, name.count > 80 { throw reader.failure("\"name\" is longer than 80 characters") }
        return OrgRecordType(
            developerName: developerName,
            name: name,
            isActive: try reader.bool("active") ?? true,
            isDefault: try reader.bool("default") ?? false,
            namespacePrefix: try reader.string("namespacePrefix"),
            description: try reader.string("description")
        )
    }

    private static func decodeField(
        _ json: OrgJSONObject,
        object: OrgObject,
        where location: String,
        objectHere: String
    )
        throws -> OrgField
    {
        let reader = Reader(json: json, location: location)
        try reader.rejectUnknownKeys(fieldKeys)
        let name = try reader.requiredString("name")
        guard isValidName(name) else { throw reader.failure("'\(name)' is not a valid field name") }
        let reader2 = Reader(json: json, location: "\(objectHere) field '\(name)'")
        let typeName = try reader2.requiredString("type")
        guard let type = OrgFieldType(rawValue: typeName.lowercased()), type != .id || name == "Id" else {
            let expected = OrgFieldType.allCases.filter { $0 != .id }.map(\.wireName).joined(separator: ", ")
            throw reader2.failure("unknown type '\(typeName)'; expected one of \(expected)")
        }
        var referenceTo: [String] = []
        if type == .reference {
            switch json["referenceTo"] {
            case .string(let target)?: referenceTo = [target]
            case .array(let targets)?: referenceTo = targets.compactMap(\.stringValue)
            default: break
            }
            guard !referenceTo.isEmpty else { throw reader2.failure("a reference field needs \"referenceTo\"") }
        }
        let defaultRelationship =
            name.hasSuffix("__c")
            ? String(name.dropLast(3)) + "__r" : (name.hasSuffix("Id") ? String(name.dropLast(2)) : name + "__r")
        let childDefault =
            object.labelPlural.replacingOccurrences(of: " ", with: "") + (name.hasSuffix("__c") ? "__r" : "")
        let relationshipOrder = try reader2.integer("relationshipOrder")
        if let relationshipOrder, type != .reference || relationshipOrder > 1 {
            throw reader2.failure("\"relationshipOrder\" (0 or 1) is for master-detail reference fields")
        }
        // A master-detail field is required unless the file says otherwise.
        let isNillable = try reader2.bool("nillable") ?? !(try reader2.bool("required") ?? (relationshipOrder != nil))
        var restrictedDeleteWhen: OrgJSONObject?
        switch json["restrictedDeleteWhen"] {
        case nil, .null?: break
        case .object(let condition)? where type == .reference: restrictedDeleteWhen = condition
        default: throw reader2.failure("\"restrictedDeleteWhen\" must be an object of field values, on a reference")
        }
        var field = OrgField(
            name: name,
            label: try reader2.string("label"),
            type: type,
            length: try reader2.integer("length"),
            referenceTo: referenceTo,
            relationshipName: type == .reference
                ? try reader2.optionalString("relationshipName", default: defaultRelationship) : nil,
            childRelationshipName: type == .reference
                ? try reader2.optionalString("childRelationshipName", default: childDefault) : nil,
            relationshipOrder: relationshipOrder,
            isCascadeDelete: try reader2.bool("cascadeDelete"),
            isRestrictedDelete: try reader2.bool("restrictedDelete") ?? false,
            restrictedDeleteWhen: restrictedDeleteWhen,
            isExternalID: try reader2.bool("externalId") ?? false,
            isUnique: try reader2.bool("unique") ?? false,
            isCreateable: try reader2.bool("createable") ?? true,
            isUpdateable: try reader2.bool("updateable") ?? true,
            isNillable: isNillable,
            isDefaultedOnCreate: try reader2.bool("defaultedOnCreate") ?? (json["defaultValue"] != nil),
            isCustom: try reader2.bool("custom"),
            picklistValues: (try reader2.array("picklistValues") ?? []).compactMap(\.stringValue),
            defaultValue: json["defaultValue"]
        )
        field.isRestrictedPicklist = try reader2.bool("restrictedPicklist") ?? false
        field.declaredIDLookup = try reader2.bool("idLookup")
        field.compoundFieldName = try reader2.string("compoundFieldName")
        field.extraTypeInfo = try reader2.string("extraTypeInfo")
        field.digits = try reader2.integer("digits")
        field.precision = try reader2.integer("precision")
        field.scale = try reader2.integer("scale")
        field.isAutoNumber = try reader2.bool("autoNumber") ?? false
        field.declaredPermissionable = try reader2.bool("permissionable")
        if type.isCompound {
            // Compound fields are read-only through the API: their components are written.
            field.isCreateable = false
            field.isUpdateable = false
        }
        if field.isRestrictedPicklist, ![.picklist, .multipicklist].contains(type) {
            throw reader2.failure("\"restrictedPicklist\" is for picklist and multipicklist fields")
        }
        return field
    }

    private static func validateReferences(_ schema: OrgSchema, allowMissingTargets: Bool, source: String) throws {
        for object in schema.objects {
            for field in object.fields where !allowMissingTargets {
                // `Group` (queues) may stand beside a served target: `OwnerId` → [Group, User].
                let served = field.referenceTo.contains { schema.object(named: $0) != nil }
                for target in field.referenceTo
                where schema.object(named: target) == nil && !(served && OrgSchema.unservedOwners.contains(target)) {
                    throw OrgError.invalidInput(
                        "\(source): object '\(object.name)' field '\(field.name)': referenceTo names '\(target)', which is not an object of the schema"
                    )
                }
            }
        }
    }

    private static func isValidName(_ name: String) -> Bool {
        guard let first = name.first, first.isASCII, first.isLetter else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }

    /// Typed access to one JSON object of the schema document, with located errors.
    struct Reader {
        let json: OrgJSONObject
        let location: String

        func failure(_ message: String) -> OrgError { OrgError.invalidInput("\(location): \(message)") }

        /// The elements of the array at `location` (`schema.json: users`), each an object read by
        /// `decode` with a reader at `location[i]` that refuses keys outside `keys`; `decode` also
        /// gets the entries read before it, to refuse a name declared twice.
        static func entries<Entry>(
            _ elements: [OrgJSONValue],
            at location: String,
            keys: Set<String>,
            _ decode: (Reader, _ earlier: [Entry]) throws -> Entry
        ) throws -> [Entry] {
            var result: [Entry] = []
            for (index, element) in elements.enumerated() {
                let here = "\(location)[\(index)]"
                guard let json = element.objectValue else { throw OrgError.invalidInput("\(here) is not an object") }
                let reader = Reader(json: json, location: here)
                try reader.rejectUnknownKeys(keys)
                result.append(try decode(reader, result))
            }
            return result
        }

        func rejectUnknownKeys(_ known: Set<String>) throws {
            if let unknown = json.keys.first(where: { !known.contains($0) }) {
                throw failure("unknown key '\(unknown)'; expected one of \(known.sorted().joined(separator: ", "))")
            }
        }

        func requiredString(_ key: String) throws -> String {
            guard let value = try string(key) else { throw failure("missing \"\(key)\"") }
            return value
        }

        func string(_ key: String) throws -> String? {
            switch json[key] {
            case nil, .null?: return nil
            case .string(let value)?: return value
            default: throw failure("\"\(key)\" must be a string")
            }
        }

        /// A string that may be explicitly `null` (→ `nil`); absent → `fallback`.
        func optionalString(_ key: String, default fallback: String) throws -> String? {
            switch json[key] {
            case nil: return fallback
            case .null?: return nil
            case .string(let value)?: return value
            default: throw failure("\"\(key)\" must be a string or null")
            }
        }

        func bool(_ key: String) throws -> Bool? {
            switch json[key] {
            case nil, .null?: return nil
            case .bool(let value)?: return value
            default: throw failure("\"\(key)\" must be true or false")
            }
        }

        func integer(_ key: String) throws -> Int? {
            switch json[key] {
            case nil, .null?: return nil
            // Lengths reach 32,000,000 (base64 bodies); nothing in a schema file is larger.
            case .integer(let value)? where value >= 0 && value <= 100_000_000: return Int(value)
            default: throw failure("\"\(key)\" must be a non-negative integer")
            }
        }

        func array(_ key: String) throws -> [OrgJSONValue]? {
            switch json[key] {
            case nil, .null?: return nil
            case .array(let value)?: return value
            default: throw failure("\"\(key)\" must be an array")
            }
        }
    }
}
