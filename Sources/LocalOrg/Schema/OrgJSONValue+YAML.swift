import SyncConfig

extension OrgJSONValue {
    /// Reads a YAML schema document as the JSON value it transcribes.
    ///
    /// - Parameters:
    ///   - text: The YAML text.
    ///   - source: The file name, for messages.
    /// - Throws: ``OrgError`` (`invalidInput`) naming the file, line and column.
    static func decode(yaml text: String, source: String) throws -> OrgJSONValue {
        do {
            return OrgJSONValue(try JSONValue.decode(yaml: text))
        } catch let error as YAMLDocumentError {
            throw OrgError.invalidInput("\(source):\(error.line):\(error.column): invalid YAML: \(error.message)")
        }
    }

    /// The same value in the local org's JSON type; object keys in sorted order.
    init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .integer(let number): self = .integer(number)
        case .number(let number): self = .double(number)
        case .string(let text): self = .string(text)
        case .array(let elements): self = .array(elements.map(OrgJSONValue.init))
        case .object(let members):
            self = .object(OrgJSONObject(members.sorted { $0.key < $1.key }.map { ($0.key, OrgJSONValue($0.value)) }))
        }
    }
}
