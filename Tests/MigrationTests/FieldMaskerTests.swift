import Foundation
import OrgClient
import SyncConfig
import Testing

@testable import Migration

/// Masks: deterministic for a secret, nothing of the source value kept, values of the right form
/// and length, unique where the source values were unique.
struct FieldMaskerTests {
    private let secret = Data("a test secret of enough bytes".utf8)

    private func masker(_ masks: [String: FieldMask], lengths: [String: Int] = [:], secret: Data? = nil) -> FieldMasker
    {
        FieldMasker(secret: secret ?? self.secret, masks: masks, lengths: lengths)
    }

    @Test func theSameValueMasksTheSameWayForOneSecretAndOtherwiseForAnother() {
        let record: [String: OrgValue] = ["Email": "Ada.Lovelace@analytical.example.com", "LastName": "Lovelace"]
        let first = masker(["email": .email, "LastName": .lastName]).mask(record)
        let again = masker(["EMAIL": .email, "lastname": .lastName]).mask(record)
        let other = masker(["Email": .email, "LastName": .lastName], secret: Data("another secret, 16+ bytes".utf8))
            .mask(record)
        #expect(first == again)
        #expect(first["Email"] != other["Email"])
        #expect(first["LastName"] != record["LastName"])
        // Emails are compared ignoring case, as mail systems do.
        #expect(
            masker(["Email": .email]).mask(["Email": "ADA.LOVELACE@ANALYTICAL.EXAMPLE.COM"])["Email"] == first["Email"]
        )
    }

    @Test func noPartOfTheSourceValueSurvives() throws {
        let source = "grace.hopper@navy.example.org"
        let masked = try #require(masker(["Email": .email]).mask(["Email": .string(source)])["Email"]?.stringValue)
        for part in ["grace", "hopper", "navy", "example", "org"] { #expect(!masked.contains(part)) }
        #expect(masked.hasSuffix("@masked.invalid"))
        let hashed = try #require(masker(["SSN__c": .hash]).mask(["SSN__c": "078-05-1120"])["SSN__c"]?.stringValue)
        #expect(!hashed.contains("078") && !hashed.contains("1120"))
        #expect(hashed.count == 64 && hashed.allSatisfy(\.isHexDigit))
    }

    @Test func emailsAreWellFormedAndUniqueWhereTheSourceWas() {
        let masker = masker(["Email": .email])
        var seen: Set<String> = []
        for index in 0..<20_000 {
            let masked = masker.mask(["Email": .string("person\(index)@corp.example.com")])["Email"]?.stringValue ?? ""
            #expect(masked.wholeMatch(of: /u[0-9a-f]{24}@masked\.invalid/) != nil)
            seen.insert(masked)
        }
        #expect(seen.count == 20_000)
    }

    @Test func valuesFitTheTargetField() throws {
        let masker = masker(
            ["Email": .email, "Code__c": .hash, "Title": .fixed("Redacted by policy")],
            lengths: ["email": 30, "code__c": 10, "title": 8]
        )
        let masked = masker.mask(["Email": "someone@example.com", "Code__c": "X-1", "Title": "CEO"])
        let email = try #require(masked["Email"]?.stringValue)
        #expect(email.count <= 30 && email.hasSuffix("@masked.invalid") && email.hasPrefix("u"))
        #expect(masked["Code__c"]?.stringValue?.count == 10)
        #expect(masked["Title"]?.stringValue == "Redacted")
    }

    @Test func phonesNamesNullAndFixedHaveTheirForms() throws {
        let masked = masker([
            "Phone": .phone, "FirstName": .firstName, "Description": .null, "Title": .fixed("Redacted"),
        ]).mask([
            "Phone": "+44 20 7946 0958", "FirstName": "Grace", "Description": "VIP", "Title": "CEO", "Other": "kept",
        ])
        let phone = try #require(masked["Phone"]?.stringValue)
        #expect(phone.wholeMatch(of: /\([2-9][0-9]{2}\) 555-01[0-9]{2}/) != nil)
        #expect(FieldMasker.firstNames.contains(masked["FirstName"]?.stringValue ?? ""))
        #expect(masked["Description"] == .null)
        #expect(masked["Title"] == "Redacted")
        #expect(masked["Other"] == "kept")
    }

    @Test func nullAndEmptyValuesAreKept() {
        let masked = masker(["Email": .email, "Phone": .phone]).mask(["Email": .null, "Phone": ""])
        #expect(masked["Email"] == .null)
        #expect(masked["Phone"] == "")
    }

    @Test func aSecretFileMustHoldSixteenBytes() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let short = directory.appendingPathComponent("short.key")
        try Data("too short\n".utf8).write(to: short)
        #expect(throws: MigrationError.self) { try MigrationOptions.maskSecret(fromFile: short.path) }
        let good = directory.appendingPathComponent("good.key")
        try Data("0123456789abcdef0123\n".utf8).write(to: good)
        #expect(try MigrationOptions.maskSecret(fromFile: good.path) == Data("0123456789abcdef0123".utf8))
        #expect(throws: MigrationError.self) {
            try MigrationOptions.maskSecret(fromFile: directory.appendingPathComponent("missing").path)
        }
    }
}
