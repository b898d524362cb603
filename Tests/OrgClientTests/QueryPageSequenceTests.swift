import SyncrunTestSupport
import Testing

@testable import OrgClient

/// `queryPages`: the next page requested while the caller uses the current one, never more than
/// one page ahead, errors in page order, and no request left running after the caller is gone.
struct QueryPageSequenceTests {
    /// The first record id of each page received, in order.
    private func firstIDs(_ pages: [QueryPage]) -> [String] {
        pages.map { page in
            let text = page.body.text
            guard let start = text.range(of: #""Id":""#)?.upperBound,
                let end = text[start...].firstIndex(of: "\"")
            else { return "" }
            return String(text[start..<end])
        }
    }

    @Test func requestsTheNextPageWhileTheCurrentOneIsUsedAndNoFurther() async throws {
        let org = ScriptedPagesClient([.page(records: 2), .page(records: 2), .page(records: 1)])
        var pages: [QueryPage] = []
        for try await page in org.queryPages("SELECT Id FROM Account") {
            pages.append(page)
            // The caller "writes" the page: it finishes only once the next page was asked for,
            // which happens only when the sequence fetches ahead.
            if pages.count < 3 { _ = await org.waitFor("request \(pages.count + 1)") }
            org.record("used \(pages.count)")
        }
        #expect(firstIDs(pages) == ["p1-r0", "p2-r0", "p3-r0"])
        let log = org.log
        #expect(log == ["request 1", "request 2", "used 1", "request 3", "used 2", "used 3"])
        #expect(org.mostConcurrentRequests == 1)
    }

    @Test func anErrorOfThePageFetchedAheadIsThrownWhenThatPageIsAskedFor() async throws {
        let failure = OrgClientError(code: .serverError, message: "page 2 failed")
        let org = ScriptedPagesClient([.page(records: 2), .failure(failure), .page(records: 2)])
        var pages: [QueryPage] = []
        let error = await #expect(throws: OrgClientError.self) {
            for try await page in org.queryPages("SELECT Id FROM Account") {
                pages.append(page)
                _ = await org.waitFor("request 2")
                org.record("used \(pages.count)")
            }
        }
        #expect(error?.message == "page 2 failed")
        // Page 1 was handed out and used whole before the error of page 2, fetched meanwhile.
        #expect(firstIDs(pages) == ["p1-r0"])
        #expect(org.log == ["request 1", "request 2", "used 1"])
    }

    @Test func leavingTheLoopCancelsThePageFetchedAhead() async throws {
        let org = ScriptedPagesClient([.page(records: 1), .hang, .page(records: 1)])
        for try await _ in org.queryPages("SELECT Id FROM Account") {
            #expect(await org.waitFor("request 2"))
            break
        }
        #expect(await org.waitFor("cancelled 2"))
        #expect(!org.log.contains("request 3"))
    }

    @Test func cancellingTheCallerCancelsThePageFetchedAhead() async throws {
        let org = ScriptedPagesClient([.page(records: 1), .hang, .page(records: 1)])
        let reader = Task {
            var count = 0
            for try await _ in org.queryPages("SELECT Id FROM Account") {
                count += 1
                org.record("used \(count)")
            }
            return count
        }
        #expect(await org.waitFor("request 2"))
        reader.cancel()
        await #expect(throws: CancellationError.self) { try await reader.value }
        #expect(await org.waitFor("cancelled 2"))
        #expect(
            org.log == ["request 1", "used 1", "request 2", "cancelled 2"]
                || org.log == ["request 1", "request 2", "used 1", "cancelled 2"]
        )
    }

    @Test func continuesFromAPageAlreadyFetched() async throws {
        let org = ScriptedPagesClient([.page(records: 1), .page(records: 1), .page(records: 1)])
        let first = try await org.queryFirstPage("SELECT Id FROM Account", options: QueryOptions())
        var pages: [QueryPage] = []
        for try await page in org.queryPages(continuing: first) {
            pages.append(page)
        }
        #expect(firstIDs(pages) == ["p1-r0", "p2-r0", "p3-r0"])
        #expect(org.log == ["request 1", "request 2", "request 3"])
    }

    @Test func followsANestedChildSetFromItsNextRecordsURL() async throws {
        let org = ScriptedPagesClient([.page(records: 1), .page(records: 1), .page(records: 1)])
        var pages: [QueryPage] = []
        for try await page in org.queryPages(following: ScriptedPagesClient.url(ofPage: 2)) {
            pages.append(page)
        }
        #expect(firstIDs(pages) == ["p2-r0", "p3-r0"])
        #expect(org.log == ["request 2", "request 3"])
        var none = 0
        for try await _ in org.queryPages(following: nil) { none += 1 }
        #expect(none == 0)
        #expect(org.log == ["request 2", "request 3"])
    }
}

/// The page fetched ahead goes through `queryMore`'s host check: a `nextRecordsUrl` (top-level or
/// of a nested child set) that is not a path under `/services/data/` is refused, and the token is
/// never sent there.
struct QueryPageSequenceHostTests {
    @Test func aNextRecordsURLElsewhereIsRefusedWhenThatPageIsAskedFor() async throws {
        let first =
            #"{"totalSize":4,"done":false,"nextRecordsUrl":"https://evil.example/services/data/v62.0/query/x-2","records":[{"Id":"1"}]}"#
        let transport = ScriptedTransport([.respond(200, body: first)])
        let (client, _, _) = try transport.makeClient()
        var pages = 0
        let error = await #expect(throws: OrgClientError.self) {
            for try await _ in client.queryPages("SELECT Id FROM Account") { pages += 1 }
        }
        #expect(pages == 1)
        #expect(error?.code == .invalidResponse)
        #expect(transport.requests.count == 1)
    }

    @Test(arguments: [
        "https://evil.example/services/data/v62.0/query/x-2", "//evil.example/services/data/v62.0/q", "/other/path",
    ])
    func aNestedChildSetElsewhereIsRefusedWithoutARequest(url: String) async throws {
        let transport = ScriptedTransport([])
        let (client, _, _) = try transport.makeClient()
        let error = await #expect(throws: OrgClientError.self) {
            for try await _ in client.queryPages(following: url) {}
        }
        #expect(error?.code == .invalidResponse)
        #expect(transport.requests.isEmpty)
    }
}
