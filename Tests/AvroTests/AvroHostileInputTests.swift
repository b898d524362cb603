import Avro
import Testing

/// Bad and hostile binary input: each is an ``AvroError`` saying where, never a trap or a hang.
@Suite struct AvroHostileInputTests {
    private static let headerText = #"""
            {"type": "record", "name": "Event", "fields": [
              {"name": "header", "type": {"type": "record", "name": "Header", "fields": [
                {"name": "entityName", "type": "string"},
                {"name": "recordIds", "type": {"type": "array", "items": "string"}}]}},
              {"name": "Name", "type": ["null", "string"], "default": null}]}
        """#

    private var header: AvroSchema {
        get throws { try AvroSchema(jsonText: Self.headerText) }
    }

    private func error(_ bytes: [UInt8], as schema: AvroSchema) -> AvroError? {
        do {
            _ = try AvroDecoder.decode(bytes, as: schema)
            return nil
        } catch {
            return error
        }
    }

    @Test func errorsNameTheFieldPathAndTheByteOffset() throws {
        // entityName "A", recordIds [ "x", <length 5 with 0 bytes left> ]
        let bad: [UInt8] = [0x02, 0x41, 0x04, 0x02, 0x78, 0x0A]
        let failure = try #require(error(bad, as: header))
        #expect(failure.code == .truncated)
        #expect(failure.path == "header.recordIds[1]")
        #expect(failure.offset == 5)
        #expect(failure.description.contains("'header.recordIds[1]'"))
        #expect(failure.description.contains("byte 5"))
    }

    @Test func negativeLengthIsMalformed() throws {
        let failure = try #require(error([0x01], as: header))
        #expect(failure.code == .malformed)
        #expect(failure.path == "header.entityName")
        #expect(failure.message.contains("negative"))
    }

    @Test func unionBranchOutOfRange() throws {
        // entityName "", recordIds [], branch 2 of a two-branch union
        let failure = try #require(error([0x00, 0x00, 0x04], as: header))
        #expect(failure.code == .malformed)
        #expect(failure.path == "Name")
        #expect(failure.offset == 2)
    }

    @Test func overlongVarintsAreRejected() throws {
        let long = try AvroSchema(jsonText: "\"long\"")
        #expect(error(Array(repeating: 0xFF, count: 11), as: long)?.code == .malformed)
        #expect(error([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F], as: long)?.code == .malformed)
        let int = try AvroSchema(jsonText: "\"int\"")
        #expect(error([0xFF, 0xFF, 0xFF, 0xFF, 0x1F], as: int)?.code == .malformed)
        #expect(error([0x80], as: int)?.code == .truncated)
    }

    @Test func invalidUTF8AndBadBooleansAndTrailingBytes() throws {
        let string = try AvroSchema(jsonText: "\"string\"")
        #expect(error([0x04, 0xC3, 0x28], as: string)?.code == .malformed)
        let boolean = try AvroSchema(jsonText: "\"boolean\"")
        #expect(error([0x02], as: boolean)?.code == .malformed)
        let trailing = try #require(error([0x02, 0x41, 0x00, 0x00, 0x00], as: header))
        #expect(trailing.offset == 4)
    }

    /// Items that encode in zero bytes (nulls) cannot make a few bytes decode for ever.
    @Test func hugeCountsOfZeroWidthItemsHitTheItemLimit() throws {
        let nulls = try AvroSchema(jsonText: #"{"type": "array", "items": "null"}"#)
        // Count Int64.max / 2 as one block.
        let bytes: [UInt8] = [0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 0x00]
        let failure = try #require(error(bytes, as: nulls))
        #expect(failure.code == .limitExceeded)
        let maps = try AvroSchema(jsonText: #"{"type": "map", "values": "null"}"#)
        #expect(error([0x01, 0x01], as: maps)?.code == .malformed)  // count -1, then a negative size
    }

    /// A few bytes cannot stand for a million zero-width items (found by the `avro` fuzz target: a
    /// 22-byte input took a second to decode, encode and decode again), and the bound counts items
    /// read, so a value and its canonical re-encoding pass or fail together (the fuzz target's
    /// second finding, against a first fix that scaled the bound with the input's length).
    @Test func zeroWidthItemsAreBoundedByTheInputSize() throws {
        let nulls = try AvroSchema(jsonText: #"{"type": "array", "items": "null"}"#)
        // One block of 1,000,000 nulls: 4 bytes of count and the end marker.
        var encoder = [UInt8]()
        var raw = UInt64(1_000_000) << 1
        while raw >= 0x80 {
            encoder.append(UInt8(truncatingIfNeeded: raw) | 0x80)
            raw >>= 7
        }
        encoder += [UInt8(raw), 0x00]
        #expect(error(encoder, as: nulls)?.code == .limitExceeded)
        // Up to the bound they decode, from any encoding: one block, or a padded one (a negative
        // count with its byte size) that is longer than the canonical form.
        let allowed = try AvroEncoder.encode(.array(Array(repeating: .null, count: 16_384)), as: nulls)
        #expect(try AvroDecoder.decode(allowed, as: nulls).arrayValue?.count == 16_384)
        let padded: [UInt8] = [0x07, 0xFE, 0xFF, 0xFF, 0xFF, 0x0F, 0x00]  // count -4, size 2^31 - 1 (unused)
        #expect(try AvroDecoder.decode(padded, as: nulls).arrayValue?.count == 4)
    }

    /// A record that holds itself without a null branch never ends: the depth bound stops it.
    @Test func unboundedRecursionHitsTheDepthLimit() throws {
        let loop = try AvroSchema(
            jsonText: #"{"type": "record", "name": "Loop", "fields": [{"name": "next", "type": "Loop"}]}"#
        )
        #expect(error([], as: loop)?.code == .limitExceeded)
        let nested = try AvroSchema(
            jsonText: #"{"type": "record", "name": "L", "fields": [{"name": "n", "type": ["null", "L"]}]}"#
        )
        #expect(error(Array(repeating: 0x02, count: 10_000) + [0x00], as: nested)?.code == .limitExceeded)
    }

    @Test func encoderRejectsValuesThatDoNotFit() throws {
        let schema = try header
        var caught: AvroError?
        do {
            _ = try AvroEncoder.encode(.record(["header": .record(["entityName": .long(1)])]), as: schema)
        } catch {
            caught = error
        }
        let failure = try #require(caught)
        #expect(failure.code == .valueMismatch)
        #expect(failure.path == "header.entityName")
    }
}
