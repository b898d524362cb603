/// The YAML 1.2 core schema rules for plain scalars, applied only where the model expects a
/// number, a boolean or null, so nothing is coerced where a string is expected. Shared by the
/// config loader and the local org's schema files (both read YAML as the JSON it transcribes).
package enum YAMLCoreSchema {
    /// `null`, `Null`, `NULL`, `~` or empty.
    package static func isNull(_ text: String) -> Bool {
        ["", "~", "null", "Null", "NULL"].contains(text)
    }

    /// `true` / `false` in the three spellings the core schema allows.
    package static func bool(_ text: String) -> Bool? {
        switch text {
        case "true", "True", "TRUE": true
        case "false", "False", "FALSE": false
        default: nil
        }
    }

    /// Decimal (`[-+]?[0-9]+`), octal (`0o…`) or hexadecimal (`0x…`) integers.
    package static func integer(_ text: String) -> Int64? {
        if text.hasPrefix("0o") { return Int64(text.dropFirst(2), radix: 8) }
        if text.hasPrefix("0x") { return Int64(text.dropFirst(2), radix: 16) }
        let digits = text.hasPrefix("+") || text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
        return Int64(text.hasPrefix("+") ? String(digits) : text)
    }

    /// Core-schema floats: `1.5`, `-2e3`, `.inf`, `.nan`.
    package static func float(_ text: String) -> Double? {
        switch text {
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .infinity
        case "-.inf", "-.Inf", "-.INF": return -.infinity
        case ".nan", ".NaN", ".NAN": return .nan
        default: break
        }
        let allowed = Set("0123456789+-.eE".unicodeScalars)
        guard text.unicodeScalars.contains(where: { ("0"..."9").contains($0) }),
            text.unicodeScalars.allSatisfy({ allowed.contains($0) })
        else { return nil }
        return Double(text)
    }

    /// The JSON value of a plain scalar under the core schema (for keys kept verbatim).
    package static func jsonValue(ofPlain text: String) -> JSONValue {
        if isNull(text) { return .null }
        if let value = bool(text) { return .bool(value) }
        if let value = integer(text) { return .integer(value) }
        if let value = float(text) { return .number(value) }
        return .string(text)
    }
}
