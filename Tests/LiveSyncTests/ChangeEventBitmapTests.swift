import Avro
import LiveSync
import Testing

/// The ChangeEventHeader's bitmaps expanded into field names against the schema.
struct ChangeEventBitmapTests {
    /// An event record shaped like the org's: the header first, then fields; `Name` a compound
    /// field (a nested record) at index 3.
    private static let schemaJSON = """
        {"type": "record", "name": "AccountChangeEvent", "namespace": "com.sforce.eventbus", "fields": [
          {"name": "ChangeEventHeader", "type": {"type": "record", "name": "ChangeEventHeader", "fields": [
            {"name": "entityName", "type": "string"},
            {"name": "recordIds", "type": {"type": "array", "items": "string"}},
            {"name": "changeType", "type": {"type": "enum", "name": "ChangeType", "symbols":
              ["CREATE", "UPDATE", "DELETE", "UNDELETE", "GAP_CREATE", "GAP_UPDATE", "GAP_DELETE", "GAP_UNDELETE",
               "GAP_OVERFLOW", "SNAPSHOT"]}},
            {"name": "changeOrigin", "type": "string"},
            {"name": "transactionKey", "type": "string"},
            {"name": "sequenceNumber", "type": "int"},
            {"name": "commitTimestamp", "type": "long"},
            {"name": "commitNumber", "type": "long"},
            {"name": "commitUser", "type": "string"},
            {"name": "nulledFields", "type": {"type": "array", "items": "string"}},
            {"name": "diffFields", "type": {"type": "array", "items": "string"}},
            {"name": "changedFields", "type": {"type": "array", "items": "string"}}]}},
          {"name": "Industry", "type": ["null", "string"], "default": null},
          {"name": "Phone", "type": ["null", "string"], "default": null},
          {"name": "Name", "type": ["null", {"type": "record", "name": "Name", "fields": [
            {"name": "FirstName", "type": ["null", "string"], "default": null},
            {"name": "LastName", "type": ["null", "string"], "default": null}]}], "default": null},
          {"name": "Description", "type": ["null", "string"], "default": null}
        ]}
        """

    private let schema: AvroSchema
    private var record: AvroRecord { schema.record() ?? AvroRecord(fullName: "", fields: []) }

    init() throws { schema = try AvroSchema(jsonText: Self.schemaJSON) }

    @Test func bitIOfTheHexNumberIsFieldI() {
        // 0x12 = bits 1 and 4: Industry and Description; the header (bit 0) is never a field of the record's data.
        #expect(ChangeEventBitmap.fieldNames(["0x12"], in: record, schema: schema) == ["Industry", "Description"])
        #expect(ChangeEventBitmap.fieldNames(["0x4"], in: record, schema: schema) == ["Phone"])
    }

    @Test func nestedCompoundFieldsAreNamedParentDotChild() {
        // "3-0x2": field 1 of the record at top-level index 3 (Name.LastName).
        #expect(
            ChangeEventBitmap.fieldNames(["0x2", "3-0x2"], in: record, schema: schema) == ["Industry", "Name.LastName"]
        )
    }

    @Test func bitsPastTheSchemaAndMalformedElementsAreIgnored() {
        #expect(
            ChangeEventBitmap.fieldNames(["0x100002", "zz", "0xG1", "9-0x1"], in: record, schema: schema) == [
                "Industry"
            ]
        )
        #expect(ChangeEventBitmap.fieldNames([], in: record, schema: schema).isEmpty)
    }

    @Test func wideBitmapsSpanManyHexDigits() {
        // Field 70 of a 72-field record: bit 70 is hex digit 17 from the right (70 = 17 * 4 + 2), value 4.
        var fields = [AvroField(name: "ChangeEventHeader", type: .string)]
        for index in 1..<72 { fields.append(AvroField(name: "F\(index)", type: .string)) }
        let wide = AvroRecord(fullName: "Wide", fields: fields)
        let bitmap = "0x4" + String(repeating: "0", count: 16) + "2"
        #expect(ChangeEventBitmap.fieldNames([bitmap], in: wide, schema: schema) == ["F1", "F70"])
    }

    @Test func aPayloadDecodesIntoATypedEvent() throws {
        let header: [String: AvroValue] = [
            "entityName": .string("Account"), "recordIds": .array([.string("001000000000001AAA")]),
            "changeType": .enumeration("UPDATE"), "changeOrigin": .string(""), "transactionKey": .string("t1"),
            "sequenceNumber": .int(1), "commitTimestamp": .long(1_767_225_600_000), "commitNumber": .long(1),
            "commitUser": .string("005000000000001AAA"), "nulledFields": .array([.string("0x4")]),
            "diffFields": .array([]), "changedFields": .array([.string("0x6")]),
        ]
        let payload = try AvroEncoder.encode(
            .record([
                "ChangeEventHeader": .record(header), "Industry": .union(branch: 1, .string("Energy")),
                "Phone": .union(branch: 0, .null), "Name": .union(branch: 0, .null),
                "Description": .union(branch: 0, .null),
            ]),
            as: schema
        )
        let event = try ChangeEventDecoder.decode(payload, schema: schema, replayID: [1, 2])
        #expect(event.entity == "Account")
        #expect(event.changeType == .update)
        #expect(event.recordIDs == ["001000000000001AAA"])
        #expect(event.changedFields == ["Industry", "Phone"])
        #expect(event.nulledFields == ["Phone"])
        #expect(event.commitTimestamp == 1_767_225_600_000)
        #expect(event.replayID == [1, 2])
        #expect(throws: LiveSyncError.self) { try ChangeEventDecoder.decode([0xFF], schema: schema, replayID: []) }
    }
}
