// The `json` format: written by hand so the key order is fixed and the bytes are the same on
// every platform and Foundation version (JSONEncoder's pretty printing is not specified).
extension SyncPlan {
    /// Renders the plan as pretty JSON (two-space indent, keys in a fixed order, a trailing
    /// newline). Decodes back to an equal plan with `JSONDecoder`.
    func jsonRendering() -> String {
        var out = "{\n"
        out += "  \"formatVersion\": \(formatVersion),\n"
        if steps.isEmpty {
            out += "  \"steps\": []\n}\n"
            return out
        }
        out += "  \"steps\": [\n"
        for (index, step) in steps.enumerated() {
            out += step.jsonRendering(indent: "    ")
            out += index == steps.count - 1 ? "\n" : ",\n"
        }
        out += "  ]\n}\n"
        return out
    }
}

extension PlanStep {
    fileprivate func jsonRendering(indent: String) -> String {
        let inner = indent + "  "
        var fields = [
            "\"id\": \(JSONText.string(id))",
            "\"kind\": \(JSONText.string(kind.rawValue))",
            "\"syncName\": \(JSONText.string(syncName))",
            "\"soupName\": \(JSONText.string(soupName))",
            "\"soups\": \(JSONText.stringArray(soups))",
            "\"target\": \(JSONText.string(target))",
        ]
        if let resync {
            fields.append("\"resync\": \(JSONText.string(resync.rawValue))")
        }
        fields.append("\"dependsOn\": \(JSONText.stringArray(dependsOn))")
        if reasons.isEmpty {
            fields.append("\"reasons\": []")
        } else {
            let reasonIndent = inner + "  "
            let objects = reasons.map { reason in
                "\(reasonIndent){\n"
                    + "\(reasonIndent)  \"step\": \(JSONText.string(reason.step)),\n"
                    + "\(reasonIndent)  \"rule\": \(JSONText.string(reason.rule.rawValue)),\n"
                    + "\(reasonIndent)  \"detail\": \(JSONText.string(reason.detail))\n"
                    + "\(reasonIndent)}"
            }
            fields.append("\"reasons\": [\n" + objects.joined(separator: ",\n") + "\n\(inner)]")
        }
        return "\(indent){\n" + fields.map { inner + $0 }.joined(separator: ",\n") + "\n\(indent)}"
    }
}

/// JSON text for the few value shapes a plan has.
enum JSONText {
    /// A JSON string literal (RFC 8259 escaping; non-ASCII characters are kept as UTF-8).
    static func string(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16, uppercase: false)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A one-line array of strings: `["a", "b"]`.
    static func stringArray(_ values: [String]) -> String {
        "[" + values.map(string).joined(separator: ", ") + "]"
    }
}
