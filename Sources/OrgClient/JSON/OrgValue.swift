/// A JSON value sent to or received from an org: record fields, composite bodies, results.
///
/// `OrgValue` is the typed form the client uses wherever it must build or read a JSON document
/// that is not a query page (query pages stay raw bytes, see ``QueryPage``). Numbers keep their
/// kind: an integer literal is ``integer(_:)``, anything else ``number(_:)``. It deliberately does
/// not conform to `ExpressibleByNilLiteral`: a `nil` must never silently become ``null`` where an
/// optional was meant.
///
/// ```swift
/// let fields: [String: OrgValue] = ["Name": "Acme", "NumberOfEmployees": 12, "Rating": .null]
/// ```
public enum OrgValue: Sendable, Hashable {
    /// `null`; in a write body it clears the field.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integral number that fits in 64 bits.
    case integer(Int64)
    /// Any other number.
    case number(Double)
    /// A string (dates, IDs and picklist values are strings on the wire).
    case string(String)
    /// An array.
    case array([OrgValue])
    /// An object; key order is not significant (serialisation sorts keys).
    case object([String: OrgValue])
}

extension OrgValue {
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

    /// The members, when this is an ``object(_:)``.
    public var objectValue: [String: OrgValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an ``array(_:)``.
    public var arrayValue: [OrgValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// Whether this is ``null``.
    public var isNull: Bool { self == .null }

    /// The member named `key`, when this is an object that has it.
    public subscript(key: String) -> OrgValue? {
        objectValue?[key]
    }
}

extension OrgValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension OrgValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension OrgValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .number(value) }
}

extension OrgValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension OrgValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: OrgValue...) { self = .array(elements) }
}

extension OrgValue: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, OrgValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
