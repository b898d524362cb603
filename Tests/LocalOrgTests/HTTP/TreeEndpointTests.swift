import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing

/// sObject Tree (`POST /composite/tree/{object}`) and `If-Modified-Since` on describes.
struct TreeEndpointTests {
    private static func record(_ type: String, _ reference: String, _ fields: OrgJSONObject) -> OrgJSONValue {
        var record = fields
        record["attributes"] = ["type": .string(type), "referenceId": .string(reference)]
        return .object(record)
    }

    @Test func aTreeCreatesParentsThenChildrenAndLinksThem() async throws {
        try await LocalOrgFixture.with { org in
            let contacts: OrgJSONValue = [
                "records": [
                    Self.record("Contact", "ref2", ["LastName": "Smith", "Email": "smith@example.com"]),
                    Self.record("Contact", "ref3", ["LastName": "Evans"]),
                ]
            ]
            let response = try await org.client.send(
                .POST,
                "composite/tree/Account",
                json: [
                    "records": [
                        Self.record("Account", "ref1", ["Name": "SampleAccount", "Contacts": contacts]),
                        Self.record("Account", "ref4", ["Name": "SampleAccount2"]),
                    ]
                ]
            )
            #expect(response.status == 201, "\(response.text)")
            let body = try #require(try response.json().objectValue)
            #expect(body["hasErrors"] == false)
            let results = try #require(body["results"]?.arrayValue?.compactMap { $0.objectValue })
            #expect(results.map { $0["referenceId"] } == ["ref1", "ref4", "ref2", "ref3"])
            let parent = try #require(results[0]["id"]?.stringValue)
            #expect(parent.hasPrefix("001"))
            let page = try org.database.query(
                "SELECT LastName FROM Contact WHERE AccountId = '\(parent)'",
                apiVersion: "59.0"
            )
            #expect(page.totalSize == 2)
        }
    }

    @Test func aFailingRecordRollsBackTheWholeTree() async throws {
        try await LocalOrgFixture.with { org in
            let response = try await org.client.send(
                .POST,
                "composite/tree/Account",
                json: [
                    "records": [
                        Self.record(
                            "Account",
                            "ref1",
                            [
                                "Name": "A",
                                "Contacts": [
                                    "records": [Self.record("Contact", "ref2", ["LastName": "X", "Email": "123"])]
                                ],
                            ]
                        )
                    ]
                ]
            )
            #expect(response.status == 400)
            let body = try #require(try response.json().objectValue)
            #expect(body["hasErrors"] == true)
            let result = try #require(body["results"]?.arrayValue?.first?.objectValue)
            #expect(result["referenceId"] == "ref2")
            let error = try #require(result["errors"]?.arrayValue?.first?.objectValue)
            #expect(error["statusCode"] == "INVALID_EMAIL_ADDRESS")
            #expect(error["fields"] == ["Email"])
            #expect(try org.database.query("SELECT Id FROM Account", apiVersion: "59.0").totalSize == 0)
        }
    }

    @Test func treesPastTheLimitsOrOfTheWrongShapeAreRefused() async throws {
        try await LocalOrgFixture.with { org in
            let many = (0..<201).map { Self.record("Account", "r\($0)", ["Name": .string("N\($0)")]) }
            let tooMany = try await org.client.send(.POST, "composite/tree/Account", json: ["records": .array(many)])
            #expect(tooMany.status == 400)
            let wrongType = try await org.client.send(
                .POST,
                "composite/tree/Account",
                json: ["records": [Self.record("Contact", "r1", ["LastName": "X"])]]
            )
            #expect(wrongType.status == 400)
            let duplicate = try await org.client.send(
                .POST,
                "composite/tree/Account",
                json: [
                    "records": [
                        Self.record("Account", "r1", ["Name": "A"]), Self.record("Account", "R1", ["Name": "B"]),
                    ]
                ]
            )
            #expect(duplicate.status == 400)
            #expect(try org.database.query("SELECT Id FROM Account", apiVersion: "59.0").totalSize == 0)
        }
    }

    @Test func describeAnswers304WhenTheSchemaIsUnchangedSinceIfModifiedSince() async throws {
        try await LocalOrgFixture.with { org in
            let first = try await org.client.send(.GET, "sobjects/Account/describe")
            #expect(first.status == 200)
            let lastModified = try #require(first.headers["Last-Modified"].first)
            let unchanged = try await org.client.send(
                .GET,
                "sobjects/Account/describe",
                headers: [("If-Modified-Since", lastModified)]
            )
            #expect(unchanged.status == 304)
            #expect(unchanged.body.isEmpty)
            let older = try await org.client.send(
                .GET,
                "sobjects/Account/describe",
                headers: [("If-Modified-Since", "Sat, 01 Jan 2000 00:00:00 GMT")]
            )
            #expect(older.status == 200)
            #expect(try older.json().objectValue?["name"] == "Account")
        }
    }
}
