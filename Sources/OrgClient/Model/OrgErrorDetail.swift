/// One entry of a Salesforce error array: `{"message", "errorCode", "fields"}`.
///
/// Collection and tree results name the code `statusCode`; the OAuth endpoint answers
/// `{"error", "error_description"}`. All three are read into this one shape.
public struct OrgErrorDetail: Sendable, Hashable {
    /// The Salesforce code, e.g. `MALFORMED_QUERY`, `ENTITY_IS_DELETED`, or the OAuth `error`.
    public var errorCode: String
    /// The server's message. May be multi-line (SOQL errors carry a caret line).
    public var message: String
    /// The fields the error is about, when the server listed them.
    public var fields: [String]

    /// Creates an error entry.
    public init(errorCode: String, message: String, fields: [String] = []) {
        self.errorCode = errorCode
        self.message = message
        self.fields = fields
    }

    /// Reads one error object, accepting `errorCode` or `statusCode` as the code key.
    init?(_ value: OrgValue) {
        guard let object = value.objectValue else { return nil }
        let code = object["errorCode"]?.stringValue ?? object["statusCode"]?.stringValue
        guard let code else { return nil }
        self.errorCode = code
        self.message = object["message"]?.stringValue ?? ""
        self.fields = object["fields"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    /// Reads an error body: the standard array, a single error object, or an OAuth error.
    /// Returns an empty list when the body is none of these (an HTML proxy page, say).
    static func parseErrorBody(_ text: String) -> [OrgErrorDetail] {
        guard let value = try? OrgValue(parsing: text) else { return [] }
        return parseErrors(value)
    }

    /// Reads errors out of an already parsed body.
    static func parseErrors(_ value: OrgValue) -> [OrgErrorDetail] {
        switch value {
        case .array(let elements):
            return elements.compactMap(OrgErrorDetail.init)
        case .object(let object):
            if let oauthError = object["error"]?.stringValue {
                return [
                    OrgErrorDetail(
                        errorCode: oauthError,
                        message: object["error_description"]?.stringValue ?? ""
                    )
                ]
            }
            return OrgErrorDetail(value).map { [$0] } ?? []
        default:
            return []
        }
    }
}
