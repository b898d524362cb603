import Foundation
import LocalOrg
import SyncrunTestSupport
import Testing

struct OrgPagingTests {
    private func seedAccounts(_ count: Int, into org: OrgDatabase) throws {
        try org.write { writer in
            for index in 0..<count {
                try writer.create("Account", fields: ["Name": .string(String(format: "Account %04d", index))])
            }
        }
    }

    @Test func pagesFollowLocatorsAcrossARestart() async throws {
        try await TemporaryDirectory.with { directory in
            let clock = TestClock(OrgFixtures.fixedNow)
            var org = try OrgFixtures.makeOrg(in: directory, clock: clock)
            try seedAccounts(450, into: org)
            let soql = "SELECT Name FROM Account ORDER BY Name DESC"
            let first = try org.query(soql, pageSize: 200, apiVersion: "59.0")
            #expect(first.totalSize == 450)
            #expect(!first.done)
            let locator = try #require(first.nextLocator)
            #expect(locator.hasPrefix("0r8") && locator.hasSuffix("-200"))
            #expect(first.nextRecordsURL(apiVersion: "59.0") == "/services/data/v59.0/query/\(locator)")
            // Changes after the first page do not move later pages (the cursor is a snapshot).
            _ = try org.write { try $0.create("Account", fields: ["Name": "Account 9999"]) }

            org = try OrgFixtures.makeOrg(in: directory, clock: clock)
            let second = try org.queryMore(locator: locator, pageSize: 200, apiVersion: "59.0")
            #expect(second.totalSize == 450)
            let third = try org.queryMore(locator: try #require(second.nextLocator), pageSize: 200, apiVersion: "59.0")
            #expect(third.done)
            #expect(third.nextLocator == nil)
            var names: [String] = []
            for page in [first, second, third] {
                names += try OrgFixtures.values("Name", in: page.recordsJSON).compactMap(\.stringValue)
            }
            #expect(names == (0..<450).reversed().map { String(format: "Account %04d", $0) })
            let body = String(decoding: second.responseBody(apiVersion: "59.0"), as: UTF8.self)
            #expect(body.hasPrefix(#"{"totalSize":450,"done":false,"nextRecordsUrl":"/services/data/v59.0/query/"#))
        }
    }

    @Test func unknownAndExpiredLocatorsAreRejected() async throws {
        try await TemporaryDirectory.with { directory in
            let clock = TestClock(OrgFixtures.fixedNow)
            let org = try OrgFixtures.makeOrg(in: directory, clock: clock)
            try seedAccounts(250, into: org)
            let first = try org.query("SELECT Id FROM Account", pageSize: 200, apiVersion: "59.0")
            let locator = try #require(first.nextLocator)
            for bad in ["0r8Lo0000000000AAA-200", "garbage", String(locator.dropLast(4)) + "-9000"] {
                let error = try OrgFixtures.error { try org.queryMore(locator: bad, apiVersion: "59.0") }
                #expect(error.status == 400)
                #expect(error.errorCode == "INVALID_QUERY_LOCATOR")
            }
            clock.advance(by: 3 * 24 * 3600)
            let expired = try OrgFixtures.error { try org.queryMore(locator: locator, apiVersion: "59.0") }
            #expect(expired.errorCode == "INVALID_QUERY_LOCATOR")
        }
    }

    @Test func bigResultsPageQuickly() async throws {
        try await TemporaryDirectory.with { directory in
            let org = try OrgFixtures.makeOrg(in: directory)
            try seedAccounts(5_000, into: org)
            let start = Date()
            var page = try org.query(
                "SELECT Id, Name, CreatedDate, Owner.Name FROM Account",
                pageSize: 2000,
                apiVersion: "59.0"
            )
            var count = try OrgFixtures.ids(page.recordsJSON).count
            while let locator = page.nextLocator {
                page = try org.queryMore(locator: locator, pageSize: 2000, apiVersion: "59.0")
                count += try OrgFixtures.ids(page.recordsJSON).count
            }
            #expect(count == 5_000)
            #expect(Date().timeIntervalSince(start) < 20)
        }
    }
}
