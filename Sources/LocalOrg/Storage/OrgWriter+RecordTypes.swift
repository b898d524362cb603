import Foundation
import GRDB

/// Record types: the `RecordType` records of the types the schema declares, and `RecordTypeId`
/// values checked against them.
extension OrgWriter {
    /// The IDs of `objectName`'s declared record types, by developer name.
    func recordTypeIDs(of objectName: String) throws -> [String: String] {
        guard let object = context.schema.object(named: objectName), !object.recordTypes.isEmpty,
            context.schema.object(named: "RecordType") != nil
        else { return [:] }
        var result: [String: String] = [:]
        for recordType in object.recordTypes {
            result[recordType.developerName] = try recordTypeID(object, recordType)
        }
        return result
    }

    private func recordTypeID(_ object: OrgObject, _ recordType: OrgRecordType) throws -> String? {
        try String.fetchOne(
            db,
            sql: """
                SELECT "Id" FROM "RecordType" WHERE "SobjectType" = ? AND "DeveloperName" = ?
                AND "NamespacePrefix" IS ? AND "IsDeleted" = 0 ORDER BY rowid LIMIT 1
                """,
            arguments: [object.name, recordType.developerName, recordType.namespacePrefix]
        )
    }

    /// The ID of the record type a new record of `object` gets when its body has none.
    func defaultRecordTypeID(_ object: OrgObject) throws -> String? {
        guard let recordType = object.defaultRecordType else { return nil }
        return try recordTypeID(object, recordType)
    }

    /// Checks that `id` names an active record type of `object`.
    /// - Throws: ``OrgError`` `INVALID_CROSS_REFERENCE_KEY`, worded as a real org words it.
    func checkRecordType(_ field: OrgField, id: String, object: OrgObject) throws {
        guard context.schema.object(named: "RecordType") != nil else {
            throw OrgError.invalidRecordType(field: field.name, label: field.label, id: id)
        }
        let row = try Row.fetchOne(
            db,
            sql: "SELECT \"SobjectType\", \"IsActive\", \"IsDeleted\" FROM \"RecordType\" WHERE \"Id\" = ?",
            arguments: [id]
        )
        guard let row, (row[0] as String?)?.lowercased() == object.name.lowercased(), (row[1] as Int64?) == 1,
            (row[2] as Int64?) != 1
        else { throw OrgError.invalidRecordType(field: field.name, label: field.label, id: id) }
    }

    /// Creates the `RecordType` record of every declared record type that has none yet and brings
    /// the label, description and active flag of the others up to date.
    func syncRecordTypes() throws {
        guard context.schema.object(named: "RecordType") != nil else { return }
        for object in context.schema.objects {
            for recordType in object.recordTypes {
                var fields: OrgJSONObject = [
                    "Name": .string(recordType.name), "IsActive": .bool(recordType.isActive),
                    "Description": recordType.description.map { .string($0) } ?? .null,
                ]
                if let id = try recordTypeID(object, recordType) {
                    let stored = try Row.fetchOne(
                        db,
                        sql: "SELECT \"Name\", \"IsActive\", \"Description\" FROM \"RecordType\" WHERE \"Id\" = ?",
                        arguments: [id]
                    )
                    let unchanged =
                        stored.map {
                            ($0[0] as String?) == recordType.name && (($0[1] as Int64?) == 1) == recordType.isActive
                                && ($0[2] as String?) == recordType.description
                        } ?? true
                    let type = try context.recordObject("RecordType")
                    if !unchanged, let row = try storedRow(type, id: id) {
                        try applyUpdate(type, row: row, fields: fields, mode: .system)
                    }
                    continue
                }
                fields["DeveloperName"] = .string(recordType.developerName)
                fields["SobjectType"] = .string(object.name)
                fields["NamespacePrefix"] = recordType.namespacePrefix.map { .string($0) } ?? .null
                _ = try insert("RecordType", fields: fields, mode: .system)
            }
        }
    }
}
