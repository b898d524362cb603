import Avro
import Foundation
import GRDB

/// One change event's Avro datum: the header, and the field values the records share.
///
/// An event names every record of its object and change type in the transaction; a field's value is
/// written when all of those records hold the same value for it (as a real org merges only records
/// with identical changes), and left `null` otherwise, so a subscriber reads the records back by id
/// (which is what `syncrun watch` does). CREATE events carry the new records' non-null fields;
/// UPDATE events the changed ones, named in `changedFields` and, when now empty, `nulledFields`;
/// DELETE events none.
struct ChangeEventPayload {
    struct Record {
        var id: String
        var rowID: Int64
        var changedFields: [String]
    }

    let schema: ChangeEventSchema
    let changeType: String
    let records: [Record]
    let transactionKey: String
    let sequenceNumber: Int
    let commitTimestamp: Int64
    let commitUser: String

    /// The Avro binary datum, reading the records' current values.
    func encoded(_ db: Database) throws -> [UInt8] {
        var values: [String: AvroValue] = [:]
        var changed: Set<String> = []
        var nulled: Set<String> = []
        if changeType == "CREATE" || changeType == "UPDATE" || changeType == "UNDELETE" {
            let rows = try Row.fetchAll(
                db,
                sql: "SELECT * FROM \(OrgSQL.identifier(schema.entityName)) WHERE rowid IN "
                    + "(SELECT value FROM json_each(?))",
                arguments: ["[" + records.map { String($0.rowID) }.joined(separator: ",") + "]"]
            )
            let named = Set(records.flatMap(\.changedFields))
            // Columns by name once per event, not a case-insensitive search per row and field
            // (an event of 200 records of a 60-field object would make 12,000 of them).
            var columns: [String: Int] = [:]
            for (index, name) in (rows.first.map { Array($0.columnNames) } ?? []).enumerated() {
                let key = name.lowercased()
                if columns[key] == nil { columns[key] = index }
            }
            for field in schema.fields where changeType != "UPDATE" || named.contains(field.name) {
                let column = columns[field.name.lowercased()]
                func value(_ row: Row) -> AvroValue {
                    guard let column else { return .null }
                    return Self.avroValue(row[column] as DatabaseValue, field.type)
                }
                // A value goes in the event when every record has it (the first that differs ends the look).
                guard let firstRow = rows.first else { continue }
                let first = value(firstRow)
                guard !rows.dropFirst().contains(where: { value($0) != first }) else { continue }
                if changeType == "UPDATE" {
                    changed.insert(field.name)
                    if first == .null { nulled.insert(field.name) }
                }
                if first != .null { values[field.name] = .union(branch: 1, first) }
            }
            if changeType == "UPDATE" { changed.formUnion(named) }
        }
        var fields: [String: AvroValue] = [:]
        for field in schema.fields { fields[field.name] = values[field.name] ?? .union(branch: 0, .null) }
        fields["ChangeEventHeader"] = .record([
            "entityName": .string(schema.entityName),
            "recordIds": .array(records.map { .string($0.id) }),
            "changeType": .enumeration(changeType),
            "changeOrigin": .string(""),
            "transactionKey": .string(transactionKey),
            "sequenceNumber": .int(Int32(clamping: sequenceNumber)),
            "commitTimestamp": .long(commitTimestamp),
            "commitNumber": .long(commitTimestamp),
            "commitUser": .string(commitUser),
            "nulledFields": .array(nulled.isEmpty ? [] : [.string(schema.bitmap(of: nulled))]),
            "diffFields": .array([]),
            "changedFields": .array(changed.isEmpty ? [] : [.string(schema.bitmap(of: changed))]),
        ])
        do {
            return try AvroEncoder.encode(.record(fields), as: schema.schema)
        } catch {
            throw OrgError.storage("Encoding a change event of '\(schema.entityName)'", error)
        }
    }

    /// A stored column value as the schema's Avro type (``ChangeEventSchema/avroType(of:)``);
    /// `null` for a value stored in another type's column, rather than a misreport.
    static func avroValue(_ value: DatabaseValue, _ type: OrgFieldType) -> AvroValue {
        let storage = value.storage
        switch type {
        case .boolean:
            if case .int64(let number) = storage { return .boolean(number != 0) }
        case .int:
            if case .int64(let number) = storage { return .int(Int32(clamping: number)) }
            if case .double(let number) = storage, number.isFinite {
                return .int(Int32(clamping: Int64(max(min(number, 4e9), -4e9))))
            }
        case .double, .currency, .percent:
            if case .double(let number) = storage { return .double(number) }
            if case .int64(let number) = storage { return .double(Double(number)) }
        case .datetime:
            if case .int64(let number) = storage { return .long(number) }
        case .date:
            if case .string(let text) = storage, let days = OrgDateTime.parseDate(text) {
                return .int(Int32(clamping: days))
            }
        // The text-stored types (address and location as their stored text, not the real nested record).
        case .id, .reference, .string, .textarea, .email, .phone, .url, .picklist, .multipicklist, .combobox,
            .encryptedString, .base64, .time, .anyType, .json, .address, .location:
            switch storage {
            case .string(let text): return .string(text)
            case .int64(let number): return .string(String(number))
            case .double(let number): return .string(String(number))
            case .null, .blob: return .null
            }
        }
        return .null
    }
}
