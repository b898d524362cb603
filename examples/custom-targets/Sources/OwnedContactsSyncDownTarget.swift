import JSONCore
import OrgClient
import SOQL
import SyncEngine

/// Sync down of the contacts owned by the user the run is logged in as.
///
/// Who that is is known only at run time (the identity call), so no query in a config file can
/// name it: a case for code. Config keys of its own: `fields` (the fields to fetch; default below)
/// and `pageSize` (records per page asked of the org, 200 to 2,000).
struct OwnedContactsSyncDownTarget: SyncDownTargetPlugin {
    static let defaultFields = ["Id", "FirstName", "LastName", "Email", "Title", "LastModifiedDate"]

    let fields: [String]
    let pageSize: Int?

    init(definition: CustomTargetDefinition) throws {
        let names = definition.keys["fields"]?.arrayValue?.compactMap(\.stringValue) ?? Self.defaultFields
        // Field names are written into the query: accept API names only.
        for name in names where name.isEmpty || !name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
            throw CustomTargetError("'fields' lists '\(name)', which is not a field API name")
        }
        fields = Array(Set(names + ["Id", "LastModifiedDate"])).sorted()
        pageSize = definition.keys["pageSize"]?.integerValue.map(Int.init)
    }

    /// The query ends with `ORDER BY LastModifiedDate`: the watermark is saved after each page.
    var isSortedByModification: Bool { true }

    func startFetch(maxTimeStamp: Int64, context: CustomTargetContext) async throws -> CustomFetchPage {
        let query = try await soql(select: fields, since: maxTimeStamp, context: context)
        context.logger.debug("owned contacts", metadata: ["soql": "\(query)"])
        let page = try await context.org.queryFirstPage(query, options: QueryOptions(batchSize: pageSize))
        return try CustomFetchPage(queryPage: page)
    }

    func continueFetch(cursor: JSONValue, context: CustomTargetContext) async throws -> CustomFetchPage {
        let page = try await context.org.queryMore(cursor.stringValue ?? "", options: QueryOptions(batchSize: pageSize))
        return try CustomFetchPage(queryPage: page)
    }

    func startRemoteIDs(context: CustomTargetContext) async throws -> CustomIDsPage? {
        let query = try await soql(select: ["Id"], since: -1, context: context)
        return try Self.ids(of: try await context.org.queryFirstPage(query, options: QueryOptions()))
    }

    func continueRemoteIDs(cursor: JSONValue, context: CustomTargetContext) async throws -> CustomIDsPage {
        try Self.ids(of: try await context.org.queryMore(cursor.stringValue ?? "", options: QueryOptions()))
    }

    private func soql(select: [String], since: Int64, context: CustomTargetContext) async throws -> String {
        let owner = try await context.org.identity().userID
        guard owner.count == 15 || owner.count == 18, owner.allSatisfy({ $0.isLetter || $0.isNumber }) else {
            throw CustomTargetError("the org's identity gave '\(owner)', which is not a user id")
        }
        var query = "SELECT \(select.joined(separator: ", ")) FROM Contact WHERE OwnerId = '\(owner)'"
        if since > 0 { query += " AND LastModifiedDate >= \(SalesforceDateTime.soqlLiteral(milliseconds: since))" }
        return query + " ORDER BY LastModifiedDate"
    }

    private static func ids(of page: QueryPage) throws -> CustomIDsPage {
        let records = try CustomFetchPage(queryPage: page)
        return CustomIDsPage(ids: records.records.compactMap { $0["Id"]?.stringValue }, cursor: records.cursor)
    }
}
