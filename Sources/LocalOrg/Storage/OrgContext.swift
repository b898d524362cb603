import Foundation

/// What every operation on an open org needs besides the SQLite connection: the schema, the settings
/// and the IDs of the org's own records.
struct OrgContext: Sendable {
    let schema: OrgSchema
    let configuration: OrgDatabase.Configuration
    let organizationID: String
    let userID: String
    /// Where new record IDs come from.
    let idSpace: OrgIDSpace

    /// The clock reading in milliseconds since 1970.
    var nowMilliseconds: Int64 { OrgDateTime.milliseconds(configuration.now()) }

    /// The object for a record operation on `name`.
    /// - Throws: ``OrgError`` `NOT_FOUND` (404), as the sObject REST resources answer for unknown types.
    func recordObject(_ name: String) throws -> OrgObject {
        guard let object = schema.object(named: name) else { throw OrgError.notFound() }
        return object
    }

    /// The object named in a query's FROM.
    /// - Throws: ``OrgError`` `INVALID_TYPE` (400) for an unknown or non-queryable object.
    func queryObject(_ name: String) throws -> OrgObject {
        guard let object = schema.object(named: name), object.isQueryable else { throw OrgError.invalidType(name) }
        return object
    }
}

/// SQL spellings shared by the storage and query code.
enum OrgSQL {
    /// A double-quoted SQL identifier.
    static func identifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A single-quoted SQL string literal.
    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// `alias."Column"`.
    static func column(_ alias: String, _ name: String) -> String { alias + "." + identifier(name) }
}
