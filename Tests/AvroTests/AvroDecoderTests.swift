import Avro
import Testing

/// The binary encodings the Avro 1.11 specification spells out ("Binary Encoding" and its
/// "Primitive Types" and "Complex Types" subsections), read and written back.
@Suite struct AvroDecoderTests {
    private func schema(_ text: String) throws -> AvroSchema { try AvroSchema(jsonText: text) }

    /// "Primitive Types": the zig-zag table for int and long.
    static let zigZagTable: [(Int64, [UInt8])] = [
        (0, [0x00]), (-1, [0x01]), (1, [0x02]), (-2, [0x03]), (2, [0x04]), (-64, [0x7F]), (64, [0x80, 0x01]),
    ]

    @Test(arguments: zigZagTable)
    func zigZagTableOfTheSpecification(_ number: Int64, _ bytes: [UInt8]) throws {
        let long = try schema("\"long\"")
        #expect(try AvroDecoder.decode(bytes, as: long) == .long(number))
        #expect(try AvroEncoder.encode(.long(number), as: long) == bytes)
        let int = try schema("\"int\"")
        #expect(try AvroDecoder.decode(bytes, as: int) == .int(Int32(number)))
        #expect(try AvroEncoder.encode(.int(Int32(number)), as: int) == bytes)
    }

    @Test func extremeLongsAndIntsRoundTrip() throws {
        for number in [Int64.min, .max, Int64(Int32.min), Int64(Int32.max)] {
            let bytes = try AvroEncoder.encode(.long(number), as: schema("\"long\""))
            #expect(try AvroDecoder.decode(bytes, as: schema("\"long\"")) == .long(number))
        }
        #expect(try AvroEncoder.encode(.long(.min), as: schema("\"long\"")).count == 10)
        for number in [Int32.min, .max] {
            let bytes = try AvroEncoder.encode(.int(number), as: schema("\"int\""))
            #expect(bytes.count == 5)
            #expect(try AvroDecoder.decode(bytes, as: schema("\"int\"")) == .int(number))
        }
    }

    /// "Primitive Types": a string is a long length and its UTF-8 bytes; "foo" is 06 66 6f 6f.
    @Test func stringFoo() throws {
        let bytes: [UInt8] = [0x06, 0x66, 0x6F, 0x6F]
        #expect(try AvroDecoder.decode(bytes, as: schema("\"string\"")) == .string("foo"))
        #expect(try AvroEncoder.encode(.string("foo"), as: schema("\"string\"")) == bytes)
    }

    /// "Primitive Types": boolean is one byte; float and double are little-endian IEEE 754.
    @Test func booleanFloatAndDouble() throws {
        #expect(try AvroDecoder.decode([1], as: schema("\"boolean\"")) == .boolean(true))
        #expect(try AvroDecoder.decode([0, 0, 0x80, 0x3F], as: schema("\"float\"")) == .float(1))
        #expect(
            try AvroDecoder.decode([0, 0, 0, 0, 0, 0, 0xF0, 0x3F], as: schema("\"double\"")) == .double(1)
        )
        #expect(try AvroEncoder.encode(.double(-2.5), as: schema("\"double\"")) == [0, 0, 0, 0, 0, 0, 0x04, 0xC0])
        #expect(try AvroDecoder.decode([], as: schema("\"null\"")) == .null)
    }

    /// "Complex Types" → "Records": {"a": 27, "b": "foo"} is 36 06 66 6f 6f.
    @Test func recordOfTheSpecification() throws {
        let test = try schema(
            #"{"type": "record", "name": "test", "fields": [{"name": "a", "type": "long"}, {"name": "b", "type": "string"}]}"#
        )
        let bytes: [UInt8] = [0x36, 0x06, 0x66, 0x6F, 0x6F]
        let value = AvroValue.record(["a": .long(27), "b": .string("foo")])
        #expect(try AvroDecoder.decode(bytes, as: test) == value)
        #expect(try AvroEncoder.encode(value, as: test) == bytes)
    }

    /// "Complex Types" → "Enums": the symbol's zero-based position as an int.
    @Test func enumIsItsSymbolsPosition() throws {
        let foo = try schema(#"{"type": "enum", "name": "Foo", "symbols": ["A", "B", "C", "D"]}"#)
        #expect(try AvroDecoder.decode([0x06], as: foo) == .enumeration("D"))
        #expect(try AvroEncoder.encode(.enumeration("A"), as: foo) == [0x00])
        #expect(throws: AvroError.self) { try AvroDecoder.decode([0x08], as: foo) }
    }

    /// "Complex Types" → "Arrays": the longs 3 and 27 are 04 06 36 00; a negative count is followed
    /// by the block's size in bytes.
    @Test func arrayOfTheSpecificationAndNegativeBlockCounts() throws {
        let longs = try schema(#"{"type": "array", "items": "long"}"#)
        let value = AvroValue.array([.long(3), .long(27)])
        #expect(try AvroDecoder.decode([0x04, 0x06, 0x36, 0x00], as: longs) == value)
        #expect(try AvroEncoder.encode(value, as: longs) == [0x04, 0x06, 0x36, 0x00])
        // Count -2 (03), size 2 bytes (04), the items, then the end marker.
        #expect(try AvroDecoder.decode([0x03, 0x04, 0x06, 0x36, 0x00], as: longs) == value)
        // Two blocks of one item each.
        #expect(try AvroDecoder.decode([0x02, 0x06, 0x02, 0x36, 0x00], as: longs) == value)
        #expect(try AvroDecoder.decode([0x00], as: longs) == .array([]))
    }

    /// "Complex Types" → "Maps": blocks of key and value pairs.
    @Test func mapBlocks() throws {
        let map = try schema(#"{"type": "map", "values": "int"}"#)
        let bytes: [UInt8] = [0x04, 0x02, 0x61, 0x02, 0x02, 0x62, 0x04, 0x00]
        let value = AvroValue.map(["a": .int(1), "b": .int(2)])
        #expect(try AvroDecoder.decode(bytes, as: map) == value)
        #expect(try AvroEncoder.encode(value, as: map) == bytes)
    }

    /// "Complex Types" → "Unions": with ["null", "string"], null is 00 and "a" is 02 02 61.
    @Test func unionOfTheSpecification() throws {
        let optional = try schema(#"["null", "string"]"#)
        #expect(try AvroDecoder.decode([0x00], as: optional) == .union(branch: 0, .null))
        #expect(try AvroDecoder.decode([0x02, 0x02, 0x61], as: optional) == .union(branch: 1, .string("a")))
        #expect(try AvroEncoder.encode(.string("a"), as: optional) == [0x02, 0x02, 0x61])
        #expect(try AvroEncoder.encode(.null, as: optional) == [0x00])
        #expect(try AvroEncoder.encode(.union(branch: 1, .string("a")), as: optional) == [0x02, 0x02, 0x61])
    }

    /// "Complex Types" → "Fixed": exactly the declared number of bytes.
    @Test func fixedIsItsBytes() throws {
        let md5 = try schema(#"{"type": "fixed", "size": 4, "name": "md5"}"#)
        #expect(try AvroDecoder.decode([1, 2, 3, 4], as: md5) == .fixed([1, 2, 3, 4]))
        #expect(throws: AvroError.self) { try AvroEncoder.encode(.fixed([1, 2, 3]), as: md5) }
    }

    /// The recursive record of "Schema Declaration" → "Complex Types" → "Records" (LongList).
    @Test func recursiveLinkedList() throws {
        let list = try schema(
            #"{"type": "record", "name": "LongList", "aliases": ["LinkedLongs"], "fields": [{"name": "value", "type": "long"}, {"name": "next", "type": ["null", "LongList"]}]}"#
        )
        let value = AvroValue.record([
            "value": .long(1),
            "next": .union(branch: 1, .record(["value": .long(2), "next": .union(branch: 0, .null)])),
        ])
        let bytes = try AvroEncoder.encode(value, as: list)
        #expect(bytes == [0x02, 0x02, 0x04, 0x00])
        #expect(try AvroDecoder.decode(bytes, as: list) == value)
    }
}
