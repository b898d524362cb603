import Foundation

/// Decoding of `application/x-www-form-urlencoded` text and percent-encoded path segments.
///
/// `package` so the `oauth-token` fuzz target can check that decoded forms round-trip.
package enum FormDecoding {
    /// Splits `a=1&b=two+words` into pairs, decoding `+` as a space and `%XX` escapes (§13.4).
    package static func pairs(_ text: some StringProtocol) -> [(name: String, value: String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            if let equals = pair.firstIndex(of: "=") {
                return (component(pair[..<equals]), component(pair[pair.index(after: equals)...]))
            }
            return (component(pair), "")
        }
    }

    /// Decodes one form component: `+` is a space, `%XX` a byte; invalid escapes are kept as typed.
    package static func component(_ text: some StringProtocol) -> String {
        percentDecoded(text, plusIsSpace: true)
    }

    /// Decodes `%XX` escapes in a path segment (`+` stays a plus).
    static func pathSegment(_ text: some StringProtocol) -> String {
        percentDecoded(text, plusIsSpace: false)
    }

    private static func percentDecoded(_ text: some StringProtocol, plusIsSpace: Bool) -> String {
        let utf8 = Array(text.utf8)
        guard utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(text)
        }
        var output = [UInt8]()
        output.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%"), index + 2 < utf8.count,
                let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2])
            {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
