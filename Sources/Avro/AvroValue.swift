/// A datum read from or written as Avro binary: a typed value, one case per Avro type.
///
/// A union's value keeps the index of its branch; a record's fields are keyed by name (their order
/// is the schema's); an enum's value is its symbol.
public indirect enum AvroValue: Sendable, Hashable {
    case null
    case boolean(Bool)
    case int(Int32)
    case long(Int64)
    case float(Float)
    case double(Double)
    case bytes([UInt8])
    case string(String)
    case array([AvroValue])
    case map([String: AvroValue])
    /// The union branch's index and the value of that branch's type.
    case union(branch: Int, AvroValue)
    case record([String: AvroValue])
    case enumeration(String)
    case fixed([UInt8])
}

extension AvroValue {
    /// The value inside a union (recursively), or the value itself when it is not a union.
    public var unwrapped: AvroValue {
        if case .union(_, let value) = self { return value.unwrapped }
        return self
    }

    /// The string, when this is a string or an enum symbol (through unions).
    public var stringValue: String? {
        switch unwrapped {
        case .string(let text), .enumeration(let text): text
        default: nil
        }
    }

    /// The integer, when this is an int or a long (through unions).
    public var integerValue: Int64? {
        switch unwrapped {
        case .int(let value): Int64(value)
        case .long(let value): value
        default: nil
        }
    }

    /// The elements, when this is an array (through unions).
    public var arrayValue: [AvroValue]? {
        if case .array(let elements) = unwrapped { return elements }
        return nil
    }

    /// The fields, when this is a record (through unions).
    public var recordValue: [String: AvroValue]? {
        if case .record(let fields) = unwrapped { return fields }
        return nil
    }

    /// Whether this is null (through unions).
    public var isNull: Bool { unwrapped == .null }

    /// The record field called `name` (through unions).
    public subscript(field name: String) -> AvroValue? { recordValue?[name] }
}
