import JSONCore
import Yams

/// A JSON value written as block-style YAML, by Yams (for `org schema pull --output FILE.yaml`).
///
/// Each scalar carries its tag; strings that a plain scalar would read back as something else
/// under the YAML 1.2 core schema (`"001"`, `"true"`, `"null"`) are double-quoted, and the emitter
/// quotes what YAML syntax needs (`"a: b"`). Numbers, booleans and `null` stay plain. Member order
/// is kept.
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
        case .string(let text): string(text)
        case .array(let items): .sequence(Node.Sequence(items.map(node)))
        case .object(let object): .mapping(Node.Mapping(object.map { (string($0.0), node($0.1)) }))
        }
    }

    /// A string scalar, double-quoted when a plain scalar would read back as something else under
    /// the YAML 1.2 core schema the config and schema loaders use (`001`, `true`, `null`, `1e3`):
    /// Yams' own resolver is YAML 1.1's, which takes `001` for a string.
    private static func string(_ text: String) -> Node {
        let plainIsString = YAMLCoreSchema.jsonValue(ofPlain: text) == .string(text)
        return Node(text, Tag(.str), plainIsString ? .any : .doubleQuoted)
    }
}
