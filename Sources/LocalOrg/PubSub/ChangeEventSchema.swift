import Avro
import Crypto
import Foundation
import JSONCore

/// The Avro schema of an object's change events, shaped like a real org's (Change Data Capture
/// Developer Guide, "Change Event Message Structure"; Pub/Sub API guide, "Event Deserialization"):
/// record `com.sforce.eventbus.{Object}ChangeEvent` whose first field is the `ChangeEventHeader`
/// record, then each of the object's fields as an optional union (`["null", T]`, default `null`).
/// Field types follow the published mapping: text, ids and picklists `string`, Booleans
/// `boolean`, integers `int`, numbers `double`, date-times `long` milliseconds, dates `int` days.
struct ChangeEventSchema: Sendable {
    /// The object's API name.
    let entityName: String
    /// The Avro schema.
    let schema: AvroSchema
    /// Its JSON text, as `GetSchema` returns it.
    let jsonText: String
    /// Its id: base64url of the first 16 bytes of the SHA-256 of ``jsonText`` (real ids are
    /// opaque 22-character fingerprints too).
    let id: String
    /// The object's fields, in schema order (the event record's fields after the header).
    let fields: [OrgField]

    static let namespace = "com.sforce.eventbus"

    /// The change types of the published `ChangeType` enum.
    static let changeTypes = [
        "CREATE", "UPDATE", "DELETE", "UNDELETE", "GAP_CREATE", "GAP_UPDATE", "GAP_DELETE", "GAP_UNDELETE",
        "GAP_OVERFLOW", "SNAPSHOT",
    ]

    init(object: OrgObject) {
        entityName = object.name
        fields = object.fields.filter { $0.name != "Id" }
        let header = AvroRecord(
            fullName: Self.namespace + ".ChangeEventHeader",
            fields: [
                AvroField(name: "entityName", type: .string),
                AvroField(name: "recordIds", type: .array(.string)),
                AvroField(name: "changeType", type: .named(Self.namespace + ".ChangeType")),
                AvroField(name: "changeOrigin", type: .string),
                AvroField(name: "transactionKey", type: .string),
                AvroField(name: "sequenceNumber", type: .int),
                AvroField(name: "commitTimestamp", type: .long),
                AvroField(name: "commitNumber", type: .long),
                AvroField(name: "commitUser", type: .string),
                AvroField(name: "nulledFields", type: .array(.string)),
                AvroField(name: "diffFields", type: .array(.string)),
                AvroField(name: "changedFields", type: .array(.string)),
            ]
        )
        var eventFields = [
            AvroField(name: "ChangeEventHeader", type: .named(header.fullName), doc: "Data:ChangeEventHeader")
        ]
        for field in fields {
            eventFields.append(
                AvroField(
                    name: field.name,
                    type: .union([.null, Self.avroType(of: field.type)]),
                    defaultValue: .null,
                    doc: "Data:\(field.type.rawValue)"
                )
            )
        }
        let record = AvroRecord(
            fullName: "\(Self.namespace).\(Self.eventName(of: object.name))",
            fields: eventFields,
            doc: "Change event of \(object.name)"
        )
        schema = AvroSchema(
            root: .named(record.fullName),
            namedTypes: [
                record.fullName: .record(record), header.fullName: .record(header),
                Self.namespace + ".ChangeType": .enumeration(
                    AvroEnum(fullName: Self.namespace + ".ChangeType", symbols: Self.changeTypes)
                ),
            ]
        )
        jsonText = schema.jsonText
        id = Base64URL.encode(Data(SHA256.hash(data: Data(jsonText.utf8))).prefix(16))
    }

    /// `Account` → `AccountChangeEvent`; `Invoice__c` → `Invoice__ChangeEvent` (the published rule
    /// for custom objects).
    static func eventName(of object: String) -> String {
        object.hasSuffix("__c") ? String(object.dropLast(1)) + "ChangeEvent" : object + "ChangeEvent"
    }

    static func avroType(of type: OrgFieldType) -> AvroType {
        switch type {
        case .boolean: .boolean
        case .int: .int
        case .double, .currency, .percent: .double
        case .datetime: .logical(AvroLogicalType(name: "timestamp-millis"), .long)
        case .date: .logical(AvroLogicalType(name: "date"), .int)
        case .id, .reference, .string, .textarea, .email, .phone, .url, .picklist, .multipicklist, .combobox,
            .encryptedString, .base64, .time, .anyType, .json, .address, .location:
            .string
        }
    }

    /// The bitmap string of the real headers' `changedFields` / `nulledFields`: `0x` and the hex
    /// of a number whose bit *i* is set when the event record's field *i* is named (the header is
    /// field 0). Fields not in the schema are left out.
    func bitmap(of names: Set<String>) -> String {
        var words = [UInt64](repeating: 0, count: (fields.count + 1) / 64 + 1)
        for (index, field) in fields.enumerated() where names.contains(field.name) {
            let bit = index + 1
            words[bit / 64] |= 1 << UInt64(bit % 64)
        }
        while words.count > 1, words.last == 0 { words.removeLast() }
        var hex = String(words.last ?? 0, radix: 16, uppercase: true)
        for word in words.dropLast().reversed() {
            let part = String(word, radix: 16, uppercase: true)
            hex += String(repeating: "0", count: 16 - part.count) + part
        }
        return "0x" + hex
    }
}
