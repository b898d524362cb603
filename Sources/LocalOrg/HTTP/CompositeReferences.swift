/// `@{referenceId.path}` references between composite subrequests (§5.2), e.g. `@{refAcct.id}` or
/// `@{refQ.records[0].Id}`, resolved against the bodies of earlier subrequests.
struct CompositeReferences {
    /// Why a reference could not be resolved; `reference` is the text inside `@{…}`.
    struct Unresolved: Error, Equatable {
        var reference: String
    }

    /// The result bodies of the subrequests run so far, by reference ID.
    private var results: [String: OrgJSONValue] = [:]

    /// Records the body of a successful subrequest.
    mutating func record(_ body: OrgJSONValue, for referenceID: String) {
        results[referenceID] = body
    }

    /// The reference IDs named in `text`, in order.
    static func referenceIDs(in text: String) -> [String] {
        var names: [String] = []
        var rest = Substring(text)
        while let start = rest.range(of: "@{") {
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else { break }
            let inner = rest[start.upperBound..<end]
            let name = inner.prefix { $0 != "." && $0 != "[" }
            names.append(String(name))
            rest = rest[rest.index(after: end)...]
        }
        return names
    }

    /// The reference IDs named anywhere in a JSON value's strings.
    static func referenceIDs(in value: OrgJSONValue) -> [String] {
        switch value {
        case .string(let text): referenceIDs(in: text)
        case .array(let elements): elements.flatMap { referenceIDs(in: $0) }
        case .object(let object): object.members.flatMap { referenceIDs(in: $0.value) }
        default: []
        }
    }

    /// `text` with every reference replaced by the text of its value.
    func substitute(in text: String) throws(Unresolved) -> String {
        guard text.contains("@{") else { return text }
        var output = ""
        var rest = Substring(text)
        while let start = rest.range(of: "@{"), let end = rest[start.upperBound...].firstIndex(of: "}") {
            output += rest[..<start.lowerBound]
            let value = try resolve(String(rest[start.upperBound..<end]))
            output += Self.text(of: value)
            rest = rest[rest.index(after: end)...]
        }
        return output + rest
    }

    /// `value` with references replaced: a string that is exactly one reference takes the referenced
    /// value (keeping its JSON type); other strings get the referenced text spliced in.
    func substitute(in value: OrgJSONValue) throws(Unresolved) -> OrgJSONValue {
        switch value {
        case .string(let text):
            if text.hasPrefix("@{"), text.hasSuffix("}"),
                text.dropFirst(2).firstIndex(of: "}") == text.index(before: text.endIndex)
            {
                return try resolve(String(text.dropFirst(2).dropLast()))
            }
            return .string(try substitute(in: text))
        case .array(let elements):
            var resolved: [OrgJSONValue] = []
            for element in elements { resolved.append(try substitute(in: element)) }
            return .array(resolved)
        case .object(let object):
            var resolved = OrgJSONObject()
            for member in object.members { resolved[member.key] = try substitute(in: member.value) }
            return .object(resolved)
        default:
            return value
        }
    }

    /// Resolves `refId.a.b[0].c`.
    private func resolve(_ reference: String) throws(Unresolved) -> OrgJSONValue {
        var tokens = Self.tokens(of: reference)
        guard case .name(let referenceID)? = tokens.first, var value = results[referenceID] else {
            throw Unresolved(reference: reference)
        }
        tokens.removeFirst()
        for token in tokens {
            switch (token, value) {
            case (.name(let name), .object(let object)):
                // Reference paths match field names as Salesforce does, ignoring case.
                guard let next = object[name] ?? object.value(forCaseInsensitiveKey: name) else {
                    throw Unresolved(reference: reference)
                }
                value = next
            case (.index(let index), .array(let elements)) where elements.indices.contains(index):
                value = elements[index]
            default:
                throw Unresolved(reference: reference)
            }
        }
        return value
    }

    private enum Token {
        case name(String)
        case index(Int)
    }

    private static func tokens(of path: String) -> [Token] {
        var tokens: [Token] = []
        for part in path.split(separator: ".", omittingEmptySubsequences: false) {
            var rest = Substring(part)
            let name = rest.prefix { $0 != "[" }
            if !name.isEmpty { tokens.append(.name(String(name))) }
            rest = rest.dropFirst(name.count)
            while rest.first == "[", let close = rest.firstIndex(of: "]") {
                if let index = Int(rest[rest.index(after: rest.startIndex)..<close]) {
                    tokens.append(.index(index))
                } else {
                    tokens.append(.name(String(rest[rest.index(after: rest.startIndex)..<close])))
                }
                rest = rest[rest.index(after: close)...]
            }
        }
        return tokens
    }

    private static func text(of value: OrgJSONValue) -> String {
        switch value {
        case .string(let text): text
        case .null: "null"
        default: value.jsonText
        }
    }
}
