import JSONCore

/// Reads the members of one object of the positioned tree, reporting missing keys, wrong
/// types and (at the end) unknown keys to the load's diagnostics.
///
/// Accessors return `nil` both when a key is absent and when its value is unusable; in the
/// second case a diagnostic has been reported. `null` counts as absent for optional keys.
struct ObjectReader {
    let context: DecodingContext
    let node: ConfigNode
    let path: ConfigPath
    private let members: [ConfigNode.Member]
    private var used: Set<String> = []

    /// Starts reading `node`, or reports that it is not an object and returns `nil`.
    init?(_ node: ConfigNode, path: ConfigPath, context: DecodingContext) {
        guard case .object(let members) = node.value else {
            context.typeMismatch(node, path: path, expected: "an object")
            return nil
        }
        self.context = context
        self.node = node
        self.path = path
        self.members = members
    }

    /// The keys present, in file order.
    var keys: [String] { members.map(\.key) }

    /// The value of `key` (`nil` when absent or null), marking the key as known.
    mutating func value(_ key: String) -> ConfigNode? {
        used.insert(key)
        guard let member = members.first(where: { $0.key == key }) else { return nil }
        if case .scalar(let scalar) = member.value.value, ValueReader.isNull(scalar) { return nil }
        return member.value
    }

    /// Whether `key` is present (even as null).
    func contains(_ key: String) -> Bool {
        members.contains { $0.key == key }
    }

    /// Reports that a required key is missing, at the object.
    func reportMissing(_ key: String) {
        context.error(.missingKey, at: node.position, path: path, ConfigMessages.missingKey(key, in: path))
    }

    /// Reports a required key that is absent (`missing-key`) or null (`type-mismatch`).
    private func reportAbsent(_ key: String, expected: String) {
        guard let member = members.first(where: { $0.key == key }) else { return reportMissing(key) }
        context.typeMismatch(member.value, path: path.appending(key), expected: expected)
    }

    /// A string member; reports a missing required key or a wrong type.
    mutating func string(_ key: String, required: Bool = false) -> String? {
        stringNode(key, required: required)?.text
    }

    /// A string member with its node (for positions inside the string).
    mutating func stringNode(_ key: String, required: Bool = false) -> (text: String, node: ConfigNode)? {
        guard let value = value(key) else {
            if required { reportAbsent(key, expected: "a string") }
            return nil
        }
        guard let text = ValueReader.string(value, path: path.appending(key), context: context) else { return nil }
        return (text, value)
    }

    /// A non-empty string member: an empty string is reported as `empty-value`.
    mutating func nonEmptyString(_ key: String, required: Bool = false) -> String? {
        guard let (text, value) = stringNode(key, required: required) else { return nil }
        guard !text.isEmpty else {
            context.error(.emptyValue, at: value.position, path: path.appending(key), ConfigMessages.emptyValue(key))
            return nil
        }
        if SOQLNameCheck.nameKeys.contains(key), !SOQLNameCheck.isName(text) {
            context.error(.invalidName, at: value.position, path: path.appending(key), ConfigMessages.invalidName(key))
            return nil
        }
        return text
    }

    /// An integer member.
    mutating func integer(_ key: String) -> (value: Int, node: ConfigNode)? {
        guard let value = value(key) else { return nil }
        guard let number = ValueReader.integer(value, path: path.appending(key), context: context) else { return nil }
        return (number, value)
    }

    /// `idFieldName` and `modificationDateFieldName`, the keys every target and every object of
    /// a target (`parent`, `children`, briefcase `infos`) has, each defaulted when absent
    /// (``TargetDefaults``).
    mutating func fieldNames() -> (id: String, modificationDate: String) {
        (
            nonEmptyString("idFieldName") ?? TargetDefaults.idFieldName,
            nonEmptyString("modificationDateFieldName") ?? TargetDefaults.modificationDateFieldName
        )
    }

    /// An optional integer member clamped into `range`, with a warning when it had to be
    /// (`maxBatchSize`, `bulkThreshold`, `countIdsPerSoql`, the integer options…).
    mutating func clampedInteger(_ key: String, range: ClosedRange<Int>) -> Int? {
        guard let (value, node) = integer(key) else { return nil }
        let used = min(max(value, range.lowerBound), range.upperBound)
        if used != value {
            context.warning(
                .valueClamped,
                at: node.position,
                path: path.appending(key),
                ConfigMessages.clamped(key, value: value, range: range, used: used)
            )
        }
        return used
    }

    /// A boolean member.
    mutating func bool(_ key: String) -> Bool? {
        guard let value = value(key) else { return nil }
        return ValueReader.bool(value, path: path.appending(key), context: context)
    }

    /// An array-of-strings member.
    mutating func stringArray(_ key: String, required: Bool = false) -> [String]? {
        stringArrayNodes(key, required: required)?.map(\.text)
    }

    /// An array-of-strings member with each element's node.
    mutating func stringArrayNodes(_ key: String, required: Bool = false) -> [(text: String, node: ConfigNode)]? {
        guard let elements = array(key, required: required) else { return nil }
        var result: [(text: String, node: ConfigNode)] = []
        var valid = true
        let isFieldList = SOQLNameCheck.fieldListKeys.contains(key)
        for (index, element) in elements.enumerated() {
            if let text = ValueReader.string(
                element,
                path: path.appending(key).appending(index: index),
                context: context
            ) {
                if isFieldList, !SOQLNameCheck.isSelectItem(text) {
                    context.error(
                        .invalidName,
                        at: element.position,
                        path: path.appending(key).appending(index: index),
                        ConfigMessages.invalidField(key)
                    )
                    valid = false
                    continue
                }
                result.append((text, element))
            } else {
                valid = false
            }
        }
        return valid ? result : nil
    }

    /// An array member's elements.
    mutating func array(_ key: String, required: Bool = false) -> [ConfigNode]? {
        guard let value = value(key) else {
            if required { reportAbsent(key, expected: "an array") }
            return nil
        }
        guard case .array(let elements) = value.value else {
            context.typeMismatch(value, path: path.appending(key), expected: "an array")
            return nil
        }
        return elements
    }

    /// The required array `key` of a config file's root (`soups`, `syncs`), its one key besides
    /// `$schema` (which points editors at the JSON Schema in `schemas/` and is not config); empty
    /// when absent or not an array (reported).
    mutating func topLevelArray(_ key: String) -> [ConfigNode] {
        let elements = array(key, required: true) ?? []
        _ = value("$schema")
        _ = extraKeys(known: [key])
        return elements
    }

    /// An object member.
    mutating func object(_ key: String, required: Bool = false) -> ObjectReader? {
        guard let value = value(key) else {
            if required { reportAbsent(key, expected: "an object") }
            return nil
        }
        return ObjectReader(value, path: path.appending(key), context: context)
    }

    /// What `read` makes of the object member `key`, given the member's own reader; `nil` when it
    /// is absent or not an object (reported).
    mutating func object<Value>(_ key: String, required: Bool = false, _ read: (inout ObjectReader) -> Value)
        -> Value?
    {
        guard var reader = object(key, required: required) else { return nil }
        return read(&reader)
    }

    /// The members not read so far, verbatim; each is reported as an `unknown-key` warning
    /// (with a suggestion among `known`) unless `warn` is false.
    func extraKeys(known: [String], warn: Bool = true) -> [String: JSONValue] {
        var extras: [String: JSONValue] = [:]
        for member in members where !used.contains(member.key) {
            extras[member.key] = ValueReader.jsonValue(member.value)
            guard warn else { continue }
            context.warning(
                .unknownKey,
                at: member.keyPosition,
                path: path.appending(member.key),
                ConfigMessages.unknownKey(member.key, suggestion: Suggestion.closest(to: member.key, in: known))
            )
        }
        return extras
    }

    /// Where the value of `key` starts, or the object's position when it is absent.
    func position(of key: String) -> TextPosition {
        members.first { $0.key == key }?.value.position ?? node.position
    }

    /// Where `key` itself is written, or the object's position when it is absent.
    func keyPosition(of key: String) -> TextPosition {
        members.first { $0.key == key }?.keyPosition ?? node.position
    }
}
