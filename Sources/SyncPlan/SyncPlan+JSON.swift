import JSONCore

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
            "\"id\": \(JSONWriter.quoted(id))",
            "\"kind\": \(JSONWriter.quoted(kind.rawValue))",
            "\"syncName\": \(JSONWriter.quoted(syncName))",
            "\"soupName\": \(JSONWriter.quoted(soupName))",
            "\"soups\": \(JSONText.stringArray(soups))",
            "\"target\": \(JSONWriter.quoted(target))",
        ]
        if let resync {
            fields.append("\"resync\": \(JSONWriter.quoted(resync.rawValue))")
        }
        if let api {
            fields.append("\"api\": \(JSONWriter.quoted(api))")
        }
        fields.append("\"dependsOn\": \(JSONText.stringArray(dependsOn))")
        if let requests { fields.append("\"requests\": \(JSONText.stringArray(requests))") }
        if reasons.isEmpty {
            fields.append("\"reasons\": []")
        } else {
            let reasonIndent = inner + "  "
            let objects = reasons.map { reason in
                "\(reasonIndent){\n"
                    + "\(reasonIndent)  \"step\": \(JSONWriter.quoted(reason.step)),\n"
                    + "\(reasonIndent)  \"rule\": \(JSONWriter.quoted(reason.rule.rawValue)),\n"
                    + "\(reasonIndent)  \"detail\": \(JSONWriter.quoted(reason.detail))\n"
                    + "\(reasonIndent)}"
            }
            fields.append("\"reasons\": [\n" + objects.joined(separator: ",\n") + "\n\(inner)]")
        }
        return "\(indent){\n" + fields.map { inner + $0 }.joined(separator: ",\n") + "\n\(indent)}"
    }
}

/// JSON text for the few value shapes a plan has (strings go through JSONCore's one escaper).
private enum JSONText {
    /// A one-line array of strings: `["a", "b"]`.
    static func stringArray(_ values: [String]) -> String {
        "[" + values.map(JSONWriter.quoted).joined(separator: ", ") + "]"
    }
}
