/// Writes ``AvroValue``s as Avro binary data (Avro 1.11 specification, "Binary Encoding").
///
/// Arrays and maps are written as one block and the end marker (map keys sorted, so equal values
/// encode to equal bytes). A union's value is `.union(branch:_:)`; a plain value given for a union
/// is written as the first branch whose type it fits (so `.null` or `.string` can fill an optional).
public struct AvroEncoder {
    private let schema: AvroSchema
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []
    private var path = AvroPath()
    private var depth = 0

    public init(schema: AvroSchema) {
        self.schema = schema
    }

    /// `value`, a datum of `schema`'s root type, as Avro binary.
    public static func encode(_ value: AvroValue, as schema: AvroSchema) throws(AvroError) -> [UInt8] {
        var encoder = AvroEncoder(schema: schema)
        try encoder.encodeValue(value)
        return encoder.bytes
    }

    /// Appends `value`, a datum of the schema's root type.
    public mutating func encodeValue(_ value: AvroValue) throws(AvroError) {
        try encode(value, as: schema.root)
    }

    private func mismatch(_ value: AvroValue, _ expected: String) -> AvroError {
        AvroError(
            code: .valueMismatch,
            message: "expected \(expected), got \(Self.kind(of: value))",
            path: path.text
        )
    }

    private static func kind(of value: AvroValue) -> String {
        switch value {
        case .null: "null"
        case .boolean: "a boolean"
        case .int: "an int"
        case .long: "a long"
        case .float: "a float"
        case .double: "a double"
        case .bytes: "bytes"
        case .string: "a string"
        case .array: "an array"
        case .map: "a map"
        case .union: "a union value"
        case .record: "a record"
        case .enumeration: "an enum symbol"
        case .fixed: "fixed bytes"
        }
    }

    private mutating func encode(_ value: AvroValue, as type: AvroType) throws(AvroError) {
        guard depth < AvroSchema.maximumDepth * 2 else {
            throw AvroError(code: .limitExceeded, message: "the value nests too deeply", path: path.text)
        }
        depth += 1
        defer { depth -= 1 }
        switch (type, value) {
        case (.logical(_, let underlying), _): try encode(value, as: underlying)
        case (.null, .null): break
        case (.boolean, .boolean(let flag)): bytes.append(flag ? 1 : 0)
        case (.int, .int(let number)): writeLong(Int64(number))
        case (.long, .long(let number)): writeLong(number)
        case (.long, .int(let number)): writeLong(Int64(number))
        case (.float, .float(let number)): writeLittleEndian(UInt64(number.bitPattern), count: 4)
        case (.double, .double(let number)): writeLittleEndian(number.bitPattern, count: 8)
        case (.bytes, .bytes(let data)):
            writeLong(Int64(data.count))
            bytes += data
        case (.string, .string(let text)): writeString(text)
        case (.array(let items), .array(let elements)):
            if !elements.isEmpty {
                writeLong(Int64(elements.count))
                for (index, element) in elements.enumerated() {
                    path.push(.index(index))
                    try encode(element, as: items)
                    path.pop()
                }
            }
            writeLong(0)
        case (.map(let values), .map(let entries)):
            if !entries.isEmpty {
                writeLong(Int64(entries.count))
                for (key, entry) in entries.sorted(by: { $0.key < $1.key }) {
                    path.push(.key(key))
                    writeString(key)
                    try encode(entry, as: values)
                    path.pop()
                }
            }
            writeLong(0)
        case (.union(let branches), .union(let branch, let inner)):
            guard branch >= 0, branch < branches.count else {
                throw AvroError(
                    code: .valueMismatch,
                    message: "union branch \(branch) is not one of the \(branches.count) branches",
                    path: path.text
                )
            }
            writeLong(Int64(branch))
            path.push(.branch(branch))
            try encode(inner, as: branches[branch])
            path.pop()
        case (.union(let branches), _):
            guard let branch = branches.firstIndex(where: { fits(value, $0) }) else {
                throw mismatch(value, "a value of one of the union's \(branches.count) branches")
            }
            writeLong(Int64(branch))
            path.push(.branch(branch))
            try encode(value, as: branches[branch])
            path.pop()
        case (.named(let name), _):
            guard let definition = schema.namedTypes[name] else {
                throw AvroError(
                    code: .invalidSchema,
                    message: "the schema refers to '\(name)' but does not define it",
                    path: path.text
                )
            }
            try encode(value, as: definition)
        case (.null, _): throw mismatch(value, "null")
        case (.boolean, _): throw mismatch(value, "a boolean")
        case (.int, _): throw mismatch(value, "an int")
        case (.long, _): throw mismatch(value, "a long")
        case (.float, _): throw mismatch(value, "a float")
        case (.double, _): throw mismatch(value, "a double")
        case (.bytes, _): throw mismatch(value, "bytes")
        case (.string, _): throw mismatch(value, "a string")
        case (.array, _): throw mismatch(value, "an array")
        case (.map, _): throw mismatch(value, "a map")
        }
    }

    private mutating func encode(_ value: AvroValue, as definition: AvroNamedType) throws(AvroError) {
        switch (definition, value) {
        case (.record(let record), .record(let fields)):
            for field in record.fields {
                path.push(.field(field.name))
                guard let fieldValue = fields[field.name] else {
                    throw AvroError(
                        code: .valueMismatch,
                        message: "the record has no value for field '\(field.name)'",
                        path: path.text
                    )
                }
                try encode(fieldValue, as: field.type)
                path.pop()
            }
            if let extra = fields.keys.first(where: { record.field($0) == nil }) {
                throw AvroError(
                    code: .valueMismatch,
                    message: "record '\(record.fullName)' has no field '\(extra)'",
                    path: path.text
                )
            }
        case (.enumeration(let enumeration), .enumeration(let symbol)):
            guard let index = enumeration.symbols.firstIndex(of: symbol) else {
                throw AvroError(
                    code: .valueMismatch,
                    message: "'\(symbol)' is not a symbol of enum '\(enumeration.fullName)'",
                    path: path.text
                )
            }
            writeLong(Int64(index))
        case (.fixed(let fixed), .fixed(let data)):
            guard data.count == fixed.size else {
                throw AvroError(
                    code: .valueMismatch,
                    message: "fixed '\(fixed.fullName)' holds \(fixed.size) bytes, not \(data.count)",
                    path: path.text
                )
            }
            bytes += data
        case (.record(let record), _): throw mismatch(value, "record '\(record.fullName)'")
        case (.enumeration(let enumeration), _): throw mismatch(value, "a symbol of enum '\(enumeration.fullName)'")
        case (.fixed(let fixed), _): throw mismatch(value, "fixed '\(fixed.fullName)'")
        }
    }

    /// Whether a plain value is of `type`'s kind (for choosing a union branch).
    private func fits(_ value: AvroValue, _ type: AvroType) -> Bool {
        switch (type.withoutLogicalType, value) {
        case (.null, .null), (.boolean, .boolean), (.int, .int), (.long, .long), (.long, .int), (.float, .float),
            (.double, .double), (.bytes, .bytes), (.string, .string), (.array, .array), (.map, .map):
            return true
        case (.named(let name), _):
            switch (schema.namedTypes[name], value) {
            case (.record?, .record), (.enumeration?, .enumeration), (.fixed?, .fixed): return true
            default: return false
            }
        default:
            return false
        }
    }

    // MARK: - Primitives

    /// A zig-zag varint.
    mutating func writeLong(_ value: Int64) {
        var raw = UInt64(bitPattern: (value << 1) ^ (value >> 63))
        while raw >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: raw) | 0x80)
            raw >>= 7
        }
        bytes.append(UInt8(raw))
    }

    private mutating func writeLittleEndian(_ value: UInt64, count: Int) {
        for index in 0..<count {
            bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))))
        }
    }

    private mutating func writeString(_ text: String) {
        writeLong(Int64(text.utf8.count))
        bytes += text.utf8
    }
}
