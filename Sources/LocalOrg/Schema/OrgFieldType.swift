/// The Salesforce field types the local org stores (describe's `type`, salesforce-rest.md §7.2).
///
/// Besides the common types, the ones real describes carry that a schema file or a pulled schema
/// may hold (issue 30 item 4): `combobox` (a picklist that takes any text, `Event.Subject` in the
/// recorded Event describe), `encryptedstring`, `base64`, `time` (`HH:MM:SS.sssZ`), `anyType`
/// (history `OldValue`), `json`, and the compound `address` and `location` (read-only through the
/// API: their components are the writable fields). The raw value is lower case (the schema file
/// reads types ignoring case); ``wireName`` is the spelling describes use.
public enum OrgFieldType: String, Sendable, Codable, CaseIterable {
    case id, string, textarea, email, phone, url, picklist, multipicklist, boolean, int, double, currency
    case percent, date, datetime, reference
    case combobox, encryptedString = "encryptedstring", base64, time, anyType = "anytype", json, address, location

    /// The type as describes spell it (`anyType`, the others as their raw value).
    public var wireName: String { self == .anyType ? "anyType" : rawValue }

    /// Whether the API writes the field only through its components (compound fields).
    var isCompound: Bool { self == .address || self == .location }

    /// Whether describe reports a `length` (text and text-like types).
    var hasLength: Bool {
        isText || self == .id || self == .reference || self == .base64 || self == .anyType || self == .json
    }

    /// Whether values are text compared without regard to case (all text types except IDs and lookups).
    var isText: Bool {
        switch self {
        case .string, .textarea, .email, .phone, .url, .picklist, .multipicklist, .combobox, .encryptedString: true
        default: false
        }
    }

    /// Whether values are numbers.
    var isNumeric: Bool {
        switch self {
        case .int, .double, .currency, .percent: true
        default: false
        }
    }

    /// The SQLite column declaration (affinity and collation) for the type.
    var columnDeclaration: String {
        switch self {
        case .id, .reference: "TEXT"
        case .string, .textarea, .email, .phone, .url, .picklist, .multipicklist, .combobox, .encryptedString:
            "TEXT COLLATE NOCASE"
        case .boolean, .int: "INTEGER"
        case .double, .currency, .percent: "REAL"
        case .date: "TEXT"
        case .datetime: "INTEGER"
        case .base64, .time, .anyType, .json, .address, .location: "TEXT"
        }
    }

    /// The SOAP type describe reports (`soapType`).
    var soapType: String {
        switch self {
        case .id, .reference: "tns:ID"
        case .boolean: "xsd:boolean"
        case .int: "xsd:int"
        case .double, .currency, .percent: "xsd:double"
        case .date: "xsd:date"
        case .datetime: "xsd:dateTime"
        case .base64: "xsd:base64Binary"
        case .time: "xsd:time"
        case .anyType: "xsd:anyType"
        // The recorded Contact describe's `OtherAddress`; `location` as the SOAP API names it.
        case .address: "urn:address"
        case .location: "urn:location"
        default: "xsd:string"
        }
    }

    /// The default text length for a type when the schema gives none.
    var defaultLength: Int {
        switch self {
        case .id, .reference: 18
        case .textarea: 32768
        case .email, .phone: 80
        case .url: 255
        case .multipicklist: 4099
        case .string, .picklist, .combobox, .anyType: 255
        case .encryptedString: 175
        case .base64: 32_000_000
        case .json: 131_072
        default: 0
        }
    }
}
