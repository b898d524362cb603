import LocalOrg
import Testing

struct OrgRecordIDTests {
    @Test(arguments: [
        ("a0BA0000000L2ZC", "a0BA0000000L2ZCMA0"),
        ("AAaAAbbBBBCcCCC", "AAaAAbbBBBCcCCC123"),
    ])
    func caseSafeFormMatchesPublishedVectors(_ short: String, _ long: String) {
        #expect(OrgRecordID.caseSafe(short) == long)
        #expect(OrgRecordID.normalize(short) == long)
        #expect(OrgRecordID.normalize(long) == long)
    }

    @Test func eighteenCharacterIDsMatchIgnoringCase() {
        #expect(OrgRecordID.normalize("a0ba0000000l2zcma0") == "a0BA0000000L2ZCMA0")
        #expect(OrgRecordID.normalize("A0BA0000000L2ZCMA0") == "a0BA0000000L2ZCMA0")
    }

    @Test(arguments: ["", "abc", "001Lo0000000zzz!AA", "0123456789012345", "a0BA0000000L2ZC999"])
    func malformedIDsAreRejected(_ id: String) {
        #expect(OrgRecordID.normalize(id) == nil)
    }
}
