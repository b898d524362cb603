import JSONCore

/// A JSON value written as block-style YAML (for `org schema pull --output FILE.yaml`).
///
/// JSON is YAML 1.2, so each scalar is written as its JSON text: strings double-quoted by
/// JSONCore's one escaper (a JSON string is a valid YAML double-quoted scalar, and quoting keeps
/// `"true"`, `"1.0"` or `"null"` strings), numbers, booleans and `null` as they are. Mappings and
/// sequences are block style; a key is written plain when it is a simple name, else quoted.
enum YAMLText {
    static func document(_ value: JSONValue) -> String {
        var output = ""
        write(value, indent: 0, to: &output)
        return output
    }

    /// Writes `value` as the content of a block at `indent` (a mapping's members or a sequence's
    /// items, each on its own line), or as one scalar line.
    private static func write(_ value: JSONValue, indent: Int, to output: inout String) {
        let pad = String(repeating: " ", count: indent)
        switch value {
        case .object(let object) where !object.isEmpty:
            for (key, member) in object {
                output += pad + self.key(key) + ":"
                writeNested(member, indent: indent + 2, to: &output)
            }
        case .array(let items) where !items.isEmpty:
            for item in items {
                output += pad + "-"
                switch item {
                case .object(let object) where !object.isEmpty:
                    // The first member on the dash's line, the rest under it.
                    var first = true
                    for (key, member) in object {
                        output += (first ? " " : pad + "  ") + self.key(key) + ":"
                        writeNested(member, indent: indent + 4, to: &output)
                        first = false
                    }
                default:
                    writeNested(item, indent: indent + 2, to: &output)
                }
            }
        default:
            output += pad + scalar(value) + "\n"
        }
    }

    /// After `key:` or `-`: a scalar (or an empty collection) on the same line, else a block below.
    private static func writeNested(_ value: JSONValue, indent: Int, to output: inout String) {
        switch value {
        case .object(let object) where !object.isEmpty:
            output += "\n"
            write(value, indent: indent, to: &output)
        case .array(let items) where !items.isEmpty:
            output += "\n"
            write(value, indent: indent, to: &output)
        default:
            output += " " + scalar(value) + "\n"
        }
    }

    private static func scalar(_ value: JSONValue) -> String {
        switch value {
        case .object: "{}"
        case .array: "[]"
        default: value.jsonText()
        }
    }

    /// A key plain when it is a simple name (`fields`, `Account`, `acme__Score__c`) that reads
    /// back as that string, else quoted.
    private static func key(_ key: String) -> String {
        let isName = key.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || $0 == "_" || ("0"..."9").contains($0))
        }
        let startsWell = key.first.map { $0.isLetter || $0 == "_" } ?? false
        let simple = isName && startsWell && YAMLCoreSchema.jsonValue(ofPlain: key) == .string(key)
        return simple ? key : JSONWriter.quoted(key)
    }
}
