import JSONCore
import Testing

@testable import SyncConfig

struct JSONValueTests {
    @Test func serialisationSortsKeysAndEscapes() {
        let value = JSONValue.object([
            "b": .array([.integer(1), .number(2.5), .null, .bool(true)]),
            "a": .string("quote \" slash / tab \t"),
            "B": .object([:]),
        ])
        #expect(value.jsonText() == #"{"B":{},"a":"quote \" slash / tab \t","b":[1,2.5,null,true]}"#)
    }

    @Test func prettySerialisationIndentsByTwoSpaces() {
        let value = JSONValue.object(["k": .array([.string("x")])])
        #expect(value.jsonText(pretty: true) == "{\n  \"k\": [\n    \"x\"\n  ]\n}")
    }
}
