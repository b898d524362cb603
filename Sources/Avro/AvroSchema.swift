import JSONCore

/// A parsed Avro schema: its root type and the named types (records, enums, fixed) it defines.
///
/// Named types appear in the tree as ``AvroType/named(_:)`` references by full name, defined once
/// in ``namedTypes``, so recursive records (a linked list) are plain values. Parsed from the JSON
/// text the Pub/Sub API's `GetSchema` returns (Avro 1.11 specification, "Schema Declaration").
public struct AvroSchema: Sendable, Hashable {
    /// The root type.
    public var root: AvroType
    /// Every named type the schema defines, by full name (`com.sforce.eventbus.ChangeEventHeader`).
    public var namedTypes: [String: AvroNamedType]

    public init(root: AvroType, namedTypes: [String: AvroNamedType] = [:]) {
        self.root = root
        self.namedTypes = namedTypes
    }

    /// The named type called `fullName`.
    public func namedType(_ fullName: String) -> AvroNamedType? { namedTypes[fullName] }

    /// The record called `fullName`, or the root record when `fullName` is `nil`.
    public func record(_ fullName: String? = nil) -> AvroRecord? {
        let name: String
        if let fullName {
            name = fullName
        } else if case .named(let rootName) = root.withoutLogicalType {
            name = rootName
        } else {
            return nil
        }
        if case .record(let record) = namedTypes[name] { return record }
        return nil
    }
}

/// A type in an Avro schema.
public indirect enum AvroType: Sendable, Hashable {
    case null
    case boolean
    case int
    case long
    case float
    case double
    case bytes
    case string
    /// An array of items of the type.
    case array(AvroType)
    /// A map from strings to values of the type.
    case map(AvroType)
    /// One of the branches, written as the branch's index and its value.
    case union([AvroType])
    /// A record, enum or fixed type, by full name, defined in ``AvroSchema/namedTypes``.
    case named(String)
    /// A type annotated with a logical type (`timestamp-millis`, `decimal`, …); encoded as the
    /// underlying type, the annotation kept for readers.
    case logical(AvroLogicalType, AvroType)

    /// The type without its logical-type annotation.
    public var withoutLogicalType: AvroType {
        if case .logical(_, let underlying) = self { return underlying.withoutLogicalType }
        return self
    }

    /// The primitive type called `name`, if it is one.
    public static func primitive(named name: String) -> AvroType? {
        switch name {
        case "null": .null
        case "boolean": .boolean
        case "int": .int
        case "long": .long
        case "float": .float
        case "double": .double
        case "bytes": .bytes
        case "string": .string
        default: nil
        }
    }

    /// The primitive's name, for the primitive types.
    public var primitiveName: String? {
        switch self {
        case .null: "null"
        case .boolean: "boolean"
        case .int: "int"
        case .long: "long"
        case .float: "float"
        case .double: "double"
        case .bytes: "bytes"
        case .string: "string"
        default: nil
        }
    }
}

/// A logical-type annotation (Avro 1.11, "Logical Types"): its name and, for `decimal`, its
/// precision and scale.
public struct AvroLogicalType: Sendable, Hashable {
    public var name: String
    public var precision: Int?
    public var scale: Int?

    public init(name: String, precision: Int? = nil, scale: Int? = nil) {
        self.name = name
        self.precision = precision
        self.scale = scale
    }
}

/// A named type's definition.
public enum AvroNamedType: Sendable, Hashable {
    case record(AvroRecord)
    case enumeration(AvroEnum)
    case fixed(AvroFixed)

    /// The full name.
    public var fullName: String {
        switch self {
        case .record(let record): record.fullName
        case .enumeration(let enumeration): enumeration.fullName
        case .fixed(let fixed): fixed.fullName
        }
    }
}

/// A record type.
public struct AvroRecord: Sendable, Hashable {
    public var fullName: String
    public var fields: [AvroField]
    public var doc: String?
    public var aliases: [String]

    public init(fullName: String, fields: [AvroField], doc: String? = nil, aliases: [String] = []) {
        self.fullName = fullName
        self.fields = fields
        self.doc = doc
        self.aliases = aliases
    }

    /// The field called `name`.
    public func field(_ name: String) -> AvroField? { fields.first { $0.name == name } }

    /// The index of the field called `name`.
    public func fieldIndex(_ name: String) -> Int? { fields.firstIndex { $0.name == name } }
}

/// A record's field.
public struct AvroField: Sendable, Hashable {
    public var name: String
    public var type: AvroType
    /// The default value, as written in the schema's JSON.
    public var defaultValue: JSONValue?
    public var doc: String?

    public init(name: String, type: AvroType, defaultValue: JSONValue? = nil, doc: String? = nil) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.doc = doc
    }
}

/// An enum type.
public struct AvroEnum: Sendable, Hashable {
    public var fullName: String
    public var symbols: [String]
    public var defaultSymbol: String?
    public var doc: String?

    public init(fullName: String, symbols: [String], defaultSymbol: String? = nil, doc: String? = nil) {
        self.fullName = fullName
        self.symbols = symbols
        self.defaultSymbol = defaultSymbol
        self.doc = doc
    }
}

/// A fixed-size bytes type.
public struct AvroFixed: Sendable, Hashable {
    public var fullName: String
    public var size: Int
}
