import Avro
import JSONCore
import Testing

/// Schema parsing (Avro 1.11 specification, "Schema Declaration", "Names", "Logical Types").
@Suite struct AvroSchemaTests {
    /// The example of "Names": null, explicit, full-name and inherited namespaces.
    @Test func namesAndNamespacesOfTheSpecification() throws {
        let schema = try AvroSchema(
            jsonText: #"""
                {"type": "record", "name": "Example", "fields": [
                  {"name": "inheritNull", "type": {"type": "enum", "name": "Simple", "symbols": ["a", "b"]}},
                  {"name": "explicitNamespace",
                   "type": {"type": "fixed", "name": "Simple", "namespace": "explicit", "size": 12}},
                  {"name": "fullName", "type": {"type": "record", "name": "a.full.Name", "namespace": "ignored",
                    "fields": [{"name": "inheritNamespace",
                      "type": {"type": "enum", "name": "Understanding", "symbols": ["d", "e"]}}]}},
                  {"name": "id", "type": "long"},
                  {"name": "previous", "type": ["null", "Example"]}]}
                """#
        )
        #expect(
            Set(schema.namedTypes.keys) == [
                "Example", "Simple", "explicit.Simple", "a.full.Name", "a.full.Understanding",
            ]
        )
        let example = try #require(schema.record())
        #expect(example.field("inheritNull")?.type == .named("Simple"))
        #expect(example.field("explicitNamespace")?.type == .named("explicit.Simple"))
        #expect(example.field("previous")?.type == .union([.null, .named("Example")]))
        let inner = try #require(schema.record("a.full.Name"))
        #expect(inner.field("inheritNamespace")?.type == .named("a.full.Understanding"))
    }

    /// A name without a dot is looked up in the enclosing namespace first.
    @Test func referencesResolveInTheEnclosingNamespace() throws {
        let schema = try AvroSchema(
            jsonText: #"""
                {"type": "record", "name": "AccountChangeEvent", "namespace": "com.sforce.eventbus", "fields": [
                  {"name": "ChangeEventHeader", "type": {"type": "record", "name": "ChangeEventHeader", "fields": [
                    {"name": "changeType", "type": {"type": "enum", "name": "ChangeType", "symbols": ["CREATE", "UPDATE"]}}]}},
                  {"name": "Previous", "type": ["null", "ChangeEventHeader", "com.sforce.eventbus.ChangeType"]}]}
                """#
        )
        let root = try #require(schema.record())
        #expect(root.fullName == "com.sforce.eventbus.AccountChangeEvent")
        #expect(
            root.field("Previous")?.type
                == .union([
                    .null, .named("com.sforce.eventbus.ChangeEventHeader"), .named("com.sforce.eventbus.ChangeType"),
                ])
        )
    }

    /// "Logical Types": kept as annotations on the underlying type, which is what is encoded.
    @Test func logicalTypesAreAnnotations() throws {
        let schema = try AvroSchema(
            jsonText: #"""
                {"type": "record", "name": "R", "fields": [
                  {"name": "when", "type": {"type": "long", "logicalType": "timestamp-millis"}},
                  {"name": "amount", "type": {"type": "bytes", "logicalType": "decimal", "precision": 4, "scale": 2}}]}
                """#
        )
        let record = try #require(schema.record())
        #expect(record.field("when")?.type == .logical(AvroLogicalType(name: "timestamp-millis"), .long))
        #expect(
            record.field("amount")?.type
                == .logical(AvroLogicalType(name: "decimal", precision: 4, scale: 2), .bytes)
        )
        let value = AvroValue.record(["when": .long(1_725_357_365_000), "amount": .bytes([0x04, 0xD2])])
        let bytes = try AvroEncoder.encode(value, as: schema)
        #expect(try AvroDecoder.decode(bytes, as: schema) == value)
    }

    /// A schema written as JSON reads back as the same schema (named types written once).
    @Test func jsonTextRoundTrips() throws {
        let text = #"""
            {"type": "record", "name": "L", "namespace": "n", "doc": "a list", "fields": [
              {"name": "v", "type": {"type": "long", "logicalType": "timestamp-millis"}, "doc": "d"},
              {"name": "e", "type": {"type": "enum", "name": "E", "symbols": ["A"], "default": "A"}},
              {"name": "f", "type": {"type": "fixed", "name": "F", "size": 2}},
              {"name": "m", "type": {"type": "map", "values": {"type": "array", "items": "E"}}},
              {"name": "next", "type": ["null", "L"], "default": null}]}
            """#
        let schema = try AvroSchema(jsonText: text)
        let again = try AvroSchema(jsonText: schema.jsonText)
        #expect(again == schema)
        #expect(schema.jsonText.split(separator: "\"symbols\"", omittingEmptySubsequences: false).count == 2)
    }

    private func failure(_ text: String) -> AvroError? {
        do {
            _ = try AvroSchema(jsonText: text)
            return nil
        } catch {
            return error
        }
    }

    @Test func invalidSchemasSayWhatAndWhere() throws {
        let unknown = try #require(
            failure(#"{"type": "record", "name": "R", "fields": [{"name": "a", "type": "Nope"}]}"#)
        )
        #expect(unknown.code == .invalidSchema)
        #expect(unknown.path == "a")
        #expect(unknown.message.contains("'Nope'"))
        #expect(failure(#"{"type": "record", "name": "R"}"#)?.message.contains("'fields'") == true)
        #expect(failure(#"["null", "null"]"#)?.code == .invalidSchema)
        #expect(failure(#"["null", ["int"]]"#)?.code == .invalidSchema)
        #expect(failure(#"{"type": "enum", "name": "E", "symbols": ["A", "A"]}"#)?.code == .invalidSchema)
        #expect(failure(#"{"type": "enum", "name": "E", "symbols": ["A"], "default": "B"}"#)?.code == .invalidSchema)
        #expect(failure(#"{"type": "fixed", "name": "F", "size": -1}"#)?.code == .invalidSchema)
        #expect(failure(#"{"type": "record", "name": "1R", "fields": []}"#)?.code == .invalidSchema)
        #expect(
            failure(
                #"{"type": "record", "name": "R", "fields": [{"name": "a", "type": "int"}, {"name": "a", "type": "int"}]}"#
            )?
            .code == .invalidSchema
        )
        #expect(failure("{not json")?.code == .invalidSchema)
        #expect(failure("42")?.code == .invalidSchema)
    }

    @Test func deeplyNestedSchemasHitTheDepthLimit() {
        let deep =
            String(repeating: #"{"type": "array", "items": "#, count: 100) + "\"int\""
            + String(repeating: "}", count: 100)
        #expect(failure(deep)?.code == .limitExceeded)
    }
}
