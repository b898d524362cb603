import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing

/// Composite batch and composite with references over HTTP (§5.1, §5.2).
struct CompositeEndpointTests {
    @Test func batchRunsIndependentSubrequestsAndCountsEachCall() async throws {
        try await LocalOrgFixture.with { org in
            let client = org.client
            let id = try await client.create("Account", ["Name": "Acme"])
            let response = try await client.send(
                .POST,
                "composite/batch",
                json: [
                    "batchRequests": [
                        [
                            "method": "PATCH", "url": .string("v59.0/sobjects/Account/\(id)"),
                            "richInput": ["Name": "Acme Corp"],
                        ],
                        ["method": "GET", "url": .string("v59.0/sobjects/Account/\(id)?fields=Name")],
                        ["method": "GET", "url": "v59.0/query?q=SELECT+Id+FRM+Account"],
                    ]
                ]
            )
            #expect(response.status == 200)
            let body = try #require(try response.json().objectValue)
            #expect(body["hasErrors"] == true)
            let results = try #require(body["results"]?.arrayValue?.compactMap { $0.objectValue })
            try #require(results.count == 3)
            #expect(results.map { $0["statusCode"] } == [204, 200, 400])
            #expect(results[0]["result"] == .null)
            #expect(results[1]["result"]?.objectValue?["Name"] == "Acme Corp")
            #expect(results[2]["result"]?.arrayValue?.first?.objectValue?["errorCode"] == "MALFORMED_QUERY")
            // 1 create + 3 batch subrequests.
            #expect(response.headers.first(name: "Sforce-Limit-Info") == "api-usage=4/100000")
        }
    }

    @Test func batchHaltOnErrorAnswers412ForLaterSubrequests() async throws {
        try await LocalOrgFixture.with { org in
            let response = try await org.client.send(
                .POST,
                "composite/batch",
                json: [
                    "haltOnError": true,
                    "batchRequests": [
                        ["method": "GET", "url": "v59.0/sobjects/Account/001000000000000AAA"],
                        ["method": "GET", "url": "v59.0/limits"],
                    ],
                ]
            )
            let results = try #require(
                try response.json().objectValue?["results"]?.arrayValue?.compactMap { $0.objectValue }
            )
            try #require(results.count == 2)
            #expect(results.map { $0["statusCode"] } == [404, 412])
            #expect(results[1]["result"]?.arrayValue?.first?.objectValue?["errorCode"] == "BATCH_PROCESSING_HALTED")
        }
    }

    @Test func batchWithMoreThan25SubrequestsIs400() async throws {
        try await LocalOrgFixture.with { org in
            let requests = OrgJSONValue.array(Array(repeating: ["method": "GET", "url": "v59.0/limits"], count: 26))
            let response = try await org.client.send(.POST, "composite/batch", json: ["batchRequests": requests])
            #expect(response.status == 400)
        }
    }

    @Test func compositeResolvesReferencesBetweenSubrequests() async throws {
        try await LocalOrgFixture.with { org in
            let response = try await org.client.send(
                .POST,
                "composite",
                json: [
                    "allOrNone": true,
                    "compositeRequest": [
                        [
                            "method": "POST", "url": "/services/data/v59.0/sobjects/Account", "referenceId": "refAcct",
                            "body": ["Name": "Acme"],
                        ],
                        [
                            "method": "POST", "url": "/services/data/v59.0/sobjects/Contact", "referenceId": "refCon",
                            "body": ["LastName": "Doe", "AccountId": "@{refAcct.id}"],
                        ],
                        [
                            "method": "GET", "referenceId": "refQ",
                            "url":
                                "/services/data/v59.0/query?q=SELECT+Id,AccountId+FROM+Contact+WHERE+AccountId='@{refAcct.id}'",
                        ],
                        [
                            "method": "GET", "referenceId": "refRow",
                            "url": "/services/data/v59.0/sobjects/Contact/@{refQ.records[0].Id}?fields=LastName",
                        ],
                    ],
                ]
            )
            #expect(response.status == 200)
            let results = try #require(
                try response.json().objectValue?["compositeResponse"]?.arrayValue?.compactMap { $0.objectValue }
            )
            try #require(results.count == 4)
            #expect(results.map { $0["httpStatusCode"] } == [201, 201, 200, 200])
            #expect(results.map { $0["referenceId"] } == ["refAcct", "refCon", "refQ", "refRow"])
            let accountID = try #require(results[0]["body"]?.objectValue?["id"]?.stringValue)
            #expect(
                results[0]["httpHeaders"]?.objectValue?["Location"]
                    == .string("/services/data/v59.0/sobjects/Account/\(accountID)")
            )
            #expect(results[2]["body"]?.objectValue?["totalSize"] == 1)
            #expect(results[3]["body"]?.objectValue?["LastName"] == "Doe")
        }
    }

    @Test func compositeAllOrNoneRollsEverythingBack() async throws {
        try await LocalOrgFixture.with { org in
            let client = org.client
            let response = try await client.send(
                .POST,
                "composite",
                json: [
                    "allOrNone": true,
                    "compositeRequest": [
                        [
                            "method": "POST", "url": "/services/data/v59.0/sobjects/Account", "referenceId": "ok",
                            "body": ["Name": "Rolled back"],
                        ],
                        [
                            "method": "POST", "url": "/services/data/v59.0/sobjects/Contact", "referenceId": "bad",
                            "body": ["FirstName": "No last name"],
                        ],
                        ["method": "GET", "url": "/services/data/v59.0/limits", "referenceId": "after"],
                    ],
                ]
            )
            #expect(response.status == 200)
            let results = try #require(
                try response.json().objectValue?["compositeResponse"]?.arrayValue?.compactMap { $0.objectValue }
            )
            try #require(results.count == 3)
            #expect(results.map { $0["httpStatusCode"] } == [400, 400, 400])
            #expect(results[0]["body"]?.arrayValue?.first?.objectValue?["errorCode"] == "PROCESSING_HALTED")
            #expect(results[1]["body"]?.arrayValue?.first?.objectValue?["errorCode"] == "REQUIRED_FIELD_MISSING")
            #expect(results[2]["body"]?.arrayValue?.first?.objectValue?["errorCode"] == "PROCESSING_HALTED")
            let count = try await client.send(.GET, "query?q=SELECT+Id+FROM+Account")
            #expect(try count.json().objectValue?["totalSize"] == 0)
        }
    }

    @Test func compositeWithoutAllOrNoneSkipsOnlyDependents() async throws {
        try await LocalOrgFixture.with { org in
            let client = org.client
            let response = try await client.send(
                .POST,
                "composite",
                json: [
                    "compositeRequest": [
                        [
                            "method": "POST", "url": "/services/data/v59.0/sobjects/Account", "referenceId": "bad",
                            "body": ["Industry": "No name"],
                        ],
                        [
                            "method": "POST", "url": "/services/data/v59.0/sobjects/Contact",
                            "referenceId": "dependent",
                            "body": ["LastName": "Doe", "AccountId": "@{bad.id}"],
                        ],
                        [
                            "method": "POST", "url": "/services/data/v59.0/sobjects/Account",
                            "referenceId": "independent",
                            "body": ["Name": "Kept"],
                        ],
                    ]
                ]
            )
            let results = try #require(
                try response.json().objectValue?["compositeResponse"]?.arrayValue?.compactMap { $0.objectValue }
            )
            try #require(results.count == 3)
            #expect(results.map { $0["httpStatusCode"] } == [400, 400, 201])
            #expect(results[1]["body"]?.arrayValue?.first?.objectValue?["errorCode"] == "PROCESSING_HALTED")
            let count = try await client.send(.GET, "query?q=SELECT+Name+FROM+Account")
            #expect(try count.json().objectValue?["totalSize"] == 1)
            // The whole composite request counts as one API call.
            #expect(count.headers.first(name: "Sforce-Limit-Info") == "api-usage=2/100000")
        }
    }

    @Test func compositeWithDuplicateReferenceIDsIs400() async throws {
        try await LocalOrgFixture.with { org in
            let response = try await org.client.send(
                .POST,
                "composite",
                json: [
                    "compositeRequest": [
                        ["method": "GET", "url": "/services/data/v59.0/limits", "referenceId": "same"],
                        ["method": "GET", "url": "/services/data/v59.0/limits", "referenceId": "same"],
                    ]
                ]
            )
            #expect(response.status == 400)
        }
    }
}
