import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing

/// `GET /connect/briefcase/priming-records` over HTTP, and briefcases in the schema file.
struct BriefcaseEndpointTests {
    static let path = "connect/briefcase/priming-records"

    static func schema(contactFilter: String? = nil) -> OrgSchema {
        BriefcaseFixtures.schema(contactFilter: contactFilter)
    }

    /// Every page from the first request on: the pages' bodies, following relay tokens.
    static func pages(_ client: LocalOrgTestClient, first query: String = "") async throws -> [OrgJSONObject] {
        var pages: [OrgJSONObject] = []
        var target = path + query
        while true {
            let response = try await client.send(.GET, target)
            #expect(response.status == 200, "\(response.text)")
            let body = try #require(try response.json().objectValue)
            pages.append(body)
            guard let token = body["relayToken"]?.stringValue else {
                #expect(body["relayToken"] == .null)
                return pages
            }
            #expect(pages.count < 50, "relay tokens never ended")
            target =
                path + "?relayToken=" + (token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? token)
        }
    }

    /// The ids per type over `pages`, in order.
    static func ids(_ pages: [OrgJSONObject], of type: String) -> [String] {
        pages.flatMap { page -> [String] in
            let byRecordType = page["primingRecords"]?.objectValue?[type]?.objectValue
            return byRecordType?["012000000000000AAA"]?.arrayValue?.compactMap { $0.objectValue?["id"]?.stringValue }
                ?? []
        }
    }

    @Test func pagesFollowRelayTokensAcrossRulesAndEndWithANullToken() async throws {
        try await LocalOrgFixture.with(configuration: LocalOrgConfiguration(pageSize: 2), schema: Self.schema()) {
            org in
            let client = org.client
            var energy: [String] = []
            for name in ["A1", "A2", "A3"] {
                energy.append(try await client.create("Account", ["Name": .string(name), "Industry": "Energy"]))
            }
            let other = try await client.create("Account", ["Name": "B1", "Industry": "Banking"])
            var contacts: [String] = []
            for name in ["C1", "C2"] {
                contacts.append(try await client.create("Contact", ["LastName": .string(name)]))
            }

            let pages = try await Self.pages(client)

            // 5 ids, 2 per page: [A1 A2] [A3 C1] [C2].
            #expect(pages.count == 3)
            #expect(Self.ids(pages, of: "Account") == energy.sorted())
            #expect(!Self.ids(pages, of: "Account").contains(other))
            #expect(Self.ids(pages, of: "Contact") == contacts.sorted())
            let record = try #require(
                pages[0]["primingRecords"]?.objectValue?["Account"]?.objectValue?["012000000000000AAA"]?.arrayValue?
                    .first?.objectValue
            )
            let stamp = try #require(record["systemModstamp"]?.stringValue)
            #expect(stamp.count == 24 && stamp.hasSuffix("Z"), "\(stamp)")
            let stats = try #require(pages[0]["stats"]?.objectValue)
            #expect(stats["ruleCountTotal"] == 2)
            #expect(stats["recordCountTotal"] == 5)
            #expect(stats["recordCountServed"] == 2)
            #expect(pages[2]["stats"]?.objectValue?["ruleCountServed"] == 2)
            #expect(pages.allSatisfy { $0["ruleErrors"] == [] })
        }
    }

    @Test func changedAfterTimestampFiltersEveryPageOfTheRelay() async throws {
        let clock = ManualClock()
        try await LocalOrgFixture.with(
            configuration: LocalOrgConfiguration(pageSize: 2),
            schema: Self.schema(),
            databaseConfiguration: OrgDatabase.Configuration(now: { clock.now })
        ) { org in
            let client = org.client
            for name in ["Old 1", "Old 2"] {
                _ = try await client.create("Account", ["Name": .string(name), "Industry": "Energy"])
            }
            clock.advance(seconds: 60)
            var recent: [String] = []
            for name in ["New 1", "New 2", "New 3"] {
                recent.append(try await client.create("Account", ["Name": .string(name), "Industry": "Energy"]))
            }
            let between = ISO8601DateFormatter().string(from: clock.now.addingTimeInterval(-30))

            let pages = try await Self.pages(client, first: "?changedAfterTimestamp=" + between)

            #expect(pages.count == 2)
            #expect(Self.ids(pages, of: "Account") == recent.sorted())
            // Counted on the first page, carried by the relay token to the next.
            #expect(pages.map { $0["stats"]?.objectValue?["recordCountTotal"] } == [3, 3])
        }
    }

    @Test func bothParametersAForeignTokenOrABadDateAreInvalidInput() async throws {
        try await LocalOrgFixture.with(schema: Self.schema()) { org in
            for query in [
                "?relayToken=MTowOjo&changedAfterTimestamp=2024-01-01T00:00:00Z", "?relayToken=not-ours",
                "?changedAfterTimestamp=yesterday",
            ] {
                let response = try await org.client.send(.GET, Self.path + query)
                #expect(response.status == 400, "\(query)")
                #expect(try response.errorCode() == "INVALID_INPUT", "\(query)")
            }
            let post = try await org.client.send(.POST, Self.path, json: [:])
            #expect(post.status == 405)
        }
    }

    @Test func aRuleTheOrgCannotRunIsReportedAndTheOthersAreServed() async throws {
        try await LocalOrgFixture.with(schema: Self.schema(contactFilter: "Nope__c = 'x'")) { org in
            let id = try await org.client.create("Account", ["Name": "A1", "Industry": "Energy"])
            _ = try await org.client.create("Contact", ["LastName": "C1"])

            let pages = try await Self.pages(org.client)

            #expect(pages.count == 1)
            #expect(Self.ids(pages, of: "Account") == [id])
            #expect(Self.ids(pages, of: "Contact").isEmpty)
            #expect(pages[0]["ruleErrors"] == [["ruleId": "FieldSales:2"]])
        }
    }

    @Test func anOrgWithoutBriefcasesPrimesNothing() async throws {
        try await LocalOrgFixture.with { org in
            _ = try await org.client.create("Account", ["Name": "A1"])
            let pages = try await Self.pages(org.client)
            #expect(pages.count == 1)
            #expect(pages[0]["primingRecords"] == .object(OrgJSONObject()))
            #expect(pages[0]["stats"]?.objectValue?["ruleCountTotal"] == 0)
        }
    }

    @Test func briefcasesComeFromTheSchemaFileAndPersistWithTheOrg() async throws {
        try await TemporaryDirectory.with { directory in
            let file = directory.appendingPathComponent("schema.yaml")
            try Data(
                """
                briefcases:
                  - name: Field
                    rules:
                      - object: account
                        filter: "Industry = 'Energy'"
                      - object: Contact
                """.utf8
            ).write(to: file)
            let schema = try OrgSchema.standard.merging(contentsOf: file)
            #expect(
                schema.briefcases == [
                    OrgBriefcase(
                        name: "Field",
                        rules: [.init(object: "Account", filter: "Industry = 'Energy'"), .init(object: "Contact")]
                    )
                ]
            )
            let data = directory.appendingPathComponent("org")
            _ = try OrgDatabase(directory: data, schema: schema)
            #expect(try OrgDatabase(directory: data).schema.briefcases == schema.briefcases)
        }
    }

    @Test(arguments: [
        (
            #"{"briefcases": [{"name": "B", "rules": [{"object": "Widget"}]}]}"#,
            "'Widget' is not an object of the schema"
        ),
        (#"{"briefcases": [{"name": "B", "rules": [{"object": "Account", "where": "x"}]}]}"#, "unknown key 'where'"),
        (#"{"briefcases": [{"name": "B", "rules": [{"object": "Account", "filter": " "}]}]}"#, "\"filter\" is empty"),
        (#"{"briefcases": [{"name": "B", "rules": []}, {"name": "B", "rules": []}]}"#, "declared twice"),
        (#"{"briefcases": [{"rules": []}]}"#, "missing \"name\""),
        (#"{"brefcases": []}"#, "unknown key 'brefcases'"),
    ])
    func invalidBriefcasesAreRefusedWithTheirLocation(json: String, message: String) async throws {
        try await TemporaryDirectory.with { directory in
            let file = directory.appendingPathComponent("schema.json")
            try Data(json.utf8).write(to: file)
            let error = #expect(throws: OrgError.self) { try OrgSchema.standard.merging(contentsOf: file) }
            #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
            #expect(error?.message.hasPrefix("schema.json:") == true, "\(error?.message ?? "")")
        }
    }
}

/// A clock the local org stamps records with, moved by the test.
final class ManualClock: Sendable {
    private let lock = NSLock()
    private nonisolated(unsafe) var current = Date(timeIntervalSince1970: 1_767_225_600)

    var now: Date { lock.withLock { current } }

    func advance(seconds: Double) {
        lock.withLock { current = current.addingTimeInterval(seconds) }
    }
}
