import Testing

@testable import OrgClient

/// `PathComponents.checkRecordID`: what may go into a URL path as a record id.
struct RecordIDCheckTests {
    @Test(arguments: ["001000000000001", "001000000000001AAA", "a0Bxx0000012345EAA", "a0bxx0000012345eaa"])
    func fifteenOrEighteenASCIILettersAndDigitsAreRecordIDs(id: String) throws {
        #expect(try PathComponents.checkRecordID(id) == id)
    }

    @Test(arguments: [
        "", "00100000000001", "0010000000000011", "001000000000001AAAA", "001000000000/01", "00100000000000é",
        "001000000000001AAé", "001000000000 01", "001000000000001%2F", "00100000000000١", "0010000000000é",
        "0010000000000١", "00100000000000_", "00100000000000.",
    ])
    func anythingElseIsRefusedWithTheReason(id: String) {
        let error = #expect(throws: OrgClientError.self) { try PathComponents.checkRecordID(id) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message == "'\(id)' is not a record ID; IDs have 15 or 18 letters and digits")
    }

    @Test(arguments: ["a0Bxx0000012345zZ9", "001000000000001AAB", "001000000000001AA6"])
    func eighteenCharactersWithoutAChecksumAreRefusedWithTheReason(id: String) {
        let error = #expect(throws: OrgClientError.self) { try PathComponents.checkRecordID(id) }
        #expect(error?.code == .invalidArgument)
        #expect(
            error?.message
                == "'\(id)' is not a record ID; the last 3 of its 18 characters are not the checksum of the first 15; "
                + "copy the whole id from Salesforce"
        )
    }
}

/// `PathComponents.checkName`: what may go into a URL path as an sObject or field API name.
struct APINameCheckTests {
    @Test(arguments: ["Account", "Invoice__c", "ns__Ext_Id__c", "A1", String(repeating: "a", count: 255)])
    func asciiLettersDigitsAndUnderscoresAreNames(name: String) throws {
        #expect(try PathComponents.checkName(name, kind: "sObject") == name)
    }

    @Test(arguments: [
        "", "Accoünt", "Account/1", "Account Name", "Account.Name", "Ac%2F", String(repeating: "a", count: 256),
    ])
    func anythingElseIsRefused(name: String) {
        let error = #expect(throws: OrgClientError.self) { try PathComponents.checkName(name, kind: "sObject") }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message == "'\(name)' is not a valid sObject name; use its API name, for example 'Account'")
    }
}
