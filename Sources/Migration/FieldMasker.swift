import Crypto
import Foundation
import JSONCore
import OrgClient
import SyncConfig

/// Masks the values `migrate` writes, field by field, as the sync up's `options.mask` says
/// (``FieldMask``): personal data that must not reach a sandbox or a demo org.
///
/// Every masked value is derived from HMAC-SHA-256 of the source value under a secret, keyed by
/// the mask's kind and not by the field or object: the same source value masks the same way in
/// every object, field and run that share the secret, so a rerun writes what the first run wrote
/// (and writes nothing more), and a match key or external id computed from a masked field matches
/// on the masked value. Nothing of the source value is kept: an email's domain is replaced by a
/// reserved `.invalid` one. `null` and empty values stay as they are (there is nothing to hide).
struct FieldMasker: Sendable {
    /// The masks of one object, by lowercased field name.
    let masks: [String: FieldMask]
    /// The target field lengths, by lowercased field name: a masked text is cut to its field.
    let lengths: [String: Int]
    /// The secret (kept as bytes: a `SymmetricKey` is not `Sendable`).
    private let secret: Data

    /// Masks nothing.
    static let none = FieldMasker(secret: Data(), masks: [:], lengths: [:])

    /// The shortest secret `--mask-secret-file` may hold, in bytes.
    static let minimumSecretLength = 16

    init(secret: Data, masks: [String: FieldMask], lengths: [String: Int]) {
        self.secret = secret
        self.masks = Dictionary(masks.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.lengths = lengths
    }

    /// Whether any field is masked.
    var isEmpty: Bool { masks.isEmpty }

    /// `record` with every masked field replaced (fields are matched ignoring case, as the org does).
    func mask(_ record: [String: OrgValue]) -> [String: OrgValue] {
        guard !masks.isEmpty else { return record }
        var masked = record
        for (field, value) in record {
            let name = field.lowercased()
            guard let mask = masks[name] else { continue }
            masked[field] = self.mask(value, with: mask, length: lengths[name])
        }
        return masked
    }

    /// One value masked; `null` and empty strings are kept (nothing to hide), and so is a value
    /// that is not text or a number (a compound field the mask cannot hold is left out by `org check`).
    func mask(_ value: OrgValue, with mask: FieldMask, length: Int?) -> OrgValue {
        let text: String
        switch value {
        case .string(let string) where !string.isEmpty: text = string
        case .integer(let number): text = String(number)
        case .number(let number): text = String(number)
        default: return value
        }
        let masked: String
        switch mask {
        case .null: return .null
        case .fixed(let fixed): masked = fixed
        case .email: masked = email(text, length: length)
        case .phone: masked = phone(text)
        case .firstName: masked = Self.firstNames[Int(digest(text, kind: "firstName")[0]) % Self.firstNames.count]
        case .lastName:
            let bytes = digest(text, kind: "lastName")
            let name = Self.lastNames[Int(bytes[0]) % Self.lastNames.count]
            masked = "\(name)-\(HexText.lowercase(bytes[1..<4]))"
        case .hash: masked = HexText.lowercase(digest(text, kind: "hash")[...])
        }
        guard let length, length > 0, masked.count > length else { return .string(masked) }
        return .string(String(masked.prefix(length)))
    }

    /// `u` and 24 hex digits (96 bits of the keyed hash: unique where the source values were) at a
    /// reserved domain (RFC 2606 `.invalid`): a well-formed address no mail can reach.
    private func email(_ text: String, length: Int?) -> String {
        let domain = "@masked.invalid"
        let local = "u" + HexText.lowercase(digest(text.lowercased(), kind: "email")[..<12])
        guard let length, length < local.count + domain.count else { return local + domain }
        // A short field keeps the domain and as much of the hash as fits (at least 8 digits).
        return String(local.prefix(max(9, length - domain.count))) + domain
    }

    /// A North American number in the range reserved for fiction (`555-0100` to `555-0199`), the
    /// area code and the last two digits from the keyed hash.
    private func phone(_ text: String) -> String {
        let digits = text.filter(\.isNumber)
        let bytes = digest(digits.isEmpty ? text : digits, kind: "phone")
        let area = 200 + (Int(bytes[0]) << 8 | Int(bytes[1])) % 800
        return "(\(area)) 555-01\(String(format: "%02d", Int(bytes[2]) % 100))"
    }

    private func digest(_ text: String, kind: String) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: Data("\(kind)\u{0}\(text)".utf8), using: SymmetricKey(data: secret)))
    }

    static let firstNames = [
        "Alex", "Blair", "Casey", "Dana", "Eden", "Finley", "Gray", "Harper", "Indra", "Jules", "Kai", "Lee",
        "Morgan", "Noor", "Oakley", "Parker", "Quinn", "Reese", "Sage", "Taylor", "Uma", "Val", "Wren", "Yael",
    ]
    static let lastNames = [
        "Abbott", "Brook", "Carver", "Dale", "Ellis", "Frost", "Garner", "Hale", "Irwin", "Jarvis", "Keller",
        "Lowe", "Marsh", "North", "Oakes", "Pryor", "Quill", "Rowe", "Stone", "Thorne", "Upton", "Vance",
        "Wells", "York",
    ]
}

extension MigrationOptions {
    /// The mask secret in the file at `path` (`--mask-secret-file`): its bytes, without a final
    /// line break, at least 16 of them. The value itself is never printed.
    ///
    /// - Throws: ``MigrationError`` (refused) when the file cannot be read or is too short.
    public static func maskSecret(fromFile path: String) throws -> Data {
        guard var data = FileManager.default.contents(atPath: path) else {
            throw MigrationError(
                .refused,
                "cannot read the mask secret file '\(path)'; nothing was written. Give a readable file holding at "
                    + "least \(FieldMasker.minimumSecretLength) bytes (e.g. `head -c 32 /dev/urandom > mask.key`)"
            )
        }
        while let last = data.last, last == 0x0A || last == 0x0D { data.removeLast() }
        guard data.count >= FieldMasker.minimumSecretLength else {
            throw MigrationError(
                .refused,
                "the mask secret file '\(path)' holds \(data.count) byte(s), fewer than \(FieldMasker.minimumSecretLength); "
                    + "nothing was written. Use a longer secret (e.g. `head -c 32 /dev/urandom > mask.key`)"
            )
        }
        return data
    }
}
