import JSONCore
import Testing

/// `JSONValue.members(of:selecting:)`: an object read only for some top-level members (what sync
/// up reads of each dirty entry).
struct JSONMemberSelectionTests {
    private static let selection = JSONMemberSelection(["Id", "Name", "__local__", "attributes", "Phone"])

    @Test func selectedMembersAreReadWholeAndTheOthersSkipped() throws {
        let json = """
            {"attributes":{"type":"Account","url":"/x"},"Id":"001A","Other":{"Name":"nested"},"Name":"Acme",\
            "Nam":"short","Names":"long","__local__":true,"List":[1,{"Id":"no"}],"Phone":null}
            """
        let fields = try #require(JSONValue.members(of: json, selecting: Self.selection))
        #expect(
            fields == [
                "attributes": ["type": "Account", "url": "/x"], "Id": "001A", "Name": "Acme", "__local__": true,
                "Phone": .null,
            ]
        )
    }

    @Test func anEscapedKeyIsMatchedByWhatItSpells() throws {
        let json = #"{"N\u0061me":"Acme","\u0049d":"001A","Ph\u006Fne2":"x","__local__":false}"#
        let fields = try #require(JSONValue.members(of: json, selecting: Self.selection))
        #expect(fields == ["Name": "Acme", "Id": "001A", "__local__": false])
    }

    @Test func aRepeatedKeyKeepsItsLastValueAsAWholeRead() throws {
        let json = #"{"Name":"first","Id":"001A","Name":"second"}"#
        let fields = try #require(JSONValue.members(of: json, selecting: Self.selection))
        #expect(fields == ["Name": "second", "Id": "001A"])
        var text = json
        let whole = try text.withUTF8 { bytes in
            var reader = JSONReader(bytes: bytes)
            return try reader.readDocument()
        }
        #expect(whole.objectValue?["Name"] == "second")
    }

    /// A fault inside a member that is skipped counts as much as one in a member read (found by
    /// the json-core fuzz target's comparison with the whole read).
    @Test(arguments: [
        #"["Id"]"#, #"{"Id":"001A""#, #"{"Id":}"#, #"{"Id":"001A"} {}"#, "", #"{"Other":[1,}"#,
        #"{"Other":{"x":tru},"Id":"1"}"#, #"{"Other":[1,],"Id":"1"}"#, #"{"Other":{"a":"b\q"}}"#,
        #"{"Other":{"a":1,},"Id":"1"}"#, #"{"Other":[0500]}"#, #"{"Other":{"a" 1}}"#,
    ])
    func aDocumentThatIsNotOneObjectGivesNil(json: String) {
        #expect(JSONValue.members(of: json, selecting: Self.selection) == nil)
    }

    @Test func theSelectionKnowsItsNames() {
        #expect(Self.selection.count == 5)
        #expect(Self.selection.contains("__local__") && !Self.selection.contains("__local_"))
    }
}
