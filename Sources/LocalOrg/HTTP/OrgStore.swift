import Foundation

/// Where a handler reads and writes: the database itself (each write its own transaction), or the
/// open transaction of a composite `allOrNone` request (every write joins it, and a failure anywhere
/// rolls everything back).
enum OrgStore {
    /// Autocommit: each ``write(_:)`` is one transaction.
    case database(OrgDatabase)
    /// Inside an open transaction: ``write(_:)`` is a savepoint of it.
    case transaction(OrgWriter)

    /// Whether this store is a composite request's open transaction.
    var isTransaction: Bool {
        if case .transaction = self { return true }
        return false
    }

    /// Runs `body` atomically: a transaction of its own, or a savepoint of the open one.
    func write<T>(_ body: (OrgWriter) throws -> T) throws -> T {
        switch self {
        case .database(let database): try database.write(body)
        case .transaction(let writer): try writer.savepoint { try body(writer) }
        }
    }

    /// The first page of a SOQL query.
    func query(_ soql: String, includeDeleted: Bool, pageSize: Int, apiVersion: String) throws -> OrgQueryPage {
        switch self {
        case .database(let database):
            try database.query(soql, includeDeleted: includeDeleted, pageSize: pageSize, apiVersion: apiVersion)
        case .transaction(let writer):
            try writer.query(soql, includeDeleted: includeDeleted, pageSize: pageSize, apiVersion: apiVersion)
        }
    }

    /// The page a locator names.
    func queryMore(locator: String, pageSize: Int, apiVersion: String) throws -> OrgQueryPage {
        switch self {
        case .database(let database):
            try database.queryMore(locator: locator, pageSize: pageSize, apiVersion: apiVersion)
        case .transaction(let writer):
            try OrgQueryRunner(db: writer.db, context: writer.context).queryMore(
                locator: locator,
                pageSize: pageSize,
                apiVersion: apiVersion
            )
        }
    }

    /// One record by ID.
    func retrieve(_ object: String, id: String, fields: [String]?, apiVersion: String) throws -> Data {
        switch self {
        case .database(let database):
            try database.retrieve(object, id: id, fields: fields, apiVersion: apiVersion)
        case .transaction(let writer):
            try writer.retrieve(object, id: id, fields: fields, apiVersion: apiVersion, markViewed: true)
        }
    }

    /// Runs `body` over what is committed (a read snapshot), or inside the open transaction: for
    /// reads the database and an open transaction serve alike (by external ID, several IDs, a
    /// record's version).
    func read<T>(_ body: (OrgWriter) throws -> T) throws -> T {
        switch self {
        case .database(let database): try database.read(body)
        case .transaction(let writer): try body(writer)
        }
    }
}
