import Avro

/// The ChangeEventHeader's bitmap fields (`changedFields`, `nulledFields`, `diffFields`) expanded
/// into field names against the event's schema.
///
/// As Salesforce publishes it (Pub/Sub API Developer Guide, "Event Deserialization
/// Considerations", bitmap fields; the same rule as `getFieldListFromBitmap` in the
/// forcedotcom/pub-sub-api examples): each element is a string. `0x` and hex digits is a number
/// whose bit *i* is set when the event record's field *i* (in schema order, the header being field
/// 0) is named. `N-0x…` names fields of the compound field at top-level index *N* (a nested record,
/// such as `Name` of a Contact): bit *i* is that record's field *i*, reported as `Parent.Child`.
/// The local org writes the first form (`Sources/LocalOrg/PubSub/ChangeEventSchema.swift`,
/// `bitmap(of:)`).
public enum ChangeEventBitmap {
    /// The field names `bitmaps` name in `record`. Malformed elements and bits past the last field
    /// are ignored (a newer schema may name more fields than the one cached).
    public static func fieldNames(_ bitmaps: [String], in record: AvroRecord, schema: AvroSchema) -> [String] {
        var names: [String] = []
        for element in bitmaps {
            if let dash = element.firstIndex(of: "-"), !element.hasPrefix("0x") {
                guard let parentIndex = Int(element[..<dash]), record.fields.indices.contains(parentIndex),
                    let nested = nestedRecord(record.fields[parentIndex].type, schema: schema)
                else { continue }
                let parent = record.fields[parentIndex].name
                for bit in setBits(String(element[element.index(after: dash)...]))
                where nested.fields.indices.contains(bit) {
                    names.append(parent + "." + nested.fields[bit].name)
                }
            } else {
                for bit in setBits(element) where record.fields.indices.contains(bit) {
                    names.append(record.fields[bit].name)
                }
            }
        }
        return names
    }

    /// The set bits of `0x` + hex digits, lowest first; none for anything else.
    static func setBits(_ text: String) -> [Int] {
        guard text.hasPrefix("0x") || text.hasPrefix("0X") else { return [] }
        var bits: [Int] = []
        for (position, character) in text.dropFirst(2).reversed().enumerated() {
            guard let digit = character.hexDigitValue else { return [] }
            for bit in 0..<4 where digit & (1 << bit) != 0 { bits.append(position * 4 + bit) }
        }
        return bits
    }

    /// The record a compound field holds: its type, or the record branch of its `["null", record]`
    /// union, followed through named references.
    private static func nestedRecord(_ type: AvroType, schema: AvroSchema) -> AvroRecord? {
        switch type {
        case .named(let name):
            if case .record(let record)? = schema.namedType(name) { return record }
            return nil
        case .logical(_, let underlying):
            return nestedRecord(underlying, schema: schema)
        case .union(let branches):
            return branches.lazy.compactMap { nestedRecord($0, schema: schema) }.first
        default:
            return nil
        }
    }
}
