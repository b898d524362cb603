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
        scalar(node, path: path, context: context, expected: "a string") { scalar in
            switch scalar.kind {
            case .string: scalar.text
            case .plain where !YAMLCoreSchema.isNull(scalar.text): scalar.text
            default: nil
            }
        }
    }

    /// An integer: a JSON integral number, or a YAML plain scalar that is a core-schema int.
    static func integer(_ node: ConfigNode, path: ConfigPath, context: DecodingContext) -> Int? {
        scalar(node, path: path, context: context, expected: "an integer") { scalar in
            switch scalar.kind {
            case .number: Int(scalar.text)
            case .plain: YAMLCoreSchema.integer(scalar.text).flatMap { Int(exactly: $0) }
            default: nil
            }
        }
    }

    /// A boolean: JSON `true` / `false`, or a YAML plain `true` / `false` (any core spelling).
    static func bool(_ node: ConfigNode, path: ConfigPath, context: DecodingContext) -> Bool? {
        scalar(node, path: path, context: context, expected: "true or false") { scalar in
            switch scalar.kind {
            case .bool: scalar.text == "true"
            case .plain: YAMLCoreSchema.bool(scalar.text)
            default: nil
            }
        }
    }

    /// What `read` makes of `node`'s scalar; when `node` is not a scalar or `read` gives `nil`, a
    /// `type-mismatch` saying what was `expected`.
    private static func scalar<Value>(
        _ node: ConfigNode,
        path: ConfigPath,
        context: DecodingContext,
        expected: String,
        _ read: (ConfigNode.Scalar) -> Value?
    ) -> Value? {
        if case .scalar(let scalar) = node.value, let value = read(scalar) { return value }
        context.typeMismatch(node, path: path, expected: expected)
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
