import Foundation
import GRDB

/// What every operation on an open org needs besides the SQLite connection: the schema, the settings
/// and the IDs of the org's own records.
struct OrgContext: Sendable {
    /// The schema as the acting user sees it (``OrgUserAccess/restrict(_:)``): what describes,
    /// queries and writes go by.
    let schema: OrgSchema
    let configuration: OrgDatabase.Configuration
    let organizationID: String
    let userID: String
    /// Where new record IDs come from.
    let idSpace: OrgIDSpace
    /// The whole schema, whoever acts: what the org's own rules go by (delete cascades and
    /// restrictions, emptied lookups, default values), which run whatever the user may see.
    let storageSchema: OrgSchema
    /// The restricted user acting, `nil` for the org's all-powerful user.
    let access: OrgUserAccess?

    init(
        schema: OrgSchema,
        configuration: OrgDatabase.Configuration,
        organizationID: String,
        userID: String,
        idSpace: OrgIDSpace,
        access: OrgUserAccess? = nil
    ) {
        self.schema = access?.restrict(schema) ?? schema
        self.storageSchema = schema
        self.configuration = configuration
        self.organizationID = organizationID
        self.userID = userID
        self.idSpace = idSpace
        self.access = access
    }

    /// This context acting as `access`'s user.
    func acting(as access: OrgUserAccess) -> OrgContext {
        OrgContext(
            schema: storageSchema,
            configuration: configuration,
            organizationID: organizationID,
            userID: userID,
            idSpace: idSpace,
            access: access
        )
    }

    /// The write operations object permissions govern.
    enum WriteOperation {
        case create, edit, delete
    }

    /// Refuses `operation` on `object` (as the acting user sees it) when the object does not allow
    /// it: `INSUFFICIENT_ACCESS_OR_READONLY` when only the user's object permissions are missing,
    /// `INVALID_TYPE_FOR_OPERATION` when the object itself takes no such write.
    func requireWritable(_ object: OrgObject, _ operation: WriteOperation) throws {
        func allows(_ object: OrgObject) -> Bool {
            switch operation {
            case .create: object.isCreateable
            case .edit: object.isUpdateable
            case .delete: object.isDeletable
            }
        }
        guard !allows(object) else { return }
        if access != nil, let whole = storageSchema.object(named: object.name), allows(whole) {
            throw OrgError.insufficientAccess()
        }
        throw OrgError.objectNotWritable(object.name)
    }

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
    static func identifier(_ name: String) -> String { quoted(name, by: "\"") }

    /// A single-quoted SQL string literal.
    static func literal(_ text: String) -> String { quoted(text, by: "'") }

    /// `text` between two `quote`s, each `quote` inside doubled. Pure Swift: the write path spells
    /// a table name for every record, and Foundation's `replacingOccurrences` bridges to `NSString`.
    private static func quoted(_ text: String, by quote: Character) -> String {
        if !text.utf8.contains(quote.asciiValue ?? 0) { return String(quote) + text + String(quote) }
        var result = String(quote)
        result.reserveCapacity(text.utf8.count + 2)
        for character in text {
            result.append(character)
            if character == quote { result.append(quote) }
        }
        result.append(quote)
        return result
    }

    /// Statement arguments of stored values. GRDB's initializer for a sequence of concrete values
    /// builds a key path at run time on every call; its initializer for optional existentials maps
    /// with a closure.
    static func arguments(_ values: [DatabaseValue]) -> StatementArguments {
        StatementArguments(values.lazy.map { $0 as (any DatabaseValueConvertible)? })
    }

    /// `alias."Column"`.
    static func column(_ alias: String, _ name: String) -> String { alias + "." + identifier(name) }
}
