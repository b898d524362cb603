import Testing

@testable import Migration

struct OrgDifferencesTests {
    @Test func namespacePrefixesMapBothWaysWhenUnambiguous() {
        #expect(NamespaceMapping.counterpart(of: "Region__c", among: ["Name", "acme__Region__c"]) == "acme__Region__c")
        #expect(NamespaceMapping.counterpart(of: "acme__Region__c", among: ["Region__c", "Name"]) == "Region__c")
        #expect(NamespaceMapping.counterpart(of: "ACME__Region__c", among: ["region__c"]) == "region__c")
        // Two packages both define Region__c: ambiguous, not guessed.
        #expect(NamespaceMapping.counterpart(of: "Region__c", among: ["acme__Region__c", "beta__Region__c"]) == nil)
        // Standard fields and names without a counterpart map to nothing.
        #expect(NamespaceMapping.counterpart(of: "Industry", among: ["acme__Industry"]) == nil)
        #expect(NamespaceMapping.counterpart(of: "Score__c", among: ["acme__Region__c"]) == nil)
        // Another namespace is not a counterpart.
        #expect(NamespaceMapping.counterpart(of: "acme__Region__c", among: ["beta__Region__c"]) == nil)
    }

    @Test func ownersMapByUsernameThenSandboxSuffixThenEmailElseTheRunningUser() {
        typealias User = OwnerMapping.User
        let source = [
            User(id: "005S1", username: "ann@acme.com", email: "ann@acme.com"),
            User(id: "005S2", username: "bob@acme.com.uat", email: "bob@acme.com"),
            User(id: "005S3", username: "cat@acme.com", email: "cat@mail.example"),
            User(id: "005S4", username: "dan@acme.com", email: "shared@acme.com"),
            User(id: "005S5", username: "eve@acme.com", email: "eve@acme.com"),
        ]
        let target = [
            User(id: "005T1", username: "ANN@acme.com", email: "x@acme.com"),
            User(id: "005T2", username: "bob@acme.com", email: "other@acme.com"),
            User(id: "005T3", username: "catherine@acme.com", email: "cat@mail.example"),
            User(id: "005T4", username: "d1@acme.com", email: "shared@acme.com"),
            User(id: "005T5", username: "d2@acme.com", email: "shared@acme.com"),
            User(id: "005T6", username: "eve@acme.com.uat", email: "eve@acme.com"),
            User(id: "005T7", username: "eve@acme.com.qa", email: "eve@acme.com"),
        ]
        let mapping = OwnerMapping.mapping(source, to: target, runningUser: "005T0")
        #expect(mapping.map["005S1"] == "005T1")  // username, case-insensitive
        #expect(mapping.map["005S2"] == "005T2")  // sandbox suffix removed
        #expect(mapping.map["005S3"] == "005T3")  // email
        #expect(mapping.map["005S4"] == nil)  // two users share the email: not guessed
        #expect(mapping.map["005S5"] == nil)  // two sandbox variants and the email twice
        #expect(mapping.warnings.count == 2)
        #expect(mapping.warnings.allSatisfy { $0.contains("005T0") })
        #expect(mapping.warnings.contains { $0.contains("dan@acme.com") })
    }

    @Test func sandboxVariantsDifferByOneSuffixAfterTheDomain() {
        #expect(OwnerMapping.isSandboxVariant("user@acme.com.uat", of: "user@acme.com"))
        #expect(OwnerMapping.isSandboxVariant("user@acme.com", of: "user@acme.com.uat"))
        #expect(!OwnerMapping.isSandboxVariant("user@acme.com.uat.x", of: "user@acme.com"))
        #expect(!OwnerMapping.isSandboxVariant("user.x@acme.com", of: "user@acme.com"))
        #expect(!OwnerMapping.isSandboxVariant("user@acme.com", of: "user@acme.com"))
    }
}
