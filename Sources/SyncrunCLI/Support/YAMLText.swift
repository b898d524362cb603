import JSONCore
import Yams

/// A JSON value written as block-style YAML, by Yams (for `org schema pull --output FILE.yaml`).
///
/// Each scalar carries its YAML 1.2 core-schema tag, so the emitter quotes exactly the strings that
/// would read back as something else (`"true"`, `"1.0"`, `"null"`, `"a: b"`), and numbers, booleans
/// and `null` stay plain. Member order is kept.
enum YAMLText {
    /// - Throws: `YamlError` from the emitter.
    static func document(_ value: JSONValue) throws -> String {
        try Yams.serialize(node: node(value), width: -1, allowUnicode: true)
    }

    private static func node(_ value: JSONValue) -> Node {
        switch value {
        case .null: Node("null", Tag(.null))
        case .bool(let flag): Node(flag ? "true" : "false", Tag(.bool))
        case .integer: Node(value.jsonText(), Tag(.int))
        case .number: Node(value.jsonText(), Tag(.float))
        case .string(let text): Node(text, Tag(.str))
        case .array(let items): .sequence(Node.Sequence(items.map(node)))
        case .object(let object): .mapping(Node.Mapping(object.map { (Node($0.0, Tag(.str)), node($0.1)) }))
        }
    }
}
