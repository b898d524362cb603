import JSONCore
import OrgClient
import Testing

@testable import SyncEngine

/// `SyncUpRecord.members(of:keeping:)`: a dirty entry is read only for the members sync up uses.
struct SyncUpRecordReadingTests {
    private static let selection = SyncUpRecord.MemberSelection(["Id", "Name", "__local__", "attributes", "Phone"])

    @Test func selectedMembersAreReadWholeAndTheOthersSkipped() throws {
        let json = """
            {"attributes":{"type":"Account","url":"/x"},"Id":"001A","Other":{"Name":"nested"},"Name":"Acme",\
            "Nam":"short","Names":"long","__local__":true,"List":[1,{"Id":"no"}],"Phone":null}
            """
        let fields = try #require(SyncUpRecord.members(of: json, keeping: Self.selection))
        #expect(
            fields == [
                "attributes": ["type": "Account", "url": "/x"], "Id": "001A", "Name": "Acme", "__local__": true,
                "Phone": .null,
            ]
        )
    }

    @Test func anEscapedKeyIsMatchedByWhatItSpells() throws {
        let json = #"{"N\u0061me":"Acme","\u0049d":"001A","Ph\u006Fne2":"x","__local__":false}"#
        let fields = try #require(SyncUpRecord.members(of: json, keeping: Self.selection))
        #expect(fields == ["Name": "Acme", "Id": "001A", "__local__": false])
    }

    @Test(arguments: [#"["Id"]"#, #"{"Id":"001A""#, #"{"Id":}"#, #"{"Id":"001A"} {}"#, ""])
    func aDocumentThatIsNotOneObjectGivesNil(json: String) {
        #expect(SyncUpRecord.members(of: json, keeping: Self.selection) == nil)
    }
}
