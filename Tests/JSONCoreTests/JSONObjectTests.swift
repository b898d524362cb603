import JSONCore
import Testing

struct JSONObjectTests {
    @Test func keepsOrderAndComparesAsAMap() {
        var object: JSONObject = ["b": 1, "a": 2]
        object["c"] = 3
        object["b"] = 4
        #expect(object.keys == ["b", "a", "c"])
        #expect(object.map(\.key) == ["b", "a", "c"])
        #expect(object["b"] == 4)
        object["a"] = nil
        #expect(object.keys == ["b", "c"])
        #expect(object == ["c": 3, "b": 4])
        #expect(Set([JSONValue.object(object), .object(["c": 3, "b": 4])]).count == 1)
    }

    @Test func aDictionaryBecomesAnObjectWithSortedKeys() {
        let value = JSONValue.object(["b": .null, "a": .bool(true)] as [String: JSONValue])
        #expect(value.orderedObjectValue?.keys == ["a", "b"])
        #expect(value.objectValue == ["a": true, "b": .null])
    }
}
