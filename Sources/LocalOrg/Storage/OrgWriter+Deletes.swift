import Foundation
import GRDB

/// Deletes with a real org's delete rules: cascades (a deleted Account takes its Contacts and open
/// Opportunities along, a master takes its details) and restrictions (an Account with Cases or
/// closed-won Opportunities cannot be deleted: `DELETE_FAILED`, and nothing is deleted); the
/// optional lookups of the records left pointing at a deleted one are emptied.
extension OrgWriter {
    /// Moves a live record and everything that cascades from it to the Recycle Bin, after checking
    /// every restriction on the whole cascade first. Returns the deleted records by object.
    @discardableResult
    func deleteCascading(_ object: OrgObject, row: StoredRow) throws -> [(object: OrgObject, ids: [String])] {
        var plan: [(object: OrgObject, ids: [String])] = [(object, [row.id])]
        var planned: Set<String> = [row.id]
        var index = 0
        while index < plan.count {
            let (parent, parentIDs) = plan[index]
            index += 1
            for child in context.storageSchema.objects {
                for field in child.fields where Self.points(field, at: parent) {
                    if field.isRestrictedDelete {
                        try refuseIfBlocked(child, field: field, parent: parent, parentIDs: parentIDs, when: [:])
                    } else if field.isCascadeDelete {
                        if let when = field.restrictedDeleteWhen {
                            try refuseIfBlocked(child, field: field, parent: parent, parentIDs: parentIDs, when: when)
                        }
                        let childIDs = try liveIDs(child, field: field, parentIDs: parentIDs, when: [:])
                            .map(\.id).filter { !planned.contains($0) }
                        if !childIDs.isEmpty {
                            planned.formUnion(childIDs)
                            plan.append((child, childIDs))
                        }
                    }
                }
            }
        }
        let stamp = try nextStamp()
        try clearLookups(to: plan, stamp: stamp)
        for (object, ids) in plan {
            let list = Self.jsonList(ids)
            try db.cachedStatement(
                sql: """
                    UPDATE \(OrgSQL.identifier(object.name)) SET "IsDeleted" = 1, "LastModifiedDate" = ?,
                    "SystemModstamp" = ?, "LastModifiedById" = ?
                    WHERE "Id" IN (SELECT value FROM json_each(?)) AND "IsDeleted" = 0
                    """
            ).execute(arguments: [stamp, stamp, context.userID, list])
            try db.cachedStatement(
                sql: "DELETE FROM _org_recent WHERE id IN (SELECT value FROM json_each(?))"
            ).execute(arguments: [list])
        }
        return plan
    }

    /// Deletes a record and everything that cascades from it for good, bypassing the Recycle Bin,
    /// as the Bulk APIs' `hardDelete` does: `queryAll` and the `deleted` feed no longer see them.
    /// The same rules, refusals and emptied lookups as ``delete(_:id:)``.
    public func hardDelete(_ object: String, id: String) throws {
        let type = try context.recordObject(object)
        let row = try liveRow(type, id: id)
        try context.requireWritable(type, .delete)
        for (deleted, ids) in try deleteCascading(type, row: row) {
            try db.cachedStatement(
                sql: "DELETE FROM \(OrgSQL.identifier(deleted.name)) WHERE \"Id\" IN (SELECT value FROM json_each(?))"
            ).execute(arguments: [Self.jsonList(ids)])
        }
    }

    /// Empties the optional lookups of surviving records that point at the deleted ones, as a real
    /// org does (a Contact's `ReportsToId` when its manager is deleted, a Case's `ContactId`).
    /// Their `SystemModstamp` moves so incremental reads see the change; `LastModifiedDate` and
    /// `LastModifiedById` stay, the record was not edited by anyone.
    private func clearLookups(to plan: [(object: OrgObject, ids: [String])], stamp: Int64) throws {
        // The deleted records keep their values (`queryAll` shows them as they were).
        let deleted = Self.jsonList(plan.flatMap(\.ids))
        for (parent, ids) in plan {
            let list = Self.jsonList(ids)
            for child in context.storageSchema.objects {
                for field in child.fields
                where Self.points(field, at: parent) && field.isNillable && !field.isCascadeDelete
                    && !field.isRestrictedDelete
                {
                    let column = OrgSQL.identifier(field.name)
                    try db.cachedStatement(
                        sql: """
                            UPDATE \(OrgSQL.identifier(child.name)) SET \(column) = NULL, "SystemModstamp" = ?
                            WHERE \(column) IN (SELECT value FROM json_each(?)) AND "IsDeleted" = 0
                            AND "Id" NOT IN (SELECT value FROM json_each(?))
                            """
                    ).execute(arguments: [stamp, list, deleted])
                }
            }
        }
    }

    private static func points(_ field: OrgField, at parent: OrgObject) -> Bool {
        field.type == .reference && field.referenceTo.contains { $0.lowercased() == parent.name.lowercased() }
    }

    /// A JSON array of plain strings (IDs, stage names), for `json_each`.
    static func jsonList(_ values: [String]) -> String {
        "[" + values.map { "\"\($0)\"" }.joined(separator: ",") + "]"
    }

    /// Throws `DELETE_FAILED` when a live record of `child` points at one of `parentIDs` through
    /// `field` and has the `when` values.
    private func refuseIfBlocked(
        _ child: OrgObject,
        field: OrgField,
        parent: OrgObject,
        parentIDs: [String],
        when: OrgJSONObject
    ) throws {
        let blockers = try liveIDs(child, field: field, parentIDs: parentIDs, when: when, limit: 10)
        guard let first = blockers.first else { return }
        let parentName = try recordName(parent, id: first.parentID) ?? first.parentID
        var names: [String] = []
        for blocker in blockers { names.append(try recordName(child, id: blocker.id) ?? blocker.id) }
        throw OrgError.deleteFailed(record: parentName, related: child.labelPlural.lowercased(), names: names)
    }

    /// The live records of `child` pointing at `parentIDs` through `field` and having the `when` values.
    private func liveIDs(
        _ child: OrgObject,
        field: OrgField,
        parentIDs: [String],
        when: OrgJSONObject,
        limit: Int? = nil
    ) throws -> [(id: String, parentID: String)] {
        var sql = """
            SELECT "Id", \(OrgSQL.identifier(field.name)) FROM \(OrgSQL.identifier(child.name))
            WHERE \(OrgSQL.identifier(field.name)) IN (SELECT value FROM json_each(?)) AND "IsDeleted" = 0
            """
        var arguments: [DatabaseValue] = [Self.jsonList(parentIDs).databaseValue]
        for (name, value) in when {
            guard let conditionField = child.field(named: name) else { continue }
            let stored = try OrgValueCoercion.databaseValue(value, for: conditionField)
            if stored.isNull {
                sql += " AND \(OrgSQL.identifier(conditionField.name)) IS NULL"
            } else {
                sql += " AND \(OrgSQL.identifier(conditionField.name)) = ?"
                arguments.append(stored)
            }
        }
        sql += " ORDER BY rowid"
        if let limit { sql += " LIMIT \(limit)" }
        return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map { ($0[0], $0[1]) }
    }

    /// The value of the record's name field (`Name`, `Subject`, `CaseNumber`), if it has one.
    private func recordName(_ object: OrgObject, id: String) throws -> String? {
        guard let field = object.nameField else { return nil }
        return try String.fetchOne(
            db,
            sql: "SELECT \(OrgSQL.identifier(field.name)) FROM \(OrgSQL.identifier(object.name)) WHERE \"Id\" = ?",
            arguments: [id]
        )
    }
}
