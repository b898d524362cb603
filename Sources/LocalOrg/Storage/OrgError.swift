import Foundation

/// The error every LocalOrg data operation throws: an HTTP status, a Salesforce error code, a message
/// and the fields involved, ready to be written as the REST error array (salesforce-rest.md §6).
///
/// Build instances through the factories in `OrgError+Messages.swift`, so every message the local
/// org can produce is written in one place.
///
/// ```swift
/// do { try database.query("SELECT Foo FROM Account", includeDeleted: false, pageSize: 2000, apiVersion: "59.0") }
/// catch let error as OrgError { response.status = error.status; body = error.responseBody(apiVersion: "59.0") }
/// ```
public struct OrgError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A Salesforce error code such as `MALFORMED_QUERY`, open for new codes.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The wire spelling, e.g. `INVALID_FIELD`.
        public let rawValue: String

        /// Creates a code from its wire spelling.
        public init(_ rawValue: String) { self.rawValue = rawValue }

        public var description: String { rawValue }

        /// SOQL or SOSL syntax error.
        public static let malformedQuery = Code("MALFORMED_QUERY")
        /// SOSL syntax error.
        public static let malformedSearch = Code("MALFORMED_SEARCH")
        /// Unknown field in a query, `?fields=` list or record body.
        public static let invalidField = Code("INVALID_FIELD")
        /// Unknown sObject type.
        public static let invalidType = Code("INVALID_TYPE")
        /// A filter value of the wrong type for its field.
        public static let invalidQueryFilterOperator = Code("INVALID_QUERY_FILTER_OPERATOR")
        /// Unknown record, path or external-ID field.
        public static let notFound = Code("NOT_FOUND")
        /// The record is in the Recycle Bin.
        public static let entityIsDeleted = Code("ENTITY_IS_DELETED")
        /// A required field is missing on create (or cleared on update).
        public static let requiredFieldMissing = Code("REQUIRED_FIELD_MISSING")
        /// A unique or external-ID value is already used by another record.
        public static let duplicateValue = Code("DUPLICATE_VALUE")
        /// A field that is not createable / updateable was written.
        public static let invalidFieldForInsertUpdate = Code("INVALID_FIELD_FOR_INSERT_UPDATE")
        /// A text value exceeds the field's length.
        public static let stringTooLong = Code("STRING_TOO_LONG")
        /// An email field holds something that is not an address.
        public static let invalidEmailAddress = Code("INVALID_EMAIL_ADDRESS")
        /// A lookup points to a missing record or a record of the wrong type.
        public static let invalidCrossReferenceKey = Code("INVALID_CROSS_REFERENCE_KEY")
        /// A delete refused because related records restrict it (an Account with Cases).
        public static let deleteFailed = Code("DELETE_FAILED")
        /// A record ID that is not 15 or 18 alphanumeric characters.
        public static let malformedID = Code("MALFORMED_ID")
        /// A value that cannot be read as the field's type, or a malformed request body.
        public static let jsonParserError = Code("JSON_PARSER_ERROR")
        /// A conditional request (`If-Match`, `If-Unmodified-Since`) did not hold.
        public static let preconditionFailed = Code("PRECONDITION_FAILED")
        /// OFFSET above 2000 or a similar numeric limit.
        public static let numberOutsideValidRange = Code("NUMBER_OUTSIDE_VALID_RANGE")
        /// An unknown or expired query locator.
        public static let invalidQueryLocator = Code("INVALID_QUERY_LOCATOR")
        /// Several records match an external-ID value (HTTP 300).
        public static let multipleChoices = Code("MULTIPLE_CHOICES")
        /// Seed or schema input that cannot be used (file problems, unknown `@reference`s).
        public static let invalidInput = Code("INVALID_INPUT")
        /// A failure of the storage itself (SQLite I/O, corrupt files).
        public static let storage = Code("UNKNOWN_EXCEPTION")
    }

    /// The HTTP status the REST layer answers with (400, 404, 300, 412…).
    public var status: Int
    /// The Salesforce error code.
    public var code: Code
    /// The human-readable message, as Salesforce words it where known.
    public var message: String
    /// The fields involved (the error item's `fields`), possibly empty.
    public var fields: [String]
    /// For `300 Multiple Choices`: the object and the 18-character IDs of the matching records.
    public var matchingRecords: (object: String, ids: [String])? {
        get { matchingObject.map { ($0, matchingIDs) } }
        set {
            matchingObject = newValue?.object
            matchingIDs = newValue?.ids ?? []
        }
    }
    private var matchingObject: String?
    private var matchingIDs: [String] = []

    /// Creates an error. Prefer the factories in `OrgError+Messages.swift`.
    public init(status: Int, code: Code, message: String, fields: [String] = []) {
        self.status = status
        self.code = code
        self.message = message
        self.fields = fields
    }

    /// The Salesforce error code's wire spelling.
    public var errorCode: String { code.rawValue }

    /// The error array items of a REST error response.
    public var errorBody: [OrgErrorItem] {
        [OrgErrorItem(message: message, errorCode: code.rawValue, fields: fields)]
    }

    /// The complete response body: the JSON error array, or for `300` the array of matching record URLs.
    /// - Parameter apiVersion: The version string of the request, e.g. `59.0`.
    public func responseBody(apiVersion: String) -> Data {
        if let object = matchingObject, status == 300 {
            let urls = matchingIDs.map { OrgJSONValue.string("/services/data/v\(apiVersion)/sobjects/\(object)/\($0)") }
            return OrgJSONValue.array(urls).encoded()
        }
        return OrgJSONValue.array(errorBody.map(\.jsonValue)).encoded()
    }

    public var description: String { "\(code.rawValue) (\(status)): \(message)" }

    public static func == (lhs: OrgError, rhs: OrgError) -> Bool {
        lhs.status == rhs.status && lhs.code == rhs.code && lhs.message == rhs.message && lhs.fields == rhs.fields
            && lhs.matchingObject == rhs.matchingObject && lhs.matchingIDs == rhs.matchingIDs
    }
}

/// One element of a REST error array: `{"message", "errorCode", "fields"}`.
public struct OrgErrorItem: Sendable, Equatable, Codable {
    /// The message.
    public var message: String
    /// The Salesforce error code (`errorCode` in REST bodies, `statusCode` in collection results).
    public var errorCode: String
    /// The fields involved.
    public var fields: [String]

    /// Creates an item.
    public init(message: String, errorCode: String, fields: [String] = []) {
        self.message = message
        self.errorCode = errorCode
        self.fields = fields
    }

    /// The item as JSON in the REST error shape (`errorCode`).
    public var jsonValue: OrgJSONValue {
        .object([
            "message": .string(message), "errorCode": .string(errorCode), "fields": .array(fields.map { .string($0) }),
        ])
    }

    /// The item as JSON in the collections / tree shape (`statusCode`).
    public var collectionJSONValue: OrgJSONValue {
        .object([
            "statusCode": .string(errorCode), "message": .string(message), "fields": .array(fields.map { .string($0) }),
        ])
    }
}
