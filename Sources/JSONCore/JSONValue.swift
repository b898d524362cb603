/// A JSON value: the one value type of the package for JSON it reads or writes (config values
/// kept verbatim, org request and response bodies).
///
/// Numbers keep their kind: an integer literal that fits in 64 bits is ``integer(_:)``, anything
/// else ``number(_:)``. Objects keep their keys in the order they were read or inserted (see
/// ``JSONObject``); equality ignores that order, as JSON does. The type deliberately does not
/// conform to `ExpressibleByNilLiteral`: a `nil` must never silently become ``null`` where an
/// optional was meant.
///
/// ```swift
/// let fields: JSONValue = ["Name": "Acme", "NumberOfEmployees": 12, "Rating": .null]
/// ```
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
    /// An object, its keys in order.
    case object(JSONObject)
}

extension JSONValue {
    /// The string, when this is a ``string(_:)``.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The Boolean, when this is a ``bool(_:)``.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The number as an integer, when this is an ``integer(_:)`` or an integral ``number(_:)``.
    public var integerValue: Int64? {
        switch self {
        case .integer(let value): return value
        case .number(let value): return Int64(exactly: value)
        default: return nil
        }
    }

    /// The number, when this is an ``integer(_:)`` or a ``number(_:)``.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .number(let value): return value
        default: return nil
        }
    }

    /// The members as a dictionary (their order dropped), when this is an ``object(_:)``.
    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value.dictionary }
        return nil
    }

    /// The members in order, when this is an ``object(_:)``.
    public var orderedObjectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an ``array(_:)``.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// Whether this is ``null``.
    public var isNull: Bool { self == .null }

    /// The member named `key`, when this is an object that has it.
    public subscript(key: String) -> JSONValue? {
        orderedObjectValue?[key]
    }

    /// An object with the members of `dictionary`, keys in sorted order.
    public static func object(_ dictionary: [String: JSONValue]) -> JSONValue {
        .object(JSONObject(dictionary))
    }

    /// A string array value, or `nil` when `strings` is `nil`.
    public static func strings(_ strings: [String]?) -> JSONValue? {
        strings.map { .array($0.map(JSONValue.string)) }
    }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .number(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements))
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text; see ``jsonText``.
    public var description: String { jsonText }
}
