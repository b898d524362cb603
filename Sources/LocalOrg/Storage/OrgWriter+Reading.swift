import Foundation
import GRDB

/// Reads of single records, recent items and the replication feeds.
extension OrgWriter {
    /// One record as JSON with `attributes`.
    /// - Parameter markViewed: Whether to record the view for the recent-items lists.
    public func retrieve(
        _ object: String,
        id: String,
        fields: [String]? = nil,
        apiVersion: String,
        markViewed: Bool = false
    ) throws -> Data {
        let type = try context.recordObject(object)
        let row = try liveRow(type, id: id)
        let json = try recordJSON(type, rowIDs: [row.rowID], fields: fields, apiVersion: apiVersion)[0]
        if markViewed { try markRecent(type, id: row.id) }
        return Data(json.utf8)
    }

    /// The record whose external-ID field equals `value`. - Throws: 404, or 300 when several match.
    public func retrieve(
        _ object: String,
        externalIDField: String,
        value: String,
        fields: [String]? = nil,
        apiVersion: String
    ) throws -> Data {
        let type = try context.recordObject(object)
        guard let keyField = type.field(named: externalIDField) else { throw OrgError.notFound() }
        if keyField.type == .id { return try retrieve(type.name, id: value, fields: fields, apiVersion: apiVersion) }
        guard keyField.isIDLookup else {
            throw OrgError.notExternalID(field: keyField.name, object: type.name)
        }
        let key = try OrgValueCoercion.databaseValue(.string(value), for: keyField)
        let matches = try Row.fetchAll(
            db,
            sql: """
                SELECT rowid, "Id" FROM \(OrgSQL.identifier(type.name))
                WHERE \(OrgSQL.identifier(keyField.name)) = ? AND "IsDeleted" = 0 ORDER BY rowid LIMIT 200
                """,
            arguments: [key]
        )
        switch matches.count {
        case 0: throw OrgError.notFound()
        case 1:
            return Data(try recordJSON(type, rowIDs: [matches[0][0]], fields: fields, apiVersion: apiVersion)[0].utf8)
        default: throw OrgError.multipleMatches(object: type.name, ids: matches.map { $0[1] })
        }
    }

    /// Records as a JSON array aligned with `ids`; `null` for missing or deleted records.
    public func retrieve(_ object: String, ids: [String], fields: [String], apiVersion: String) throws -> Data {
        let type = try context.recordObject(object)
        var rowIDs: [Int64?] = []
        for id in ids {
            let row = try storedRow(type, id: id)
            rowIDs.append(row.flatMap { $0.isDeleted ? nil : $0.rowID })
        }
        let found = rowIDs.compactMap { $0 }
        let rendered = try recordJSON(type, rowIDs: found, fields: fields, apiVersion: apiVersion)
        var byRowID: [Int64: String] = [:]
        for (rowID, json) in zip(found, rendered) { byRowID[rowID] = json }
        let items = rowIDs.map { $0.flatMap { byRowID[$0] } ?? "null" }
        return Data(("[" + items.joined(separator: ",") + "]").utf8)
    }

    /// The version of a record (deleted records included).
    public func recordVersion(_ object: String, id: String) throws -> OrgRecordVersion {
        let type = try context.recordObject(object)
        guard let row = try storedRow(type, id: id) else { throw OrgError.notFound() }
        return OrgRecordVersion(
            id: row.id,
            lastModified: row.lastModified,
            systemModstamp: row.systemModstamp,
            etag: row.etag,
            isDeleted: row.isDeleted
        )
    }

    /// The JSON text of each row, in the order of `rowIDs`, built by SQLite.
    func recordJSON(_ object: OrgObject, rowIDs: [Int64], fields: [String]?, apiVersion: String) throws -> [String] {
        guard !rowIDs.isEmpty else { return [] }
        let scope = OrgQueryScope(object: object, schema: context.schema, aliases: OrgQueryScope.AliasGenerator())
        let projection = OrgProjection(object: object, alias: scope.alias)
        if let fields {
            for name in fields where !name.isEmpty {
                try projection.add(path: name.split(separator: ".").map(String.init), scope: scope)
            }
        } else {
            projection.addAllFields()
        }
        var sql = SQLFragment("SELECT ") + projection.render(urlPrefix: "/services/data/v\(apiVersion)/sobjects/")
        sql.append(" FROM \(scope.fromClause) \(scope.joinClause) WHERE \(scope.alias).rowid = ?")
        let statement = try db.cachedStatement(sql: sql.sql)
        var result: [String] = []
        result.reserveCapacity(rowIDs.count)
        for rowID in rowIDs {
            let arguments = StatementArguments(sql.arguments + [rowID.databaseValue])
            result.append(try String.fetchOne(statement, arguments: arguments) ?? "null")
        }
        return result
    }

    /// Recently viewed or changed records (all objects when `object` is `nil`), newest first, as
    /// `{"attributes", "Id", "Name"}`.
    func recentItems(_ object: String?, limit: Int, apiVersion: String) throws -> [OrgJSONValue] {
        var sql = "SELECT id, object FROM _org_recent"
        var arguments: [DatabaseValue] = []
        if let object {
            let type = try context.recordObject(object)
            sql += " WHERE object = ?"
            arguments.append(type.name.databaseValue)
        }
        sql += " ORDER BY at DESC LIMIT ?"
        arguments.append(max(0, min(limit, 200)).databaseValue)
        var items: [OrgJSONValue] = []
        for row in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)) {
            guard let type = context.schema.object(named: row["object"]) else { continue }
            let id: String = row["id"]
            let nameField = type.nameField ?? type.field(named: "Id")
            let name = try DatabaseValue.fetchOne(
                db,
                sql:
                    "SELECT \(OrgSQL.identifier(nameField?.name ?? "Id")) FROM \(OrgSQL.identifier(type.name)) WHERE \"Id\" = ? AND \"IsDeleted\" = 0",
                arguments: [id]
            )
            guard let name else { continue }
            items.append(
                .object([
                    "attributes": .object([
                        "type": .string(type.name),
                        "url": .string("/services/data/v\(apiVersion)/sobjects/\(type.name)/\(id)"),
                    ]),
                    "Id": .string(id), "Name": String.fromDatabaseValue(name).map { .string($0) } ?? .null,
                ])
            )
        }
        return items
    }

    /// `{"deletedRecords": [{"id", "deletedDate"}], "earliestDateAvailable", "latestDateCovered"}` or
    /// `{"ids": […], "latestDateCovered"}` for records stamped in `[start, end]`.
    func replicationFeed(_ object: String, start: Date, end: Date, deleted: Bool) throws -> Data {
        let type = try context.recordObject(object)
        let lower = OrgDateTime.milliseconds(start)
        let upper = OrgDateTime.milliseconds(end)
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT "Id", "SystemModstamp" FROM \(OrgSQL.identifier(type.name))
                WHERE "IsDeleted" = ? AND "SystemModstamp" >= ? AND "SystemModstamp" <= ? ORDER BY "SystemModstamp", rowid
                """,
            arguments: [deleted, lower, upper]
        )
        let covered = OrgJSONValue.string(OrgDateTime.format(milliseconds: min(upper, context.nowMilliseconds)))
        if deleted {
            let earliest = try Int64.fetchOne(
                db,
                sql: "SELECT min(\"SystemModstamp\") FROM \(OrgSQL.identifier(type.name)) WHERE \"IsDeleted\" = 1"
            )
            let records = rows.map { row -> OrgJSONValue in
                .object(["id": .string(row[0]), "deletedDate": .string(OrgDateTime.format(milliseconds: row[1]))])
            }
            return OrgJSONValue.object([
                "deletedRecords": .array(records),
                "earliestDateAvailable": earliest.map { .string(OrgDateTime.format(milliseconds: $0)) } ?? covered,
                "latestDateCovered": covered,
            ]).encoded()
        }
        return OrgJSONValue.object([
            "ids": .array(rows.map { .string($0[0]) }), "latestDateCovered": covered,
        ]).encoded()
    }
}
