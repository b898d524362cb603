import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing

/// `GET /limits/recordCount`, which CumulusCI asks before each step to choose REST or Bulk.
struct RecordCountEndpointTests {
    @Test func countsTheLiveRecordsOfTheNamedObjects() async throws {
        try await LocalOrgFixture.with { org in
            let client = org.client
            let first = try await client.create("Account", ["Name": "A"])
            _ = try await client.create("Account", ["Name": "B"])
            _ = try await client.create("Contact", ["LastName": "C"])
            #expect(try await client.send(.DELETE, "sobjects/Account/\(first)").status == 204)

            let response = try await client.send(.GET, "limits/recordCount?sObjects=Account,Contact,Nope__c,Lead")
            #expect(response.status == 200)
            #expect(
                try response.json()
                    == [
                        "sObjects": [
                            ["count": 1, "name": "Account"], ["count": 1, "name": "Contact"],
                            ["count": 0, "name": "Lead"],
                        ]
                    ]
            )
        }
    }

    @Test func withoutTheParameterEveryObjectIsCounted() async throws {
        try await LocalOrgFixture.with { org in
            _ = try await org.client.create("Account", ["Name": "A"])
            let response = try await org.client.send(.GET, "limits/recordCount")
            #expect(response.status == 200)
            let entries = try #require(try response.json().objectValue?["sObjects"]?.arrayValue)
            #expect(entries.count == org.database.schema.objects.count)
            #expect(entries.contains(["count": 1, "name": "Account"]))
            let post = try await org.client.send(.POST, "limits/recordCount", json: [:])
            #expect(post.status == 405)
        }
    }
}
