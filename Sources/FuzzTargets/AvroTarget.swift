import Avro

/// The Avro binary decoder and encoder (the Pub/Sub API's change events): the first byte picks one
/// of a few schemas, the rest is decoded as one datum of it; what decodes is encoded, decoded again
/// and encoded again, and the two encodings must be equal (the encoder's output is canonical, so a
/// second round trip changes nothing). The whole input is also read as a schema's JSON text.
enum AvroTarget {
    static let schemas: [AvroSchema] = [
        // A change event as the Pub/Sub API shapes one: a header record, optional fields.
        parse(
            #"""
            {"type": "record", "name": "AccountChangeEvent", "namespace": "com.sforce.eventbus", "fields": [
              {"name": "ChangeEventHeader", "type": {"type": "record", "name": "ChangeEventHeader", "fields": [
                {"name": "entityName", "type": "string"},
                {"name": "recordIds", "type": {"type": "array", "items": "string"}},
                {"name": "changeType", "type": {"type": "enum", "name": "ChangeType",
                  "symbols": ["CREATE", "UPDATE", "DELETE", "UNDELETE", "GAP_CREATE"]}},
                {"name": "sequenceNumber", "type": "int"},
                {"name": "commitTimestamp", "type": "long"},
                {"name": "changedFields", "type": {"type": "array", "items": "string"}}]}},
              {"name": "Name", "type": ["null", "string"], "default": null},
              {"name": "AnnualRevenue", "type": ["null", "double"], "default": null},
              {"name": "IsActive", "type": ["null", "boolean"], "default": null},
              {"name": "Rating", "type": ["null", "float", "long", "bytes"], "default": null}]}
            """#
        ),
        // Recursion through a union.
        parse(
            #"{"type": "record", "name": "L", "fields": [{"name": "v", "type": "long"}, {"name": "n", "type": ["null", "L"]}]}"#
        ),
        // Maps, fixed, nested arrays, zero-width items.
        parse(
            #"""
            {"type": "record", "name": "M", "fields": [
              {"name": "m", "type": {"type": "map", "values": {"type": "array", "items": ["null", "int"]}}},
              {"name": "f", "type": {"type": "fixed", "name": "F", "size": 3}},
              {"name": "z", "type": {"type": "array", "items": "null"}}]}
            """#
        ),
    ]

    private static func parse(_ text: String) -> AvroSchema {
        do {
            return try AvroSchema(jsonText: text)
        } catch {
            preconditionFailure("a built-in Avro fuzz schema does not parse: \(error)")
        }
    }

    static func run(_ bytes: [UInt8]) async {
        _ = try? AvroSchema(jsonText: String(decoding: bytes, as: UTF8.self))
        guard let selector = bytes.first else { return }
        let schema = schemas[Int(selector) % schemas.count]
        guard let value = try? AvroDecoder.decode(Array(bytes.dropFirst()), as: schema) else { return }
        do {
            let encoded = try AvroEncoder.encode(value, as: schema)
            let again = try AvroDecoder.decode(encoded, as: schema)
            let reencoded = try AvroEncoder.encode(again, as: schema)
            precondition(reencoded == encoded, "a second Avro round trip changed the bytes")
        } catch {
            preconditionFailure("a decoded Avro value did not round-trip: \(error)")
        }
    }
}
