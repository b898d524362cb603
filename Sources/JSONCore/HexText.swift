/// Bytes as lowercase hexadecimal text (digests, replay ids, masks): two digits a byte, `0`–`9`
/// and `a`–`f`. One encoder for the package, without `String(format:)`, whose Foundation path
/// costs a start-up's first call about a third of a millisecond and every later byte an allocation.
public enum HexText {
    /// `bytes` as lowercase hex: `[0x0f, 0xa0]` is `"0fa0"`.
    @inlinable
    public static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digit(byte >> 4))
            text.append(digit(byte & 0x0F))
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The ASCII digit for `nibble` (0–15).
    @inlinable
    static func digit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? 0x30 + nibble : 0x57 + nibble
    }
}
