/// How `syncrun migrate` masks one field's values on their way to the target (a sync up's
/// `options.mask`, `{"Email": "email", "Title": {"fixed": "Redacted"}}`).
///
/// Masks are for migrations only: `run` and `sync` write the app's own data and never mask. A
/// masked value is computed from the source value and a secret (HMAC-SHA-256), so a rerun writes
/// what the first run wrote and the same source value masks the same way in every object; no part
/// of the source value survives.
public enum FieldMask: Sendable, Hashable {
    /// A well-formed, unique-where-the-source-was email at a reserved domain (`….invalid`).
    case email
    /// A phone number of the reserved `555-01xx` kind, with digits from the value.
    case phone
    /// A first name from a fixed list.
    case firstName
    /// A last name from a fixed list, with a disambiguating suffix.
    case lastName
    /// The value's keyed hash as hexadecimal text (unique where the source values were unique),
    /// cut to the field's length.
    case hash
    /// No value: the field is cleared.
    case null
    /// The same text for every record.
    case fixed(String)

    /// The names a config spells the kinds with (all but ``fixed(_:)``, an object).
    public static let names: [String: FieldMask] = [
        "email": .email, "phone": .phone, "firstName": .firstName, "lastName": .lastName, "hash": .hash,
        "null": .null,
    ]

    /// The config's spelling of the kind (`fixed` for ``fixed(_:)``).
    public var name: String {
        switch self {
        case .email: "email"
        case .phone: "phone"
        case .firstName: "firstName"
        case .lastName: "lastName"
        case .hash: "hash"
        case .null: "null"
        case .fixed: "fixed"
        }
    }
}

extension FieldMask {
    /// The describe types a text mask can be written to.
    public static let textFieldTypes: Set<String> = [
        "string", "textarea", "email", "phone", "url", "encryptedstring", "combobox",
    ]

    /// Why a field of the describe's `fieldType`, `length` (0 or `nil`: unlimited) and
    /// requiredness cannot hold this mask's values; `nil` when it can. One rule for `syncrun
    /// migrate` (which refuses before writing) and `syncrun org check` (which reports it).
    public func problem(fieldType: String, length: Int?, isRequiredOnCreate: Bool) -> String? {
        if fieldType == "reference" || fieldType == "id" {
            return "a \(fieldType) cannot be masked (the ids are remapped, not copied)"
        }
        switch self {
        case .null:
            return isRequiredOnCreate ? "the target requires a value, so it cannot be masked as null" : nil
        case .fixed(let text):
            if let length, length > 0, text.count > length {
                return "the fixed text has \(text.count) characters, the field holds \(length)"
            }
            return nil
        default:
            if !Self.textFieldTypes.contains(fieldType) { return "a \(name) mask needs a text field, not \(fieldType)" }
            if self == .email, let length, length > 0, length < 24 {
                return "an email mask needs at least 24 characters, the field holds \(length)"
            }
            return nil
        }
    }
}
