import Foundation

extension OrgJSONValue {
    /// The compact, deterministic JSON text of the value (object keys in their stored order).
    public func encoded() -> Data {
        var output = [UInt8]()
        output.reserveCapacity(256)
        append(to: &output)
        return Data(output)
    }

    /// The JSON text indented by two spaces per level, with a final newline (files people read).
    public func encodedPretty() -> Data {
        var output = [UInt8]()
        appendPretty(to: &output, indent: 0)
        output.append(0x0A)
        return Data(output)
    }

    private func appendPretty(to output: inout [UInt8], indent: Int) {
        func newline(_ level: Int) {
            output.append(0x0A)
            output.append(contentsOf: Array(repeating: UInt8(ascii: " "), count: level * 2))
        }
        switch self {
        case .array(let elements) where !elements.isEmpty:
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                element.appendPretty(to: &output, indent: indent + 1)
            }
            newline(indent)
            output.append(UInt8(ascii: "]"))
        case .object(let object) where !object.isEmpty:
            output.append(UInt8(ascii: "{"))
            for (position, member) in object.members.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                Self.appendString(member.key, to: &output)
                output.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
                member.value.appendPretty(to: &output, indent: indent + 1)
            }
            newline(indent)
            output.append(UInt8(ascii: "}"))
        default:
            append(to: &output)
        }
    }

    /// The JSON text as a string.
    public var jsonText: String { String(decoding: encoded(), as: UTF8.self) }

    func append(to output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: Array("null".utf8))
        case .bool(let value): output.append(contentsOf: Array((value ? "true" : "false").utf8))
        case .integer(let value): output.append(contentsOf: Array(String(value).utf8))
        case .double(let value): output.append(contentsOf: Array(Self.format(value).utf8))
        case .string(let value): Self.appendString(value, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                element.append(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            for (position, member) in object.members.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                Self.appendString(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                member.value.append(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Formats a double so it reads back as a double: `10.0`, `0.25`, `1.0e+20`; non-finite values as `null`.
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(format: "%.1f", value) }
        let text = "\(value)"
        return text.contains(".") || text.contains("e") ? text : text + ".0"
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    static func appendString(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                output.append(contentsOf: Array("\\u00".utf8))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
