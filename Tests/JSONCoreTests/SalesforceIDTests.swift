import JSONCore
import Testing

/// The one record-id rule: 15 or 18 ASCII letters and digits, the 18-character form's suffix a
/// checksum of the first 15 read ignoring case.
struct SalesforceIDTests {
    @Test(arguments: [
        ("a0BA0000000L2ZC", "a0BA0000000L2ZCMA0"),
        ("AAaAAbbBBBCcCCC", "AAaAAbbBBBCcCCC123"),
        ("001000000000001", "001000000000001AAA"),
    ])
    func fifteenCharactersAreCaseSensitiveAndGetTheirChecksum(_ short: String, _ long: String) throws {
        let id = try #require(SalesforceID(short))
        #expect(id.caseSafe == long)
        #expect(id.caseSensitive == short)
        #expect(SalesforceID.checksum(short) == String(long.suffix(3)))
        #expect(SalesforceID(long) == id)
    }

    @Test func fifteenCharactersInAnotherCaseAreAnotherID() throws {
        let upper = try #require(SalesforceID("A0BA0000000L2ZC"))
        #expect(upper != SalesforceID("a0BA0000000L2ZC"))
        #expect(upper.caseSafe == "A0BA0000000L2ZCNA0")
    }

    @Test(arguments: ["a0BA0000000L2ZCMA0", "a0ba0000000l2zcma0", "A0BA0000000L2ZCMA0", "A0ba0000000l2ZcmA0"])
    func eighteenCharactersWithTheRightSuffixAreReadIgnoringCase(_ text: String) throws {
        let id = try #require(SalesforceID(text))
        #expect(id.caseSafe == "a0BA0000000L2ZCMA0")
        #expect(id.keyPrefix == "a0B")
    }

    @Test(arguments: ["001000000000001AAB", "001000000000001BAA", "a0BA0000000L2ZC999", "a0BA0000000L2ZCMA6"])
    func eighteenCharactersWithAWrongSuffixAreNotIDs(_ text: String) {
        #expect(SalesforceID(text) == nil)
        #expect(SalesforceID.problem(with: text) == .checksum)
    }

    @Test(arguments: [
        ("", SalesforceID.Problem.length(0)), ("abc", .length(3)), ("0010000000000011", .length(16)),
        ("001000000000001AAAA", .length(19)), ("00100000000000é", .length(16)),
        ("001Lo0000000zzz!AA", .character(offset: 15)), ("001000000000/01", .character(offset: 12)),
        ("00100000000000_", .character(offset: 14)), ("001000000000 01", .character(offset: 12)),
    ])
    func badLengthsAndCharactersAreNotIDs(_ text: String, _ problem: SalesforceID.Problem) {
        #expect(SalesforceID(text) == nil)
        #expect(SalesforceID.problem(with: text) == problem)
        #expect(problem.description == "IDs have 15 or 18 letters and digits")
    }

    @Test func sameComparesEveryFormOfOneRecord() {
        #expect(SalesforceID.same("00Dxx0000001gPL", "00Dxx0000001gPLEAY"))
        #expect(SalesforceID.same("00dxx0000001gplEAY", "00Dxx0000001gPL"))
        #expect(!SalesforceID.same("00Dxx0000001gPL", "00Dxx0000001gPM"))
        #expect(!SalesforceID.same("00Dxx0000001gpl", "00Dxx0000001gPL"))
        #expect(SalesforceID.same("not an id", "not an id"))
        #expect(!SalesforceID.same("not an id", "00Dxx0000001gPL"))
    }
}
