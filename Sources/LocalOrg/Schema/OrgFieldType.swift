/// The Salesforce field types the local org stores (describe's `type`, salesforce-rest.md §7.2).
public enum OrgFieldType: String, Sendable, Codable, CaseIterable {
    case id, string, textarea, email, phone, url, picklist, multipicklist, boolean, int, double, currency
    case percent, date, datetime, reference

    /// Whether values are text compared without regard to case (all text types except IDs and lookups).
    var isText: Bool {
        switch self {
        case .string, .textarea, .email, .phone, .url, .picklist, .multipicklist: true
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
        case .string, .textarea, .email, .phone, .url, .picklist, .multipicklist: "TEXT COLLATE NOCASE"
        case .boolean, .int: "INTEGER"
        case .double, .currency, .percent: "REAL"
        case .date: "TEXT"
        case .datetime: "INTEGER"
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
        case .string, .picklist: 255
        default: 0
        }
    }
}
