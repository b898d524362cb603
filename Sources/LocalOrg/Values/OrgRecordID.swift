/// Salesforce record IDs: the 18-character case-safe form, its checksum and normalisation of input IDs
/// (salesforce-rest.md §1.6).
///
/// ```swift
/// OrgRecordID.caseSafe("a0BA0000000L2ZC")           // "a0BA0000000L2ZCMA0"
/// try OrgRecordID.normalize("001lm00000ab3xqiar")    // restores the case from the checksum
/// ```
public enum OrgRecordID {
    private static let suffixAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ012345")
    private static let bodyAlphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")

    /// The three checksum characters for a 15-character ID.
    public static func checksum(_ id15: String) -> String {
        let characters = Array(id15.utf8)
        var suffix = ""
        for chunk in 0..<3 {
            var bits = 0
            for position in 0..<5 {
                let index = chunk * 5 + position
                if index < characters.count, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(characters[index]) {
                    bits |= 1 << position
                }
            }
            suffix.append(suffixAlphabet[bits])
        }
        return suffix
    }

    /// The 18-character form of a 15-character ID (an 18-character ID is returned unchanged).
    public static func caseSafe(_ id: String) -> String {
        id.utf8.count == 15 ? id + checksum(id) : id
    }

    /// Whether `id` has the shape of a record ID: 15 or 18 ASCII letters and digits.
    public static func isWellFormed(_ id: String) -> Bool {
        let count = id.utf8.count
        return (count == 15 || count == 18) && id.utf8.allSatisfy { isAlphanumeric($0) }
    }

    /// The canonical 18-character ID for an input ID of 15 or 18 characters.
    ///
    /// An 18-character ID is matched ignoring case: the case of its first 15 characters is restored
    /// from the checksum, so `001lm00000ab3xqiar` and `001Lm00000Ab3xQIAR` name the same record.
    /// Returns `nil` when `id` is not well formed or its checksum cannot be right.
    public static func normalize(_ id: String) -> String? {
        guard isWellFormed(id) else { return nil }
        if id.utf8.count == 15 { return id + checksum(id) }
        var characters = Array(id)
        for chunk in 0..<3 {
            guard let bits = suffixAlphabet.firstIndex(of: Character(characters[15 + chunk].uppercased())) else {
                return nil
            }
            for position in 0..<5 {
                let index = chunk * 5 + position
                let isUpper = bits & (1 << position) != 0
                let character = characters[index]
                if isUpper {
                    guard character.isLetter else { return nil }
                    characters[index] = Character(character.uppercased())
                } else {
                    characters[index] = Character(character.lowercased())
                }
            }
        }
        let body = String(characters[0..<15])
        return body + checksum(body)
    }

    /// A new ID: the object's key prefix, `Lo` (the local org's "pod"), a 10-character base-62 counter
    /// and the checksum.
    static func make(prefix: String, counter: Int64) -> String {
        var value = counter
        var digits: [Character] = []
        for _ in 0..<10 {
            digits.append(bodyAlphabet[Int(value % 62)])
            value /= 62
        }
        let body = prefix + "Lo" + String(digits.reversed())
        return body + checksum(body)
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
    }
}
