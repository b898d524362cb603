import JSONCore

extension AvroSchema {
    /// How deeply types may nest in a schema (records in arrays in unions …); the Pub/Sub API's
    /// schemas nest three or four levels.
    public static let maximumDepth = 64

    /// Parses a schema from its JSON text (Avro 1.11, "Schema Declaration").
    public init(jsonText: String) throws(AvroError) {
        var text = jsonText
        let parsed = text.withUTF8 { buffer -> Result<JSONValue, JSONSyntaxError> in
            var reader = JSONReader(bytes: buffer)
            do throws(JSONSyntaxError) {
                return .success(try reader.readDocument())
            } catch {
                return .failure(error)
            }
        }
        switch parsed {
        case .success(let json): try self.init(json: json)
        case .failure(let error):
            throw AvroError(
                code: .invalidSchema,
                message: "the schema is not JSON (\(error.description))",
                path: ""
            )
        }
    }

    /// Parses a schema from its JSON value.
    public init(json: JSONValue) throws(AvroError) {
        var parser = AvroSchemaParser()
        let root = try parser.parseType(json, namespace: nil, depth: 0)
        self.init(root: root, namedTypes: parser.namedTypes)
    }
}

/// Reads a schema's JSON into ``AvroType`` values, defining named types as it meets them.
struct AvroSchemaParser {
    var namedTypes: [String: AvroNamedType] = [:]
    /// Names declared so far, including records whose fields are still being read (a record may
    /// refer to itself; a name may not be used before its declaration).
    private var declared: Set<String> = []
    private var path = AvroPath()

    private func failure(_ message: String) -> AvroError {
        AvroError(code: .invalidSchema, message: message, path: path.text)
    }

    mutating func parseType(_ json: JSONValue, namespace: String?, depth: Int) throws(AvroError) -> AvroType {
        guard depth < AvroSchema.maximumDepth else {
            throw AvroError(
                code: .limitExceeded,
                message: "types nest more than \(AvroSchema.maximumDepth) levels deep",
                path: path.text
            )
        }
        switch json {
        case .string(let name):
            return try reference(name, namespace: namespace)
        case .array(let branches):
            return try parseUnion(branches, namespace: namespace, depth: depth)
        case .object(let object):
            return try parseObject(object, namespace: namespace, depth: depth)
        default:
            throw failure("a type must be a name, a JSON object or a union array")
        }
    }

    private mutating func reference(_ name: String, namespace: String?) throws(AvroError) -> AvroType {
        if let primitive = AvroType.primitive(named: name) { return primitive }
        let candidates: [String]
        if name.contains(".") {
            candidates = [name]
        } else if let namespace, !namespace.isEmpty {
            candidates = [namespace + "." + name, name]
        } else {
            candidates = [name]
        }
        for candidate in candidates where declared.contains(candidate) {
            return .named(candidate)
        }
        throw failure("unknown type '\(name)'; a named type must be declared before it is used")
    }

    private mutating func parseUnion(_ branches: [JSONValue], namespace: String?, depth: Int) throws(AvroError)
        -> AvroType
    {
        var types: [AvroType] = []
        var kinds: Set<String> = []
        for (index, branch) in branches.enumerated() {
            path.push(.branch(index))
            let type = try parseType(branch, namespace: namespace, depth: depth + 1)
            let kind: String
            switch type.withoutLogicalType {
            case .union: throw failure("a union may not hold a union directly")
            case .array: kind = "array"
            case .map: kind = "map"
            case .named(let fullName): kind = "named:" + fullName
            case let other: kind = other.primitiveName ?? "?"
            }
            guard kinds.insert(kind).inserted else {
                throw failure("a union may hold each type only once ('\(kind)' twice)")
            }
            types.append(type)
            path.pop()
        }
        return .union(types)
    }

    private mutating func parseObject(_ object: JSONObject, namespace: String?, depth: Int) throws(AvroError)
        -> AvroType
    {
        guard case .string(let typeName)? = object["type"] else {
            if let nested = object["type"], nested.stringValue == nil, nested != .null {
                // `{"type": {"type": "array", …}}`: the nested form some writers use.
                return try annotate(parseType(nested, namespace: namespace, depth: depth + 1), object)
            }
            throw failure("a type object needs a 'type' name")
        }
        let type: AvroType
        switch typeName {
        case "record", "error":
            type = try parseRecord(object, namespace: namespace, depth: depth)
        case "enum":
            type = try parseEnum(object, namespace: namespace)
        case "fixed":
            type = try parseFixed(object, namespace: namespace)
        case "array":
            guard let items = object["items"] else { throw failure("an array type needs 'items'") }
            path.push(.field("items"))
            type = .array(try parseType(items, namespace: namespace, depth: depth + 1))
            path.pop()
        case "map":
            guard let values = object["values"] else { throw failure("a map type needs 'values'") }
            path.push(.field("values"))
            type = .map(try parseType(values, namespace: namespace, depth: depth + 1))
            path.pop()
        default:
            type = try reference(typeName, namespace: namespace)
        }
        return try annotate(type, object)
    }

    /// Wraps `type` in the object's `logicalType`, when it has one.
    private func annotate(_ type: AvroType, _ object: JSONObject) throws(AvroError) -> AvroType {
        guard let logical = object["logicalType"] else { return type }
        guard case .string(let name) = logical else { throw failure("'logicalType' must be a string") }
        let precision = object["precision"]?.integerValue.flatMap { Int(exactly: $0) }
        let scale = object["scale"]?.integerValue.flatMap { Int(exactly: $0) }
        return .logical(AvroLogicalType(name: name, precision: precision, scale: scale), type)
    }

    /// The full name and the namespace its members inherit (Avro 1.11, "Names").
    private func declaredName(_ object: JSONObject, namespace: String?) throws(AvroError) -> (String, String?) {
        guard case .string(let name)? = object["name"] else { throw failure("a named type needs a 'name'") }
        let fullName: String
        if name.contains(".") {
            fullName = name
        } else {
            var space = namespace
            if let declaredSpace = object["namespace"] {
                guard case .string(let text) = declaredSpace else { throw failure("'namespace' must be a string") }
                space = text
            }
            if let space, !space.isEmpty {
                fullName = space + "." + name
            } else {
                fullName = name
            }
        }
        let parts = fullName.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.allSatisfy({ Self.isValidName($0) }) else {
            throw failure("'\(fullName)' is not a valid name (letters, digits and '_', not starting with a digit)")
        }
        guard AvroType.primitive(named: fullName) == nil else {
            throw failure("'\(fullName)' is a primitive type's name and cannot be redefined")
        }
        guard !declared.contains(fullName) else { throw failure("'\(fullName)' is defined twice") }
        let inner = parts.count > 1 ? parts.dropLast().joined(separator: ".") : nil
        return (fullName, inner)
    }

    static func isValidName<Name: StringProtocol>(_ name: Name) -> Bool {
        guard let first = name.unicodeScalars.first else { return false }
        func isLetter(_ scalar: Unicode.Scalar) -> Bool {
            (scalar >= "A" && scalar <= "Z") || (scalar >= "a" && scalar <= "z") || scalar == "_"
        }
        return isLetter(first) && name.unicodeScalars.allSatisfy { isLetter($0) || ($0 >= "0" && $0 <= "9") }
    }

    private mutating func parseRecord(_ object: JSONObject, namespace: String?, depth: Int) throws(AvroError)
        -> AvroType
    {
        let (fullName, inner) = try declaredName(object, namespace: namespace)
        guard case .array(let fieldsJSON)? = object["fields"] else {
            throw failure("record '\(fullName)' needs a 'fields' array")
        }
        declared.insert(fullName)
        var fields: [AvroField] = []
        var names: Set<String> = []
        for (index, fieldJSON) in fieldsJSON.enumerated() {
            path.push(.field("fields"))
            path.push(.index(index))
            guard case .object(let field) = fieldJSON, case .string(let name)? = field["name"] else {
                throw failure("a field must be an object with a 'name'")
            }
            guard Self.isValidName(name) else { throw failure("'\(name)' is not a valid field name") }
            guard names.insert(name).inserted else { throw failure("record '\(fullName)' has two fields '\(name)'") }
            guard let typeJSON = field["type"] else { throw failure("field '\(name)' needs a 'type'") }
            path.pop()
            path.pop()
            path.push(.field(name))
            let type = try parseType(typeJSON, namespace: inner, depth: depth + 1)
            path.pop()
            fields.append(
                AvroField(name: name, type: type, defaultValue: field["default"], doc: field["doc"]?.stringValue)
            )
        }
        let aliases = object["aliases"]?.arrayValue?.compactMap(\.stringValue) ?? []
        namedTypes[fullName] = .record(
            AvroRecord(fullName: fullName, fields: fields, doc: object["doc"]?.stringValue, aliases: aliases)
        )
        return .named(fullName)
    }

    private mutating func parseEnum(_ object: JSONObject, namespace: String?) throws(AvroError) -> AvroType {
        let (fullName, _) = try declaredName(object, namespace: namespace)
        guard case .array(let symbolsJSON)? = object["symbols"] else {
            throw failure("enum '\(fullName)' needs a 'symbols' array")
        }
        var symbols: [String] = []
        for symbol in symbolsJSON {
            guard case .string(let text) = symbol, Self.isValidName(text) else {
                throw failure("enum '\(fullName)' has a symbol that is not a valid name")
            }
            guard !symbols.contains(text) else { throw failure("enum '\(fullName)' lists '\(text)' twice") }
            symbols.append(text)
        }
        let defaultSymbol = object["default"]?.stringValue
        if let defaultSymbol, !symbols.contains(defaultSymbol) {
            throw failure("enum '\(fullName)' has default '\(defaultSymbol)', which is not one of its symbols")
        }
        declared.insert(fullName)
        namedTypes[fullName] = .enumeration(
            AvroEnum(
                fullName: fullName,
                symbols: symbols,
                defaultSymbol: defaultSymbol,
                doc: object["doc"]?.stringValue
            )
        )
        return .named(fullName)
    }

    private mutating func parseFixed(_ object: JSONObject, namespace: String?) throws(AvroError) -> AvroType {
        let (fullName, _) = try declaredName(object, namespace: namespace)
        guard let size = object["size"]?.integerValue, size >= 0, let count = Int(exactly: size) else {
            throw failure("fixed '\(fullName)' needs a 'size' that is a non-negative integer")
        }
        declared.insert(fullName)
        namedTypes[fullName] = .fixed(AvroFixed(fullName: fullName, size: count))
        return .named(fullName)
    }
}
