import JSONCore

/// Typed reads of single tree nodes, with YAML plain scalars typed by what is expected.
enum ValueReader {
    /// Whether a scalar is null (JSON `null`, or a YAML plain `null` / `~` / empty).
    static func isNull(_ scalar: ConfigNode.Scalar) -> Bool {
        switch scalar.kind {
        case .null: true
        case .plain: YAMLCoreSchema.isNull(scalar.text)
        case .string, .number, .bool: false
        }
    }

    /// The text of a string; a YAML plain scalar is taken as written.
    static func string(_ node: ConfigNode, path: ConfigPath, context: DecodingContext) -> String? {
        if case .scalar(let scalar) = node.value {
            switch scalar.kind {
            case .string: return scalar.text
            case .plain where !YAMLCoreSchema.isNull(scalar.text): return scalar.text
            default: break
            }
        }
        context.error(.typeMismatch, at: node.position, path: path, ConfigMessages.expected("a string", found: node))
        return nil
    }

    /// An integer: a JSON integral number, or a YAML plain scalar that is a core-schema int.
    static func integer(_ node: ConfigNode, path: ConfigPath, context: DecodingContext) -> Int? {
        if case .scalar(let scalar) = node.value {
            switch scalar.kind {
            case .number:
                if let value = Int(scalar.text) { return value }
            case .plain:
                if let value = YAMLCoreSchema.integer(scalar.text), let int = Int(exactly: value) { return int }
            default: break
            }
        }
        context.error(.typeMismatch, at: node.position, path: path, ConfigMessages.expected("an integer", found: node))
        return nil
    }

    /// A boolean: JSON `true` / `false`, or a YAML plain `true` / `false` (any core spelling).
    static func bool(_ node: ConfigNode, path: ConfigPath, context: DecodingContext) -> Bool? {
        if case .scalar(let scalar) = node.value {
            switch scalar.kind {
            case .bool: return scalar.text == "true"
            case .plain: if let value = YAMLCoreSchema.bool(scalar.text) { return value }
            default: break
            }
        }
        context.error(
            .typeMismatch,
            at: node.position,
            path: path,
            ConfigMessages.expected("true or false", found: node)
        )
        return nil
    }

    /// The node as a JSON value (YAML plain scalars typed by the core schema).
    static func jsonValue(_ node: ConfigNode) -> JSONValue {
        switch node.value {
        case .object(let members):
            var object: [String: JSONValue] = [:]
            for member in members { object[member.key] = jsonValue(member.value) }
            return .object(object)
        case .array(let elements):
            return .array(elements.map(jsonValue))
        case .scalar(let scalar):
            switch scalar.kind {
            case .string: return .string(scalar.text)
            case .bool: return .bool(scalar.text == "true")
            case .null: return .null
            case .number: return Int64(scalar.text).map(JSONValue.integer) ?? .number(Double(scalar.text) ?? 0)
            case .plain: return YAMLCoreSchema.jsonValue(ofPlain: scalar.text)
            }
        }
    }
}
