/// A JSON value, used wherever the config model keeps data it does not interpret.
///
/// Unknown keys of a sync definition, a target or the options are kept as `JSONValue`s so a
/// definition read by syncrun can be written back unchanged (see ``SyncDefinition/normalizedJSON``).
/// Numbers keep their kind: an integer literal is ``integer(_:)``, anything else ``number(_:)``.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integral number that fits in 64 bits.
    case integer(Int64)
    /// Any other number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; key order is not significant (serialisation sorts keys).
    case object([String: JSONValue])
}

extension JSONValue {
    /// The string, when this is a ``string(_:)``.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The members, when this is an ``object(_:)``.
    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an ``array(_:)``.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// Makes a string array value, or `nil` when `strings` is `nil`.
    static func strings(_ strings: [String]?) -> JSONValue? {
        strings.map { .array($0.map(JSONValue.string)) }
    }
}
