import Foundation
import HTTPTypes
import Testing

@testable import LocalOrg

/// The small parsers the HTTP layer relies on: references, form decoding, paths, versions, headers.
struct HTTPPrimitivesTests {
    @Test func referencesResolveFieldsIndexesAndWholeValues() throws {
        var references = CompositeReferences()
        references.record(["id": "001A", "records": [["Id": "003B", "Amount": 12]]], for: "refAcct")
        #expect(try references.substitute(in: "/sobjects/Account/@{refAcct.id}?x=1") == "/sobjects/Account/001A?x=1")
        #expect(try references.substitute(in: "@{refAcct.records[0].Id}-@{refAcct.id}") == "003B-001A")
        let body: OrgJSONValue = ["AccountId": "@{refAcct.id}", "Amount": "@{refAcct.records[0].Amount}", "Note": "x"]
        #expect(try references.substitute(in: body) == ["AccountId": "001A", "Amount": 12, "Note": "x"])
        #expect(throws: CompositeReferences.Unresolved(reference: "nope.id")) {
            try references.substitute(in: "@{nope.id}")
        }
        #expect(throws: CompositeReferences.Unresolved(reference: "refAcct.records[3].Id")) {
            try references.substitute(in: "@{refAcct.records[3].Id}")
        }
        #expect(CompositeReferences.referenceIDs(in: "a @{one.id} b @{two.records[0].Id}") == ["one", "two"])
    }

    @Test func formDecodingTreatsPlusAsSpaceOnlyInForms() {
        let pairs = FormDecoding.pairs("q=SELECT+Id+FROM+Account+WHERE+Name+%3D+%27A%2BB%27&empty=&flag")
        #expect(pairs.map(\.name) == ["q", "empty", "flag"])
        #expect(pairs[0].value == "SELECT Id FROM Account WHERE Name = 'A+B'")
        #expect(pairs[1].value == "")
        #expect(FormDecoding.pathSegment("a+b%20c") == "a+b c")
        #expect(FormDecoding.component("100%") == "100%")
    }

    @Test(arguments: [
        ("/services/data/v59.0/query/", ["services", "data", "v59.0", "query"]),
        (
            "/services/data/v59.0/sobjects/Account/Ext__c/A%2FB",
            ["services", "data", "v59.0", "sobjects", "Account", "Ext__c", "A/B"]
        ),
        ("/services/data", ["services", "data"]),
    ])
    func pathSegmentsIgnoreOneTrailingSlash(path: String, expected: [String]) {
        #expect(OrgAPI.segments(of: path) == expected)
    }

    @Test func versionsParseAndCompare() {
        #expect(OrgAPI.version("v59.0") == APIVersion(major: 59))
        #expect(OrgAPI.version("59.0") == nil)
        #expect(OrgAPI.version("vlatest") == nil)
        #expect(APIVersion(major: 45) < .upsertReportsCreated)
        #expect(APIVersion(major: 46).description == "46.0")
    }

    @Test func entityTagListsAndHTTPDates() throws {
        #expect(EntityTagList.parse("\"a\", W/\"b\"") == ["a", "b"])
        #expect(EntityTagList.parse("*") == ["*"])
        #expect(EntityTagList.parse("a") == nil)
        let date = try #require(HTTPDate.parse("Tue, 05 Mar 2024 17:04:11 GMT"))
        #expect(date.timeIntervalSince1970 == 1_709_658_251)
        #expect(HTTPDate.format(date) == "Tue, 05 Mar 2024 17:04:11 GMT")
        #expect(HTTPDate.parse("yesterday") == nil)
    }

    @Test func batchSizeHeaderIsParsedAndClamped() {
        func request(_ header: String?) -> OrgHTTPRequest {
            var request = OrgHTTPRequest(method: "GET", target: "/services/data/v59.0/query?q=x")
            if let header, let name = HTTPField.Name("Sforce-Query-Options") { request.headers[name] = header }
            return request
        }
        #expect(OrgAPI.pageSize(for: request(nil), override: nil) == 2000)
        #expect(OrgAPI.pageSize(for: request("batchSize=300"), override: nil) == 300)
        #expect(OrgAPI.pageSize(for: request("foo=1, batchSize=10"), override: nil) == 200)
        #expect(OrgAPI.pageSize(for: request("batchSize=300"), override: 5) == 5)
    }
}
