extension OrgValue {
    /// Parses one JSON document.
    ///
    /// - Parameter text: The JSON text; whitespace may surround the value.
    /// - Returns: The value.
    /// - Throws: ``OrgClientError`` with code ``OrgClientError/Code/invalidResponse`` when the text
    ///   is not one well-formed JSON value.
    public init(parsing text: String) throws {
        var text = text
        do {
            self = try text.withUTF8 { bytes in
                var reader = JSONReader(bytes: bytes)
                return try reader.readDocument()
            }
        } catch let error as JSONReader.SyntaxError {
            throw OrgClientError.malformedJSON(error, context: "a JSON value")
        }
    }

    /// The compact JSON text of this value, with object keys sorted so output is stable.
    ///
    /// Non-finite numbers, which JSON cannot express, are written as `null`.
    public var jsonText: String {
        var output = ""
        write(to: &output)
        return output
    }

    func write(to output: inout String) {
        switch self {
        case .null:
            output += "null"
        case .bool(let value):
            output += value ? "true" : "false"
        case .integer(let value):
            output += String(value)
        case .number(let value):
            if value.isFinite {
                output += value.description
            } else {
                output += "null"
            }
        case .string(let value):
            Self.writeString(value, to: &output)
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                element.write(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { output += "," }
                Self.writeString(key, to: &output)
                output += ":"
                members[key, default: .null].write(to: &output)
            }
            output += "}"
        }
    }

    static func writeString(_ string: String, to output: inout String) {
        output += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}

extension OrgValue: CustomStringConvertible {
    /// The compact JSON text; see ``jsonText``.
    public var description: String { jsonText }
}
