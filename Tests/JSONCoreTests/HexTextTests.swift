import Foundation
import JSONCore
import Testing

/// `HexText.lowercase`: the one hex encoder (digests, replay ids, masks).
struct HexTextTests {
    @Test func everyByteIsTwoLowercaseDigits() {
        #expect(HexText.lowercase([UInt8]()) == "")
        #expect(HexText.lowercase([0x00, 0x09, 0x0a, 0x0f, 0x10, 0x7f, 0xa0, 0xff]) == "00090a0f107fa0ff")
    }

    @Test func agreesWithFormatForAllByteValues() {
        let bytes = (0...255).map { UInt8($0) }
        #expect(HexText.lowercase(bytes) == bytes.map { String(format: "%02x", $0) }.joined())
    }

    @Test func takesAnySequenceOfBytes() {
        let bytes: [UInt8] = [0xde, 0xad, 0xbe, 0xef, 0x01]
        #expect(HexText.lowercase(bytes[1..<3]) == "adbe")
        #expect(HexText.lowercase(Data(bytes).prefix(2)) == "dead")
    }
}
