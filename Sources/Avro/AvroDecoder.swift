/// Reads Avro binary data (Avro 1.11 specification, "Binary Encoding") into ``AvroValue``s.
///
/// Hostile input never traps: every length is checked against the bytes left, nesting is bounded
/// by ``Limits/maximumDepth`` and the number of array items and map entries (which may encode in
/// zero bytes each) by ``Limits/maximumItems``. Errors name the field path and the byte offset.
public struct AvroDecoder {
    /// The bounds a decode stays within.
    public struct Limits: Sendable, Hashable {
        /// How deeply values may nest (records, arrays, maps, unions).
        public var maximumDepth: Int
        /// How many array items and map entries one decoder reads in all.
        public var maximumItems: Int
        /// How many of those may encode in no bytes (nulls, empty records): they cost a sender
        /// nothing, so without this bound a few bytes could stand for ``maximumItems`` of them.
        /// Counted per item actually read, so a value and its re-encoding count the same.
        public var maximumZeroWidthItems: Int

        public init(maximumDepth: Int = 64, maximumItems: Int = 1 << 20, maximumZeroWidthItems: Int = 1 << 14) {
            self.maximumDepth = maximumDepth
            self.maximumItems = maximumItems
            self.maximumZeroWidthItems = maximumZeroWidthItems
        }
    }

    private let schema: AvroSchema
    private let bytes: [UInt8]
    /// The offset of the next byte to read.
    public private(set) var offset: Int
    private let limits: Limits
    private var itemsLeft: Int
    private var zeroWidthItemsLeft: Int
    private var depth = 0
    private var path = AvroPath()

    public init(bytes: [UInt8], schema: AvroSchema, limits: Limits = Limits()) {
        self.schema = schema
        self.bytes = bytes
        self.offset = 0
        self.limits = limits
        self.itemsLeft = limits.maximumItems
        self.zeroWidthItemsLeft = limits.maximumZeroWidthItems
    }

    /// Decodes `bytes`, which must hold exactly one datum of `schema`'s root type.
    public static func decode(_ bytes: [UInt8], as schema: AvroSchema, limits: Limits = Limits()) throws(AvroError)
        -> AvroValue
    {
        var decoder = AvroDecoder(bytes: bytes, schema: schema, limits: limits)
        let value = try decoder.decodeValue()
        guard decoder.offset == bytes.count else {
            throw AvroError(
                code: .malformed,
                message:
                    "\(bytes.count - decoder.offset) bytes follow the value; the input must hold exactly one datum",
                path: "",
                offset: decoder.offset
            )
        }
        return value
    }

    /// Decodes the next datum of the schema's root type.
    public mutating func decodeValue() throws(AvroError) -> AvroValue {
        try decode(schema.root)
    }

    private func failure(_ code: AvroError.Code, _ message: String, at start: Int? = nil) -> AvroError {
        AvroError(code: code, message: message, path: path.text, offset: start ?? offset)
    }

    private mutating func decode(_ type: AvroType) throws(AvroError) -> AvroValue {
        switch type {
        case .null: return .null
        case .boolean:
            let start = offset
            let byte = try readByte()
            guard byte <= 1 else { throw failure(.malformed, "a boolean byte must be 0 or 1, not \(byte)", at: start) }
            return .boolean(byte == 1)
        case .int: return .int(try readInt())
        case .long: return .long(try readLong())
        case .float: return .float(Float(bitPattern: UInt32(truncatingIfNeeded: try readLittleEndian(4))))
        case .double: return .double(Double(bitPattern: try readLittleEndian(8)))
        case .bytes: return .bytes(try readBytes(count: try readLength()))
        case .string: return .string(try readString())
        case .logical(_, let underlying): return try decode(underlying)
        case .array(let items):
            try enter()
            defer { depth -= 1 }
            var elements: [AvroValue] = []
            try readBlocks { decoder throws(AvroError) in
                decoder.path.push(.index(elements.count))
                elements.append(try decoder.decode(items))
                decoder.path.pop()
            }
            return .array(elements)
        case .map(let values):
            try enter()
            defer { depth -= 1 }
            var entries: [String: AvroValue] = [:]
            try readBlocks { decoder throws(AvroError) in
                decoder.path.push(.key(""))
                let key = try decoder.readString()
                entries[key] = try decoder.decode(values)
                decoder.path.pop()
            }
            return .map(entries)
        case .union(let branches):
            try enter()
            defer { depth -= 1 }
            let start = offset
            let index = try readLong()
            guard index >= 0, index < branches.count else {
                throw failure(
                    .malformed,
                    "union branch \(index) is not one of the \(branches.count) branches",
                    at: start
                )
            }
            let branch = Int(index)
            path.push(.branch(branch))
            let value = try decode(branches[branch])
            path.pop()
            return .union(branch: branch, value)
        case .named(let name):
            guard let definition = schema.namedTypes[name] else {
                throw failure(.invalidSchema, "the schema refers to '\(name)' but does not define it")
            }
            return try decode(definition)
        }
    }

    private mutating func decode(_ definition: AvroNamedType) throws(AvroError) -> AvroValue {
        switch definition {
        case .record(let record):
            try enter()
            defer { depth -= 1 }
            var fields: [String: AvroValue] = [:]
            for field in record.fields {
                path.push(.field(field.name))
                fields[field.name] = try decode(field.type)
                path.pop()
            }
            return .record(fields)
        case .enumeration(let enumeration):
            let start = offset
            let index = try readInt()
            guard index >= 0, index < enumeration.symbols.count else {
                throw failure(
                    .malformed,
                    "enum index \(index) is not one of the \(enumeration.symbols.count) symbols of '\(enumeration.fullName)'",
                    at: start
                )
            }
            return .enumeration(enumeration.symbols[Int(index)])
        case .fixed(let fixed):
            return .fixed(try readBytes(count: fixed.size))
        }
    }

    private mutating func enter() throws(AvroError) {
        guard depth < limits.maximumDepth else {
            throw failure(.limitExceeded, "values nest more than \(limits.maximumDepth) levels deep")
        }
        depth += 1
    }

    /// Reads an array's or a map's blocks: a count, then as many items; a negative count is
    /// followed by the block's size in bytes; a zero count ends the list.
    private mutating func readBlocks(_ item: (inout AvroDecoder) throws(AvroError) -> Void) throws(AvroError) {
        while true {
            let start = offset
            var count = try readLong()
            if count == 0 { return }
            if count < 0 {
                guard count != .min else { throw failure(.malformed, "block count is out of range", at: start) }
                count = -count
                let sizeStart = offset
                let size = try readLong()
                guard size >= 0 else { throw failure(.malformed, "block size \(size) is negative", at: sizeStart) }
            }
            guard count <= itemsLeft else {
                throw failure(
                    .limitExceeded,
                    "more than \(limits.maximumItems) array items and map entries in one value",
                    at: start
                )
            }
            itemsLeft -= Int(count)
            for _ in 0..<Int(count) {
                let itemStart = offset
                try item(&self)
                if offset == itemStart {
                    zeroWidthItemsLeft -= 1
                    guard zeroWidthItemsLeft >= 0 else {
                        throw failure(
                            .limitExceeded,
                            "more than \(limits.maximumZeroWidthItems) items that encode in no bytes in one value",
                            at: itemStart
                        )
                    }
                }
            }
        }
    }

    // MARK: - Primitives

    private mutating func readByte() throws(AvroError) -> UInt8 {
        guard offset < bytes.count else { throw failure(.truncated, "the input ends inside a value") }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// A zig-zag varint of at most 64 bits (10 bytes).
    mutating func readLong() throws(AvroError) -> Int64 {
        Int64(bitPattern: try readZigZag(UInt64.self, "a long"))
    }

    /// A zig-zag varint of at most 32 bits (5 bytes).
    mutating func readInt() throws(AvroError) -> Int32 {
        Int32(bitPattern: try readZigZag(UInt32.self, "an int"))
    }

    /// A zig-zag varint of at most `Raw`'s width (`what`: `a long`, `an int`), decoded to the bits
    /// of the signed value: seven bits a byte, low first, the last byte's high bit clear.
    private mutating func readZigZag<Raw: FixedWidthInteger & UnsignedInteger>(
        _: Raw.Type,
        _ what: String
    ) throws(AvroError) -> Raw {
        let start = offset
        let lastShift = (Raw.bitWidth - 1) / 7 * 7
        let lastByteMaximum = UInt8(1 << (Raw.bitWidth - lastShift)) - 1
        var raw: Raw = 0
        var shift = 0
        while true {
            let byte = try readByte()
            if shift == lastShift, byte > lastByteMaximum {
                throw failure(.malformed, "\(what) varint is longer than \(Raw.bitWidth) bits", at: start)
            }
            raw |= Raw(byte & 0x7F) << shift
            if byte & 0x80 == 0 { break }
            shift += 7
            if shift > lastShift {
                throw failure(.malformed, "\(what) varint is longer than \(lastShift / 7 + 1) bytes", at: start)
            }
        }
        return (raw >> 1) ^ (0 &- (raw & 1))
    }

    private mutating func readLittleEndian(_ count: Int) throws(AvroError) -> UInt64 {
        guard bytes.count - offset >= count else { throw failure(.truncated, "the input ends inside a value") }
        var value: UInt64 = 0
        for index in 0..<count {
            value |= UInt64(bytes[offset + index]) << (8 * UInt64(index))
        }
        offset += count
        return value
    }

    private mutating func readLength() throws(AvroError) -> Int {
        let start = offset
        let length = try readLong()
        guard length >= 0 else { throw failure(.malformed, "length \(length) is negative", at: start) }
        guard length <= bytes.count - offset else {
            throw failure(
                .truncated,
                "length \(length) runs past the end of the input (\(bytes.count - offset) bytes left)",
                at: start
            )
        }
        return Int(length)
    }

    private mutating func readBytes(count: Int) throws(AvroError) -> [UInt8] {
        guard count <= bytes.count - offset else {
            throw failure(
                .truncated,
                "\(count) bytes run past the end of the input (\(bytes.count - offset) bytes left)"
            )
        }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    private mutating func readString() throws(AvroError) -> String {
        let start = offset
        let utf8 = try readBytes(count: try readLength())
        let invalid = transcode(utf8.makeIterator(), from: UTF8.self, to: UTF8.self, stoppingOnError: true) { _ in }
        guard !invalid else { throw failure(.malformed, "a string is not valid UTF-8", at: start) }
        return String(decoding: utf8, as: UTF8.self)
    }
}
