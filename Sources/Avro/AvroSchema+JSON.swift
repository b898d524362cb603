import JSONCore

extension AvroSchema {
    /// The schema as JSON: each named type written in full where it first appears and by its full
    /// name afterwards, as the specification requires of a schema's text ("Names").
    public var jsonValue: JSONValue {
        var written: Set<String> = []
        return json(of: root, written: &written)
    }

    /// The schema's compact JSON text (what the Pub/Sub API's `GetSchema` returns as `schema_json`).
    public var jsonText: String { jsonValue.jsonText }

    private func json(of type: AvroType, written: inout Set<String>) -> JSONValue {
        switch type {
        case .array(let items): return ["type": "array", "items": json(of: items, written: &written)]
        case .map(let values): return ["type": "map", "values": json(of: values, written: &written)]
        case .union(let branches): return .array(branches.map { json(of: $0, written: &written) })
        case .logical(let logical, let underlying):
            let inner = json(of: underlying, written: &written)
            var object = inner.orderedObjectValue ?? ["type": inner]
            object["logicalType"] = .string(logical.name)
            if let precision = logical.precision { object["precision"] = .integer(Int64(precision)) }
            if let scale = logical.scale { object["scale"] = .integer(Int64(scale)) }
            return .object(object)
        case .named(let name):
            guard !written.contains(name), let definition = namedTypes[name] else { return .string(name) }
            written.insert(name)
            return json(of: definition, written: &written)
        default:
            return .string(type.primitiveName ?? "null")
        }
    }

    private func json(of definition: AvroNamedType, written: inout Set<String>) -> JSONValue {
        let (namespace, name) = Self.split(definition.fullName)
        var object: JSONObject = [:]
        switch definition {
        case .record(let record):
            object["type"] = "record"
            object["name"] = .string(name)
            if let namespace { object["namespace"] = .string(namespace) }
            if let doc = record.doc { object["doc"] = .string(doc) }
            object["fields"] = .array(
                record.fields.map { field in
                    var member: JSONObject = ["name": .string(field.name)]
                    member["type"] = json(of: field.type, written: &written)
                    if let doc = field.doc { member["doc"] = .string(doc) }
                    if let defaultValue = field.defaultValue { member["default"] = defaultValue }
                    return .object(member)
                }
            )
        case .enumeration(let enumeration):
            object["type"] = "enum"
            object["name"] = .string(name)
            if let namespace { object["namespace"] = .string(namespace) }
            object["symbols"] = .array(enumeration.symbols.map(JSONValue.string))
            if let symbol = enumeration.defaultSymbol { object["default"] = .string(symbol) }
        case .fixed(let fixed):
            object["type"] = "fixed"
            object["name"] = .string(name)
            if let namespace { object["namespace"] = .string(namespace) }
            object["size"] = .integer(Int64(fixed.size))
        }
        return .object(object)
    }

    private static func split(_ fullName: String) -> (namespace: String?, name: String) {
        guard let dot = fullName.lastIndex(of: ".") else { return (nil, fullName) }
        return (String(fullName[..<dot]), String(fullName[fullName.index(after: dot)...]))
    }
}
