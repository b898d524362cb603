import Foundation

/// A JSON value as the local org reads request bodies and seed files and writes describe results.
///
/// Numbers keep their kind: `integer` for literals without a fraction or exponent that fit in 64 bits,
/// `double` otherwise, so `10` and `10.0` round-trip. Objects keep their key order (``OrgJSONObject``),
/// and encoding is deterministic.
///
/// It is not JSONCore's `JSONValue` on purpose: the emulator shares no wire code with the client,
/// so the two cannot silently agree on a wrong wire format.
///
/// ```swift
/// let body = try OrgJSONValue.decode(requestBytes)   // throws OrgError JSON_PARSER_ERROR
/// guard case .object(let fields) = body else { … }
/// let id = try writer.create("Account", fields: fields)
/// ```
public enum OrgJSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number without fraction or exponent that fits in `Int64`.
    case integer(Int64)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([OrgJSONValue])
    /// An object, in key order.
    case object(OrgJSONObject)

    /// The string payload, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The object payload, if this is an object.
    public var objectValue: OrgJSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The array payload, if this is an array.
    public var arrayValue: [OrgJSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The Boolean payload, if this is a Boolean.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The numeric payload as a `Double`, if this is a number.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// Whether this is `null`.
    public var isNull: Bool { self == .null }

    /// The JSON type name used in messages (`string`, `number`, `object`…).
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .integer, .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

extension OrgJSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(arrayLiteral elements: OrgJSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, OrgJSONValue)...) {
        self = .object(OrgJSONObject(elements))
    }
}
