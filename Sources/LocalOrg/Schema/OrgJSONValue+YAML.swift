import JSONCore
import Yams

extension OrgJSONValue {
    /// Reads a YAML schema document as the JSON value it transcribes, with YAML 1.2 core-schema
    /// scalars: quoted scalars stay strings; plain ones become null, booleans or numbers only when
    /// they match the core schema. Merge keys (`<<: *defaults`) add the keys a mapping lacks.
    ///
    /// The local org reads YAML through Yams directly, not through the config loader, so the
    /// emulator does not depend on the config layer.
    ///
    /// - Parameters:
    ///   - text: The YAML text.
    ///   - source: The file name, for messages.
    /// - Throws: ``OrgError`` (`invalidInput`) naming the file, line and column.
    static func decode(yaml text: String, source: String) throws -> OrgJSONValue {
        let root: Node?
        do {
            let parser = try Parser(yaml: text, resolver: .basic, constructor: .default, encoding: .utf8)
            root = try parser.singleRoot()
        } catch let error as YamlError {
            throw OrgError.invalidInput("\(source):\(Self.describe(error))")
        }
        guard let root else { throw OrgError.invalidInput("\(source):1:1: invalid YAML: the file is empty") }
        var budget = YAMLBudget()
        return try Self(yaml: root, source: source, depth: 1, budget: &budget)
    }

    private struct YAMLBudget {
        var nodes = 0
    }

    private init(yaml node: Node, source: String, depth: Int, budget: inout YAMLBudget) throws {
        budget.nodes += 1
        guard depth <= JSONReader.defaultMaximumDepth, budget.nodes <= 100_000 else {
            let mark = node.mark.map { "\($0.line):\($0.column)" } ?? "1:1"
            throw OrgError.invalidInput(
                "\(source):\(mark): invalid YAML: the document nests too deep or expands to too many values"
            )
        }
        switch node {
        case .scalar(let scalar):
            self = Self.value(of: scalar)
        case .sequence(let sequence):
            var elements: [OrgJSONValue] = []
            for element in sequence {
                elements.append(try Self(yaml: element, source: source, depth: depth + 1, budget: &budget))
            }
            self = .array(elements)
        case .mapping(let mapping):
            var members: [String: OrgJSONValue] = [:]
            var merged: [String: OrgJSONValue] = [:]
            for (key, value) in mapping {
                guard case .scalar(let keyScalar) = key else {
                    let mark = key.mark.map { "\($0.line):\($0.column)" } ?? "1:1"
                    throw OrgError.invalidInput(
                        "\(source):\(mark): invalid YAML: keys must be plain strings, not collections"
                    )
                }
                let converted = try Self(yaml: value, source: source, depth: depth + 1, budget: &budget)
                if keyScalar.string == "<<", keyScalar.style == .plain {
                    // One mapping or a sequence of them; earlier ones win.
                    let sources = converted.arrayValue ?? [converted]
                    for case .object(let object) in sources {
                        for (name, member) in object where merged[name] == nil { merged[name] = member }
                    }
                    continue
                }
                members[keyScalar.string] = converted
            }
            for (name, member) in merged where members[name] == nil { members[name] = member }
            self = .object(OrgJSONObject(members.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        case .alias:
            // Yams replaces aliases by the anchored node while composing; nothing reaches here.
            self = .null
        }
    }

    private static func value(of scalar: Node.Scalar) -> OrgJSONValue {
        let tag = scalar.tag.rawValue
        switch scalar.style {
        case .singleQuoted, .doubleQuoted, .literal, .folded:
            return .string(scalar.string)
        case .plain, .any:
            if tag == Tag.Name.str.rawValue || tag == "!" { return .string(scalar.string) }
        }
        switch YAMLCoreSchema.jsonValue(ofPlain: scalar.string) {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .integer(let number): return .integer(number)
        case .number(let number): return .double(number)
        default: return .string(scalar.string)
        }
    }

    /// `line:column: invalid YAML: problem` for a Yams error.
    private static func describe(_ error: YamlError) -> String {
        switch error {
        case .scanner(let context, let problem, let mark, _),
            .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let detail = context.map { " (\($0.text) at line \($0.mark.line), column \($0.mark.column))" } ?? ""
            return "\(mark.line):\(mark.column): invalid YAML: \(problem)\(detail)"
        case .duplicatedKeysInMapping(let duplicates, let context):
            return "\(context.mark.line):\(context.mark.column): invalid YAML: duplicate key "
                + "'\(duplicates.first ?? "")'"
        default:
            return "1:1: invalid YAML: \(error)"
        }
    }
}
