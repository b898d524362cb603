/// A Salesforce record id, checked once by the one rule of the package (salesforce-rest.md §1.6),
/// for every module that reads, sends or compares ids (the org client, the local org, the org
/// check, the store's org binding).
///
/// - A 15-character id is case-sensitive: 15 ASCII letters and digits.
/// - An 18-character id is the case-safe form: the first 15 characters, then three characters
///   (`A`–`Z`, `0`–`5`) whose bits say which of the 15 are upper-case letters. It is read ignoring
///   case: the case of the first 15 is restored from the suffix, so `001lm00000ab3xqiar` and
///   `001Lm00000Ab3xQIAR` are one id. A suffix that marks a digit upper-case, or holds a
///   character outside its alphabet, cannot be a checksum: the text is not an id.
///
/// ```swift
/// SalesforceID("a0BA0000000L2ZC")?.caseSafe        // "a0BA0000000L2ZCMA0"
/// SalesforceID("a0ba0000000l2zcma0")?.caseSafe     // "a0BA0000000L2ZCMA0"
/// SalesforceID("001000000000001AAB")               // nil: the suffix marks a digit upper-case
/// SalesforceID.problem(with: "001/")               // .length(4)
/// ```
public struct SalesforceID: Sendable, Hashable, CustomStringConvertible {
    /// Why a text is not an id.
    public enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// Not 15 or 18 characters long (UTF-8 bytes).
        case length(Int)
        /// A character that is not an ASCII letter or digit, at this UTF-8 offset.
        case character(offset: Int)
        /// 18 characters whose last three are not the checksum of any casing of the first 15.
        case checksum

        /// What is wrong, for a message: `IDs have 15 or 18 letters and digits` or the checksum.
        public var description: String {
            switch self {
            case .length, .character:
                return "IDs have 15 or 18 letters and digits"
            case .checksum:
                return "the last 3 of its 18 characters are not the checksum of the first 15; copy the whole id "
                    + "from Salesforce"
            }
        }
    }

    /// The 18-character case-safe form, with the case of its first 15 characters restored.
    public let caseSafe: String

    /// The 15-character case-sensitive form.
    public var caseSensitive: String { String(caseSafe.prefix(15)) }

    /// The key prefix: the first three characters, which name the object (`001` Account).
    public var keyPrefix: String { String(caseSafe.prefix(3)) }

    public var description: String { caseSafe }

    /// Reads `text` as an id (15 or 18 characters); `nil` when it is not one (see
    /// ``problem(with:)`` for why).
    public init?(_ text: String) {
        guard case .success(let id) = Self.parse(text) else { return nil }
        self = id
    }

    private init(caseSafe: String) {
        self.caseSafe = caseSafe
    }

    /// Why `text` is not an id, or `nil` when it is one.
    public static func problem(with text: String) -> Problem? {
        if case .failure(let problem) = parse(text) { return problem }
        return nil
    }

    /// Whether `lhs` and `rhs` name the same record: equal ids in any of their forms (15 or 18
    /// characters, an 18-character one in any case); texts that are not ids only when equal.
    public static func same(_ lhs: String, _ rhs: String) -> Bool {
        guard let left = SalesforceID(lhs), let right = SalesforceID(rhs) else { return lhs == rhs }
        return left == right
    }

    /// The three checksum characters of the first 15 characters of `body`: for each group of
    /// five, the character of `ABCDEFGHIJKLMNOPQRSTUVWXYZ012345` whose bits mark its upper-case
    /// letters.
    public static func checksum(_ body: some StringProtocol) -> String {
        let bytes = Array(body.utf8.prefix(15))
        var suffix = ""
        for chunk in 0..<3 {
            var bits = 0
            for position in 0..<5 {
                let index = chunk * 5 + position
                if index < bytes.count, isUpper(bytes[index]) { bits |= 1 << position }
            }
            suffix.unicodeScalars.append(Unicode.Scalar(suffixAlphabet[bits]))
        }
        return suffix
    }

    // MARK: The rule

    private static let suffixAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ012345".utf8)

    private static func parse(_ text: String) -> Result<SalesforceID, Problem> {
        var bytes = Array(text.utf8)
        guard bytes.count == 15 || bytes.count == 18 else { return .failure(.length(bytes.count)) }
        if let offset = bytes.firstIndex(where: { !isLetterOrDigit($0) }) {
            return .failure(.character(offset: offset))
        }
        if bytes.count == 18 {
            // Restore the case of the 15 from the suffix, read ignoring its own case.
            for chunk in 0..<3 {
                guard let bits = suffixAlphabet.firstIndex(of: upper(bytes[15 + chunk])) else {
                    return .failure(.checksum)
                }
                for position in 0..<5 {
                    let index = chunk * 5 + position
                    if bits & (1 << position) != 0 {
                        guard isLetter(bytes[index]) else { return .failure(.checksum) }
                        bytes[index] = upper(bytes[index])
                    } else {
                        bytes[index] = lower(bytes[index])
                    }
                }
            }
        }
        let body = String(decoding: bytes.prefix(15), as: UTF8.self)
        return .success(SalesforceID(caseSafe: body + checksum(body)))
    }

    private static func isUpper(_ byte: UInt8) -> Bool { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) }
    private static func isLower(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) }
    private static func isLetter(_ byte: UInt8) -> Bool { isUpper(byte) || isLower(byte) }
    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
    private static func upper(_ byte: UInt8) -> UInt8 { isLower(byte) ? byte - 32 : byte }
    private static func lower(_ byte: UInt8) -> UInt8 { isUpper(byte) ? byte + 32 : byte }
}
